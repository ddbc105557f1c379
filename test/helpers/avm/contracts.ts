/**
 * Real contracts for the differential corpus: the transpiled 4.1.2 artifacts (`AvmTest`, `Token`, `AMM`, ...),
 * their packed public bytecode, and calldata encoded from the artifact's ABI with Aztec's own encoder (function
 * selector first, as `public_dispatch` expects).
 */
import { createRequire } from 'node:module';
import { DomainSeparator } from '@aztec/constants';
import { poseidon2HashWithSeparator } from '@aztec/foundation/crypto/poseidon';
import { Fr } from '@aztec/foundation/curves/bn254';
import {
  type ContractArtifact,
  encodeArguments,
  type FunctionAbi,
  FunctionSelector,
  loadContractArtifact,
} from '@aztec/stdlib/abi';
import { AztecAddress } from '@aztec/stdlib/aztec-address';
import { siloNullifier } from '@aztec/stdlib/hash';
import type { NoirCompiledContract } from '@aztec/stdlib/noir';
import { createContractClassAndInstance } from '../../../node_modules/@aztec/simulator/dest/public/avm/fixtures/utils.js';
import { initOracleCrypto } from './oracle-crypto.js';
import type { ContractDescription } from './world-description.js';

const require = createRequire(import.meta.url);

/** A loaded artifact with its public functions' ABIs and selectors. */
export interface LoadedContract {
  artifact: ContractArtifact;
  packedBytecode: Uint8Array;
  functions: Map<string, { abi: FunctionAbi; selector: bigint }>;
}

/** `pkg` is `@aztec/noir-contracts.js` or `@aztec/noir-test-contracts.js`; `file` the artifact's file name. */
export async function loadContract(pkg: string, file: string): Promise<LoadedContract> {
  await initOracleCrypto();
  const json = require(`${pkg}/artifacts/${file}`) as NoirCompiledContract;
  const artifact = loadContractArtifact(json);
  const dispatch = json.functions.find((f) => f.name === 'public_dispatch');
  if (dispatch === undefined) throw new Error(`${file} has no public_dispatch`);
  const functions = new Map<string, { abi: FunctionAbi; selector: bigint }>();
  for (const fn of artifact.functions) {
    if (fn.functionType !== 'public' || fn.name === 'public_dispatch') continue;
    const selector = await FunctionSelector.fromNameAndParameters(fn.name, fn.parameters);
    functions.set(fn.name, { abi: fn, selector: selector.toField().toBigInt() });
  }
  for (const fn of artifact.nonDispatchPublicFunctions ?? []) {
    if (functions.has(fn.name)) continue;
    const selector = await FunctionSelector.fromNameAndParameters(fn.name, fn.parameters);
    functions.set(fn.name, { abi: fn, selector: selector.toField().toBigInt() });
  }
  return { artifact, packedBytecode: Buffer.from(dispatch.bytecode, 'base64'), functions };
}

/** Calldata for `fn(args...)`: selector, then the arguments encoded as the ABI says. */
export function encodeCall(contract: LoadedContract, fn: string, args: unknown[]): bigint[] {
  const f = contract.functions.get(fn);
  if (f === undefined) throw new Error(`${contract.artifact.name} has no public function ${fn}`);
  return [f.selector, ...encodeArguments(f.abi, args).map((x) => x.toBigInt())];
}

/** The contract deployed at `address` with class id `classId`, its function names registered for revert reasons. */
export function deployed(
  contract: LoadedContract,
  address: bigint,
  classId: bigint,
  extra: Partial<ContractDescription> = {},
): ContractDescription {
  const functionNames = new Map<number, string>();
  for (const [name, f] of contract.functions)
    functionNames.set(Number(f.selector), `${contract.artifact.name}.${name}`);
  return { address, classId, packedBytecode: contract.packedBytecode, functionNames, ...extra };
}

/** A protocol contract (addresses 1..6) as 4.1.2 publishes it: canonical address, class id and bytecode. */
export async function protocolContract(
  name: 'AuthRegistry' | 'ContractInstanceRegistry' | 'FeeJuice',
): Promise<ContractDescription> {
  await initOracleCrypto();
  const canonical =
    name === 'AuthRegistry'
      ? await (await import('@aztec/protocol-contracts/auth-registry')).getCanonicalAuthRegistry()
      : name === 'FeeJuice'
        ? await (await import('@aztec/protocol-contracts/fee-juice')).getCanonicalFeeJuice()
        : await (await import('@aztec/protocol-contracts/instance-registry')).getCanonicalInstanceRegistry();
  return {
    address: canonical.address.toBigInt(),
    classId: canonical.contractClass.id.toBigInt(),
    packedBytecode: canonical.contractClass.packedBytecode,
    deployer: canonical.instance.deployer.toBigInt(),
    initializationHash: canonical.instance.initializationHash.toBigInt(),
  };
}

/**
 * An instance of `contract` deployed by `deployer` with the initialization hash of `constructorArgs` (so its
 * public initializer accepts them), its class made by Aztec's own fixture from `seed`.
 */
export async function withConstructor(
  contract: LoadedContract,
  constructorArgs: unknown[],
  deployer: bigint,
  seed: number,
): Promise<ContractDescription> {
  await initOracleCrypto();
  const { contractClass, contractInstance } = await createContractClassAndInstance(
    constructorArgs,
    new AztecAddress(new Fr(deployer)),
    contract.artifact,
    seed,
  );
  return deployed(contract, contractInstance.address.toBigInt(), contractClass.id.toBigInt(), {
    deployer,
    initializationHash: contractInstance.initializationHash.toBigInt(),
  });
}

/** The siloed nullifier private code emits for a partial note of `token` that `completer` may complete in public. */
export async function partialNoteValidity(token: bigint, commitment: bigint, completer: bigint): Promise<bigint> {
  await initOracleCrypto();
  const validity = await poseidon2HashWithSeparator(
    [new Fr(commitment), new Fr(completer)],
    DomainSeparator.PARTIAL_NOTE_VALIDITY_COMMITMENT,
  );
  return (await siloNullifier(new AztecAddress(new Fr(token)), validity)).toBigInt();
}
