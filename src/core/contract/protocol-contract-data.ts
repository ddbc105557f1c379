import { Fr } from '../fr.js';
import { ContractClassPublic } from './contract-class-public.js';

/** One protocol contract as 4.1.2 publishes it: class id preimage, public bytecode (base64), public functions. */
export interface ProtocolContractData {
  readonly name: string;
  readonly address: bigint;
  readonly classId: string;
  readonly artifactHash: string;
  readonly privateFunctionsRoot: string;
  readonly publicBytecodeCommitment: string;
  /** What 4.1.2's archiver registers as function names at start-up (the artifact's public functions). */
  readonly publicFunctionSignatures: readonly string[];
  readonly packedBytecode: string;
}

/** A contract a chain may hold from genesis without publication: its class as above and its instance's fields. */
export interface GenesisContractData extends ProtocolContractData {
  readonly salt: string;
  readonly deployer: string;
  readonly initializationHash: string;
}

/** The class a contract's data describes (its id preimage and packed public bytecode). */
export function contractClassOf(d: ProtocolContractData): ContractClassPublic {
  return new ContractClassPublic(
    Fr.fromString(d.classId),
    Fr.fromString(d.artifactHash),
    Buffer.from(d.packedBytecode, 'base64'),
    Fr.fromString(d.privateFunctionsRoot),
  );
}
