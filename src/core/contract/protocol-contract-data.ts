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
