/**
 * The six protocol contracts (AuthRegistry, ContractInstanceRegistry, ContractClassRegistry, MultiCallEntrypoint,
 * FeeJuice, PublicChecks) at addresses 1..6, present from genesis without any deployment: 4.1.2's archiver
 * registers them in its store at start-up, so public execution finds their classes and instances, and nothing
 * on chain ever publishes them. Their data comes from the published 4.1.2 artifacts (protocol-contracts-generated.ts).
 *
 * Instances as 4.1.2 makes them: salt 1, deployer = own address, initialization hash 0, default public keys,
 * original class = current class (protocol contracts are never upgraded).
 */
import { AztecAddress } from '../aztec-address.js';
import { Fr } from '../fr.js';
import type { ContractClassPublic } from './contract-class-public.js';
import { ContractInstanceWithAddress } from './contract-instance-with-address.js';
import { contractClassOf } from './protocol-contract-data.js';
import { PROTOCOL_CONTRACTS_DATA } from './protocol-contracts-generated.js';
import { PublicKeys } from './public-keys.js';

export interface ProtocolContract {
  readonly name: string;
  readonly address: bigint;
  readonly contractClass: ContractClassPublic;
  readonly publicBytecodeCommitment: bigint;
  readonly instance: ContractInstanceWithAddress;
  readonly publicFunctionSignatures: readonly string[];
}

export const PROTOCOL_CONTRACTS: readonly ProtocolContract[] = PROTOCOL_CONTRACTS_DATA.map((d) => {
  const classId = Fr.fromString(d.classId);
  const address = new AztecAddress(d.address);
  return {
    name: d.name,
    address: d.address,
    contractClass: contractClassOf(d),
    publicBytecodeCommitment: BigInt(d.publicBytecodeCommitment),
    instance: new ContractInstanceWithAddress(
      new Fr(1n),
      address,
      classId,
      classId,
      Fr.ZERO,
      PublicKeys.default(),
      address,
    ),
    publicFunctionSignatures: d.publicFunctionSignatures,
  };
});

const byAddress = new Map(PROTOCOL_CONTRACTS.map((c) => [c.address, c]));
const byClassId = new Map(PROTOCOL_CONTRACTS.map((c) => [c.contractClass.id.value, c]));

/** The protocol contract instance at `address`, if one lives there. */
export function getProtocolContractInstance(address: bigint): ContractInstanceWithAddress | undefined {
  return byAddress.get(address)?.instance;
}

/** The class of a protocol contract, by class id. */
export function getProtocolContractClass(classId: bigint): ContractClassPublic | undefined {
  return byClassId.get(classId)?.contractClass;
}
