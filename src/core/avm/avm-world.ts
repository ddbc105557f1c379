/**
 * What the AVM reads from outside: world state and contract code, through two synchronous interfaces.
 *
 * Design note. The interpreter (interpreter.ts) is pure and synchronous: no I/O, no clock, no promises. Everything
 * it needs from the chain comes through `AvmWorldStateReader` (the trees as they stood before the tx, read-only)
 * and `AvmContractSource` (instances and class bytecode). Every write the tx makes (storage, note hashes,
 * nullifiers, logs, messages) goes into an `AvmJournal` (journal.ts) that overlays the reader: reads see the
 * journal first, then the reader. The journal has a checkpoint stack, so a nested call that reverts discards its
 * effects and a tx-level processor can checkpoint per phase. The daemon implements the reader on its SQLite
 * world-state fork, whose reads are synchronous; keeping the whole VM synchronous is what makes it several times
 * faster than Aztec's simulator, which awaits on every read. `InMemoryAvmWorld` (in-memory-avm-world.ts)
 * implements both interfaces for tests.
 *
 * All values are bigints holding canonical BN254 field elements (0 <= v < p) unless a type says otherwise.
 */

/** Read-only view of the five trees as they stood before the tx (earlier txs of the block included). */
export interface AvmWorldStateReader {
  /** Value stored at a public data tree leaf slot; 0n when the slot has never been written. */
  getPublicData(leafSlot: bigint): bigint;
  /** Whether a siloed nullifier is in the nullifier tree. */
  nullifierExists(siloedNullifier: bigint): boolean;
  /** Number of leaves in the note hash tree; the tx's own note hashes are appended after them. */
  getNoteHashTreeSize(): bigint;
  /** The note hash tree leaf at `index` (< size); undefined past the end. */
  getNoteHashLeaf(index: bigint): bigint | undefined;
  /** The L1-to-L2 message tree leaf at `index`; undefined past the end. */
  getL1ToL2MessageLeaf(index: bigint): bigint | undefined;
}

/** The fields of a contract instance the AVM uses (GETCONTRACTINSTANCE and bytecode lookup). */
export interface AvmContractInstance {
  address: bigint;
  deployer: bigint;
  /** The class the instance was deployed with. */
  originalContractClassId: bigint;
  /** The class in force at the block's timestamp, upgrades applied (equal to the original when never upgraded). */
  currentContractClassId: bigint;
  initializationHash: bigint;
}

/** A contract class as far as public execution is concerned: its packed public bytecode (`public_dispatch`). */
export interface AvmContractClass {
  id: bigint;
  /** Raw AVM bytecode; empty when the class has no public functions. */
  packedBytecode: Uint8Array;
}

/** Where contract code comes from: the store's published instances and classes, protocol contracts included. */
export interface AvmContractSource {
  /** The instance at `address` as of `timestamp` (the block's), or undefined when none is deployed there. */
  getContractInstance(address: bigint, timestamp: bigint): AvmContractInstance | undefined;
  /** The class with this id, or undefined when it was never published. */
  getContractClass(classId: bigint): AvmContractClass | undefined;
  /** A readable name for a function (e.g. `transfer(Field,Field)`), used only in revert reasons. */
  getDebugFunctionName(address: bigint, selector: number): string | undefined;
}

/** The block's global variables, as far as the AVM reads them (GETENVVAR). */
export interface AvmGlobals {
  chainId: bigint;
  version: bigint;
  blockNumber: number;
  timestamp: bigint;
  feePerDaGas: bigint;
  feePerL2Gas: bigint;
}

/** A gas amount in both dimensions. Plain numbers: every AVM gas figure fits in 32 bits. */
export interface AvmGas {
  l2Gas: number;
  daGas: number;
}
