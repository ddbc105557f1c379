/**
 * One plain description of the state a public call starts from, turned into the same state for both sides of
 * a differential test: Aztec's TypeScript simulator (an `OracleFork` and a `ContractDataSource`) and our
 * interpreter (an `InMemoryAvmWorld`). Values are bigints; storage is given per contract and slot and sited at
 * its leaf slot with Aztec's own hash (stdlib), so both sides hold the very same tree contents.
 */
import {
  CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS,
  MAX_NOTE_HASHES_PER_TX,
  MAX_PROTOCOL_CONTRACTS,
  NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP,
} from '@aztec/constants';
import { BlockNumber, SlotNumber } from '@aztec/foundation/branded-types';
import { Fr } from '@aztec/foundation/curves/bn254';
import { EthAddress } from '@aztec/foundation/eth-address';
import { AztecAddress } from '@aztec/stdlib/aztec-address';
import type { ContractClassPublic, ContractDataSource, ContractInstanceWithAddress } from '@aztec/stdlib/contract';
import { GasFees } from '@aztec/stdlib/gas';
import { computePublicDataTreeLeafSlot, siloNullifier } from '@aztec/stdlib/hash';
import { PublicKeys } from '@aztec/stdlib/keys';
import { GlobalVariables } from '@aztec/stdlib/tx';
import { initOracleCrypto } from './oracle-crypto.js';
import { OracleFork } from './oracle-fork.js';

export interface ContractDescription {
  address: bigint;
  classId: bigint;
  /** The class's packed public bytecode (`public_dispatch` of a transpiled artifact, or a raw program). */
  packedBytecode: Uint8Array;
  deployer?: bigint;
  initializationHash?: bigint;
  /** Readable names by function selector, for revert reasons (`Contract.fn`). */
  functionNames?: Map<number, string>;
}

export interface GlobalsDescription {
  chainId: bigint;
  version: bigint;
  blockNumber: number;
  slotNumber: number;
  timestamp: bigint;
  coinbase: bigint;
  feeRecipient: bigint;
  feePerDaGas: bigint;
  feePerL2Gas: bigint;
}

export interface WorldDescription {
  storage?: { contract: bigint; slot: bigint; value: bigint }[];
  /** Siloed nullifiers already in the tree (deployment nullifiers of `contracts` are added by themselves). */
  nullifiers?: bigint[];
  noteHashes?: bigint[];
  l1ToL2Messages?: bigint[];
  contracts?: ContractDescription[];
  globals?: Partial<GlobalsDescription>;
}

export const DEFAULT_GLOBALS: GlobalsDescription = {
  chainId: 31337n,
  version: 1n,
  blockNumber: 7,
  slotNumber: 9,
  timestamp: 1_700_000_000n,
  coinbase: 0x1234n,
  feeRecipient: 0x5678n,
  feePerDaGas: 2n,
  feePerL2Gas: 3n,
};

/** The description with everything derived: leaf slots, deployment nullifiers, complete globals. */
export interface ResolvedWorld {
  publicData: { leafSlot: bigint; value: bigint }[];
  nullifiers: bigint[];
  noteHashes: bigint[];
  l1ToL2Messages: bigint[];
  contracts: ContractDescription[];
  globals: GlobalsDescription;
}

const GENESIS_NULLIFIERS = 128;

/**
 * The leaves followed by zeros up to a multiple of `unit`: a chain's note hash tree grows by 64 leaves per tx and
 * its L1-to-L2 message tree by 1024 per checkpoint, so indices a little past the last real leaf read as 0.
 */
function padded(leaves: bigint[], unit: number): bigint[] {
  const size = Math.max(unit, Math.ceil(leaves.length / unit) * unit);
  return [...leaves, ...new Array<bigint>(size - leaves.length).fill(0n)];
}

export const isProtocolAddress = (a: bigint) => a >= 1n && a <= BigInt(MAX_PROTOCOL_CONTRACTS);

export async function resolveWorld(d: WorldDescription): Promise<ResolvedWorld> {
  await initOracleCrypto();
  const publicData = [];
  for (const s of d.storage ?? []) {
    const leafSlot = await computePublicDataTreeLeafSlot(new AztecAddress(new Fr(s.contract)), new Fr(s.slot));
    publicData.push({ leafSlot: leafSlot.toBigInt(), value: s.value });
  }
  // A fresh Aztec nullifier tree is prefilled with 128 leaves whose keys are 0..127, so NULLIFIEREXISTS finds
  // those values on every chain; the public data tree's 128 prefilled leaves hold 0 and read like absent ones.
  const nullifiers = [...Array.from({ length: GENESIS_NULLIFIERS }, (_, i) => BigInt(i)), ...(d.nullifiers ?? [])];
  const registry = AztecAddress.fromNumber(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS);
  for (const c of d.contracts ?? []) {
    if (!isProtocolAddress(c.address)) nullifiers.push((await siloNullifier(registry, new Fr(c.address))).toBigInt());
  }
  return {
    publicData,
    nullifiers,
    noteHashes: padded(d.noteHashes ?? [], MAX_NOTE_HASHES_PER_TX),
    l1ToL2Messages: padded(d.l1ToL2Messages ?? [], NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP),
    contracts: [...(d.contracts ?? [])],
    globals: { ...DEFAULT_GLOBALS, ...d.globals },
  };
}

export function toGlobalVariables(g: GlobalsDescription): GlobalVariables {
  return new GlobalVariables(
    new Fr(g.chainId),
    new Fr(g.version),
    BlockNumber(g.blockNumber),
    SlotNumber(g.slotNumber),
    g.timestamp,
    EthAddress.fromField(new Fr(g.coinbase)),
    new AztecAddress(new Fr(g.feeRecipient)),
    new GasFees(g.feePerDaGas, g.feePerL2Gas),
  );
}

/** The contracts of a world as Aztec's `ContractDataSource` (the methods `PublicContractsDB` uses). */
export class DescribedContractDataSource {
  private readonly instances = new Map<bigint, ContractInstanceWithAddress>();
  private readonly classes = new Map<bigint, ContractClassPublic>();
  private readonly names = new Map<string, string>();

  constructor(contracts: ContractDescription[]) {
    for (const c of contracts) {
      const classId = new Fr(c.classId);
      this.instances.set(c.address, {
        version: 1,
        salt: Fr.ZERO,
        deployer: new AztecAddress(new Fr(c.deployer ?? 0n)),
        currentContractClassId: classId,
        originalContractClassId: classId,
        initializationHash: new Fr(c.initializationHash ?? 0n),
        publicKeys: PublicKeys.default(),
        address: new AztecAddress(new Fr(c.address)),
      });
      this.classes.set(c.classId, {
        id: classId,
        version: 1,
        artifactHash: Fr.ZERO,
        privateFunctionsRoot: Fr.ZERO,
        packedBytecode: Buffer.from(c.packedBytecode),
        privateFunctions: [],
        utilityFunctions: [],
      } as unknown as ContractClassPublic);
      for (const [selector, name] of c.functionNames ?? []) this.names.set(`${c.address}:${selector}`, name);
    }
  }

  asContractDataSource(): ContractDataSource {
    return this as unknown as ContractDataSource;
  }

  getContract(address: AztecAddress) {
    return Promise.resolve(this.instances.get(address.toBigInt()));
  }
  getContractClass(id: Fr) {
    return Promise.resolve(this.classes.get(id.toBigInt()));
  }
  getBytecodeCommitment(_id: Fr) {
    return Promise.resolve(undefined);
  }
  getDebugFunctionName(address: AztecAddress, selector: { toField(): Fr }) {
    return Promise.resolve(this.names.get(`${address.toBigInt()}:${selector.toField().toBigInt()}`));
  }
}

export function oracleForkFor(w: ResolvedWorld): OracleFork {
  return new OracleFork({
    nullifiers: w.nullifiers,
    publicData: w.publicData,
    noteHashes: w.noteHashes,
    l1ToL2Messages: w.l1ToL2Messages,
  });
}
