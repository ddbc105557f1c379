/**
 * The per-tx state journal: every effect public execution has on the world, kept in order, over a read-only
 * `AvmWorldStateReader`. One journal serves a whole tx: the tx-level processor inserts the private side effects,
 * runs the enqueued calls of each phase on it, checkpoints per phase, and reads the accumulated effects and
 * counts at the end. The interpreter checkpoints around every nested call, so a reverted call leaves nothing.
 *
 * Rules reproduced from Aztec 4.1.2's state manager and side-effect trace:
 * - storage is keyed by leaf slot H(PUBLIC_LEAF_SLOT; address, slot); reads see the tx's earlier writes;
 * - public note hashes are siloed with the emitting contract, then made unique with a nonce built from the tx's
 *   first nullifier and the number of note hashes already in the tx; nullifiers are siloed; both go in the
 *   journal's view of the trees at once;
 * - per-tx limits (note hashes, nullifiers, L2-to-L1 messages, public log fields, user and protocol storage
 *   writes) count only effects that survived reverts; a storage write counts only the first time an
 *   (address, slot) pair is written ("cold"), and a slot written in a reverted call is cold again;
 * - the set of contract classes whose bytecode was fetched, and the debug logs, survive reverts.
 */
import {
  CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS,
  FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH,
  L1_TO_L2_MSG_TREE_LEAF_COUNT,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PROTOCOL_CONTRACTS,
  MAX_PUBLIC_CALLS_TO_UNIQUE_CONTRACT_CLASS_IDS,
  MAX_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX,
  NOTE_HASH_TREE_LEAF_COUNT,
  PROTOCOL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX,
  PUBLIC_LOG_HEADER_LENGTH,
  UPDATED_CLASS_IDS_SLOT,
} from '../constants.js';
import { poseidon2Hash } from '../crypto/poseidon2.js';
import { FR_MODULUS, toHex64 } from '../fr.js';
import {
  computeNoteHashNonce,
  computePublicDataTreeLeafSlot,
  computeUniqueNoteHash,
  deriveStorageSlotInMap,
  siloNoteHash,
  siloNullifier,
} from '../hash/siloing.js';
import type { LogLevel } from '../logs/debug-log.js';
import type { AvmContractInstance, AvmContractSource, AvmWorldStateReader } from './avm-world.js';
import { AvmHaltError, AvmInternalError, sideEffectLimitReached } from './errors.js';

/** One SSTORE (or protocol write) in execution order; the tx effect squashes these per leaf slot. */
export interface AvmPublicDataWrite {
  contractAddress: bigint;
  slot: bigint;
  leafSlot: bigint;
  value: bigint;
}

/** An L2-to-L1 message scoped to the contract that sent it; `recipient` is an Ethereum address (< 2^160). */
export interface AvmL2ToL1Message {
  recipient: bigint;
  content: bigint;
  contractAddress: bigint;
}

export interface AvmPublicLog {
  contractAddress: bigint;
  fields: bigint[];
}

export interface AvmDebugLog {
  contractAddress: bigint;
  /** calldata[0] of the call that printed it, when it fits a selector (names the function in node logs). */
  functionSelector?: number;
  level: LogLevel;
  message: string;
  fields: bigint[];
}

/** Everything the tx has emitted so far that survived reverts, in emission order. */
export interface AvmSideEffects {
  publicDataWrites: AvmPublicDataWrite[];
  /** Unique (siloed, nonced) note hashes, as inserted in the note hash tree. */
  noteHashes: bigint[];
  /** Siloed nullifiers, as inserted in the nullifier tree. */
  nullifiers: bigint[];
  l2ToL1Messages: AvmL2ToL1Message[];
  publicLogs: AvmPublicLog[];
}

export interface AvmJournalOptions {
  world: AvmWorldStateReader;
  contracts: AvmContractSource;
  /** The tx's first nullifier, which seeds the nonces of note hashes emitted in public. */
  firstNullifier: bigint;
  /** The block's timestamp: contract instances (and upgrades) are looked up as of it. */
  timestamp: bigint;
}

/** Addresses 1..11 hold protocol contracts, which have no deployment nullifier and no upgrades. */
export function isProtocolContractAddress(address: bigint): boolean {
  return address >= 1n && address <= BigInt(MAX_PROTOCOL_CONTRACTS);
}

const UNDO_PUBLIC_DATA = 0;
const UNDO_NULLIFIER = 1;
const UNDO_WRITTEN_SLOT = 2;

interface UndoEntry {
  kind: number;
  key: bigint | string;
  previous: bigint | undefined;
}

interface Checkpoint {
  publicDataWrites: number;
  noteHashes: number;
  nullifiers: number;
  l2ToL1Messages: number;
  publicLogs: number;
  userWrites: number;
  protocolWrites: number;
  publicLogFields: number;
  undo: number;
}

function addMod(a: bigint, b: bigint): bigint {
  const s = a + b;
  return s >= FR_MODULUS ? s - FR_MODULUS : s;
}

export class AvmJournal {
  readonly world: AvmWorldStateReader;
  readonly contracts: AvmContractSource;
  readonly firstNullifier: bigint;
  readonly timestamp: bigint;

  private readonly publicDataWrites: AvmPublicDataWrite[] = [];
  private readonly noteHashes: bigint[] = [];
  private readonly nullifiers: bigint[] = [];
  private readonly l2ToL1Messages: AvmL2ToL1Message[] = [];
  private readonly publicLogs: AvmPublicLog[] = [];
  private userWrites = 0;
  private protocolWrites = 0;
  private publicLogFields = 0;

  /** Pending public data by leaf slot, pending nullifiers, and the (address, slot) pairs written so far. */
  private readonly pendingPublicData = new Map<bigint, bigint>();
  private readonly pendingNullifiers = new Set<bigint>();
  private readonly writtenSlots = new Set<string>();
  private readonly undoLog: UndoEntry[] = [];
  private readonly checkpoints: Checkpoint[] = [];

  private readonly noteHashTreeBaseSize: bigint;
  /** Survive reverts (as in 4.1.2): classes whose bytecode was fetched, debug logs and their memory reads. */
  private readonly fetchedClassIds = new Set<bigint>();
  readonly debugLogs: AvmDebugLog[] = [];
  debugLogMemoryReads = 0;

  constructor(options: AvmJournalOptions) {
    this.world = options.world;
    this.contracts = options.contracts;
    this.firstNullifier = options.firstNullifier;
    this.timestamp = options.timestamp;
    this.noteHashTreeBaseSize = options.world.getNoteHashTreeSize();
  }

  // --- checkpoints ---

  /** Opens a checkpoint: everything emitted after it can be dropped by `revertCheckpoint`. */
  checkpoint(): void {
    this.checkpoints.push({
      publicDataWrites: this.publicDataWrites.length,
      noteHashes: this.noteHashes.length,
      nullifiers: this.nullifiers.length,
      l2ToL1Messages: this.l2ToL1Messages.length,
      publicLogs: this.publicLogs.length,
      userWrites: this.userWrites,
      protocolWrites: this.protocolWrites,
      publicLogFields: this.publicLogFields,
      undo: this.undoLog.length,
    });
  }

  /** Keeps what was emitted since the innermost checkpoint (it becomes part of the enclosing one). */
  commitCheckpoint(): void {
    if (this.checkpoints.pop() === undefined) throw new AvmInternalError('commitCheckpoint without a checkpoint');
  }

  /** Drops everything emitted since the innermost checkpoint. */
  revertCheckpoint(): void {
    const cp = this.checkpoints.pop();
    if (cp === undefined) throw new AvmInternalError('revertCheckpoint without a checkpoint');
    this.publicDataWrites.length = cp.publicDataWrites;
    this.noteHashes.length = cp.noteHashes;
    this.nullifiers.length = cp.nullifiers;
    this.l2ToL1Messages.length = cp.l2ToL1Messages;
    this.publicLogs.length = cp.publicLogs;
    this.userWrites = cp.userWrites;
    this.protocolWrites = cp.protocolWrites;
    this.publicLogFields = cp.publicLogFields;
    for (let i = this.undoLog.length - 1; i >= cp.undo; i--) {
      const u = this.undoLog[i] as UndoEntry;
      if (u.kind === UNDO_PUBLIC_DATA) {
        if (u.previous === undefined) this.pendingPublicData.delete(u.key as bigint);
        else this.pendingPublicData.set(u.key as bigint, u.previous);
      } else if (u.kind === UNDO_NULLIFIER) {
        this.pendingNullifiers.delete(u.key as bigint);
      } else {
        this.writtenSlots.delete(u.key as string);
      }
    }
    this.undoLog.length = cp.undo;
  }

  get checkpointDepth(): number {
    return this.checkpoints.length;
  }

  // --- reading the accumulated effects ---

  /** The effects so far, in emission order (live arrays: copy them to keep a snapshot). */
  getSideEffects(): AvmSideEffects {
    return {
      publicDataWrites: this.publicDataWrites,
      noteHashes: this.noteHashes,
      nullifiers: this.nullifiers,
      l2ToL1Messages: this.l2ToL1Messages,
      publicLogs: this.publicLogs,
    };
  }

  /** A copy of the effects so far, safe to keep while the journal moves on. */
  snapshotSideEffects(): AvmSideEffects {
    return {
      publicDataWrites: this.publicDataWrites.slice(),
      noteHashes: this.noteHashes.slice(),
      nullifiers: this.nullifiers.slice(),
      l2ToL1Messages: this.l2ToL1Messages.slice(),
      publicLogs: this.publicLogs.slice(),
    };
  }

  // --- public storage ---

  readStorage(contractAddress: bigint, slot: bigint): bigint {
    const leafSlot = computePublicDataTreeLeafSlot(contractAddress, slot);
    const pending = this.pendingPublicData.get(leafSlot);
    return pending !== undefined ? pending : this.world.getPublicData(leafSlot);
  }

  /** Whether (address, slot) has not been written yet in this tx; a cold write costs DA gas and counts. */
  isStorageCold(contractAddress: bigint, slot: bigint): boolean {
    return !this.writtenSlots.has(slotKey(contractAddress, slot));
  }

  /**
   * Writes a storage slot. `protocolWrite` marks the fee payment, which has its own limit of one. Throws an
   * `AvmHaltError` when the write is cold and its limit is reached.
   */
  writeStorage(contractAddress: bigint, slot: bigint, value: bigint, protocolWrite = false): void {
    const key = slotKey(contractAddress, slot);
    if (!this.writtenSlots.has(key)) {
      if (protocolWrite) {
        if (this.protocolWrites >= PROTOCOL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX) {
          throw sideEffectLimitReached(
            'protocol public data (contract storage) write',
            PROTOCOL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX,
          );
        }
        this.protocolWrites++;
      } else {
        if (this.userWrites >= MAX_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX) {
          throw sideEffectLimitReached('public data (contract storage) write', MAX_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX);
        }
        this.userWrites++;
      }
      this.writtenSlots.add(key);
      this.undoLog.push({ kind: UNDO_WRITTEN_SLOT, key, previous: undefined });
    }
    const leafSlot = computePublicDataTreeLeafSlot(contractAddress, slot);
    this.publicDataWrites.push({ contractAddress, slot, leafSlot, value });
    this.undoLog.push({ kind: UNDO_PUBLIC_DATA, key: leafSlot, previous: this.pendingPublicData.get(leafSlot) });
    this.pendingPublicData.set(leafSlot, value);
  }

  // --- note hashes ---

  /**
   * NOTEHASHEXISTS: the raw leaf at `leafIndex` equals `noteHash`. An index past the tree's capacity is simply
   * false; one past its current end (tx's own note hashes included) is an `AvmInternalError`, as the 4.1.2
   * simulator's world state answers no leaf there and it asserts.
   */
  noteHashExistsAt(noteHash: bigint, leafIndex: bigint): boolean {
    if (leafIndex > NOTE_HASH_TREE_LEAF_COUNT) return false;
    let leaf: bigint | undefined;
    if (leafIndex < this.noteHashTreeBaseSize) leaf = this.world.getNoteHashLeaf(leafIndex);
    else {
      const i = leafIndex - this.noteHashTreeBaseSize;
      leaf = i < BigInt(this.noteHashes.length) ? this.noteHashes[Number(i)] : undefined;
    }
    if (leaf === undefined) throw new AvmInternalError('Unexpected null response from note hash tree');
    return leaf === noteHash;
  }

  /** EMITNOTEHASH: silo with the contract, make unique with the next nonce, insert. */
  emitNoteHash(contractAddress: bigint, noteHash: bigint): void {
    this.insertSiloedNoteHash(siloNoteHash(contractAddress, noteHash));
  }

  /** A siloed note hash (a revertible one from private, or one emitted in public): the nonce is applied here. */
  insertSiloedNoteHash(siloedNoteHash: bigint): void {
    const nonce = computeNoteHashNonce(this.firstNullifier, this.noteHashes.length);
    this.insertUniqueNoteHash(computeUniqueNoteHash(nonce, siloedNoteHash));
  }

  /** A note hash already made unique (the non-revertible ones from private). */
  insertUniqueNoteHash(uniqueNoteHash: bigint): void {
    if (this.noteHashes.length >= MAX_NOTE_HASHES_PER_TX) {
      throw sideEffectLimitReached('note hash', MAX_NOTE_HASHES_PER_TX);
    }
    this.noteHashes.push(uniqueNoteHash);
  }

  /** Note hashes in the tx so far (the next one's index for its nonce). */
  get noteHashCount(): number {
    return this.noteHashes.length;
  }

  // --- nullifiers ---

  nullifierExists(siloedNullifier: bigint): boolean {
    return this.pendingNullifiers.has(siloedNullifier) || this.world.nullifierExists(siloedNullifier);
  }

  /**
   * Traces and inserts a siloed nullifier. Returns false on a collision: the nullifier is then in the trace but not
   * in the tree, which only matters until the failing frame or phase is reverted, as in 4.1.2. Throws an
   * `AvmHaltError` when the per-tx limit is reached.
   */
  tryInsertSiloedNullifier(siloedNullifier: bigint): boolean {
    if (this.nullifiers.length >= MAX_NULLIFIERS_PER_TX) {
      throw sideEffectLimitReached('nullifier', MAX_NULLIFIERS_PER_TX);
    }
    this.nullifiers.push(siloedNullifier);
    if (this.nullifierExists(siloedNullifier)) return false;
    this.pendingNullifiers.add(siloedNullifier);
    this.undoLog.push({ kind: UNDO_NULLIFIER, key: siloedNullifier, previous: undefined });
    return true;
  }

  /** A siloed nullifier from private; a collision throws `AvmHaltError` with 4.1.2's message. */
  insertSiloedNullifier(siloedNullifier: bigint): void {
    if (!this.tryInsertSiloedNullifier(siloedNullifier)) {
      throw new AvmHaltError(
        `Nullifier collision: Siloed nullifier ${toHex64(siloedNullifier)} already exists in parent cache or host.`,
      );
    }
  }

  /** EMITNULLIFIER's journal half: silo and insert; false on a collision. */
  emitNullifier(contractAddress: bigint, nullifier: bigint): boolean {
    return this.tryInsertSiloedNullifier(siloNullifier(contractAddress, nullifier));
  }

  // --- messages and logs ---

  /** L1TOL2MSGEXISTS: as NOTEHASHEXISTS, on the L1-to-L2 message tree (capacity 2^36). */
  l1ToL2MessageExistsAt(msgHash: bigint, leafIndex: bigint): boolean {
    if (leafIndex > L1_TO_L2_MSG_TREE_LEAF_COUNT) return false;
    const leaf = this.world.getL1ToL2MessageLeaf(leafIndex);
    if (leaf === undefined) throw new AvmInternalError('Unexpected null response from l1 to l2 message tree');
    return leaf === msgHash;
  }

  /** An L2-to-L1 message (from public, or a private one inserted by the tx processor). */
  insertL2ToL1Message(contractAddress: bigint, recipient: bigint, content: bigint): void {
    if (this.l2ToL1Messages.length >= MAX_L2_TO_L1_MSGS_PER_TX) {
      throw sideEffectLimitReached('l2 to l1 message', MAX_L2_TO_L1_MSGS_PER_TX);
    }
    this.l2ToL1Messages.push({ recipient, content, contractAddress });
  }

  emitPublicLog(contractAddress: bigint, fields: bigint[]): void {
    const size = fields.length + PUBLIC_LOG_HEADER_LENGTH;
    if (this.publicLogFields + size > FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH) {
      throw sideEffectLimitReached('public log fields', FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH);
    }
    this.publicLogFields += size;
    this.publicLogs.push({ contractAddress, fields });
  }

  // --- contracts ---

  /**
   * The instance at `address` as GETCONTRACTINSTANCE and calls see it. Outside the protocol addresses the
   * contract source must agree with the nullifier tree (the instance registry's deployment nullifier), and the
   * current class id with the registry's delayed public storage; 4.1.2 asserts both, so a disagreement is an
   * `AvmInternalError`.
   */
  getContractInstance(address: bigint): AvmContractInstance | undefined {
    const instance = this.contracts.getContractInstance(address, this.timestamp);
    if (isProtocolContractAddress(address)) return instance;
    const deployed = this.nullifierExists(siloNullifier(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS, address));
    if ((instance !== undefined) !== deployed) {
      throw new AvmInternalError(
        `Contract instance for address ${toHex64(address)} in DB: ${instance !== undefined} != nullifier tree: ${deployed}. This is a bug!`,
      );
    }
    if (instance === undefined) return undefined;
    this.checkCurrentClassId(instance);
    return instance;
  }

  private checkCurrentClassId(instance: AvmContractInstance): void {
    const registry = CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS;
    const slot = deriveStorageSlotInMap(UPDATED_CLASS_IDS_SLOT, instance.address);
    const hash = this.readStorage(registry, addMod(slot, 3n));
    const preimage = [
      this.readStorage(registry, slot),
      this.readStorage(registry, addMod(slot, 1n)),
      this.readStorage(registry, addMod(slot, 2n)),
    ];
    let expected: bigint;
    if (hash === 0n) {
      if (preimage.some((f) => f !== 0n)) {
        throw new AvmInternalError(
          `Found updatability hash 0 but preimage is not empty for contract instance ${toHex64(instance.address)}.`,
        );
      }
      expected = instance.originalContractClassId;
    } else {
      if (poseidon2Hash(preimage) !== hash) {
        throw new AvmInternalError(
          `Delayed public mutable values hash mismatch for contract instance ${toHex64(instance.address)}.`,
        );
      }
      const timestampOfChange = (preimage[0] as bigint) & 0xffffffffn;
      const current = this.timestamp < timestampOfChange ? (preimage[1] as bigint) : (preimage[2] as bigint);
      expected = current === 0n ? instance.originalContractClassId : current;
    }
    if (instance.currentContractClassId !== expected) {
      throw new AvmInternalError(
        `Current class id mismatch for contract instance ${toHex64(instance.address)}. Expected: ${toHex64(expected)}, current: ${toHex64(instance.currentContractClassId)}`,
      );
    }
  }

  /**
   * The bytecode a call to `address` runs, or undefined when there is no instance there or the tx has already
   * fetched MAX_PUBLIC_CALLS_TO_UNIQUE_CONTRACT_CLASS_IDS other classes (the call then reverts).
   */
  getBytecode(address: bigint): { classId: bigint; bytecode: Uint8Array } | undefined {
    const instance = this.getContractInstance(address);
    if (instance === undefined) return undefined;
    const classId = instance.currentContractClassId;
    const cls = this.contracts.getContractClass(classId);
    if (cls === undefined) {
      throw new AvmInternalError(
        `Contract class not found in DB, but a contract instance was found with this class ID (${toHex64(classId)}). This should not happen!`,
      );
    }
    if (!this.fetchedClassIds.has(classId)) {
      if (this.fetchedClassIds.size >= MAX_PUBLIC_CALLS_TO_UNIQUE_CONTRACT_CLASS_IDS) return undefined;
      this.fetchedClassIds.add(classId);
    }
    return { classId, bytecode: cls.packedBytecode };
  }

  getDebugFunctionName(address: bigint, selector: number): string | undefined {
    return this.contracts.getDebugFunctionName(address, selector);
  }
}

function slotKey(contractAddress: bigint, slot: bigint): string {
  return `${contractAddress.toString(16)}:${slot.toString(16)}`;
}
