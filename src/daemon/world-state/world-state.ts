import type { AppendOnlyTreeSnapshot } from '../../core/block/append-only-tree-snapshot.js';
import { BlockHeader } from '../../core/block/block-header.js';
import type { StateReference } from '../../core/block/state-reference.js';
import { randomToken48 } from '../../core/crypto/secure-random-bytes.js';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { type BatchHasher, InThreadBatchHasher } from './batch-hasher.js';
import { CommittedTree, type TreeSnapshot } from './committed-tree.js';
import { emptySubtreeRoot } from './empty-subtrees.js';
import { checkedFieldBuffer } from './field-buffer.js';
import { type GenesisPublicData, genesisNullifierLeaves, genesisPublicDataLeaves } from './genesis-state.js';
import {
  decodeIndexedLeaf,
  encodeIndexedLeaf,
  type IndexedLeaf,
  type IndexedLeafKind,
  type IndexedLeafPreimage,
  leafHashWidth,
  writeLeafHashInput,
  ZERO32,
} from './indexed-leaf.js';
import { LatestNodeCache } from './latest-node-cache.js';
import { MerkleTreeId, parseTreeId, TREE_COUNT, TREES, treeInfo } from './merkle-tree-id.js';
import type { SiblingPath } from './sibling-path.js';
import { TreeOverlay } from './tree-overlay.js';
import type {
  LeafInBlock,
  MembershipWitness,
  NullifierMembershipWitness,
  PublicDataWitness,
  WorldStateSyncStatus,
} from './witnesses.js';
import {
  BlockNotAvailableError,
  BlockRejectedError,
  InvalidWorldStateArgumentError,
  UpstreamStateNeededError,
  UpstreamWitnessRejectedError,
  WorldStateError,
  WorldStateStateError,
} from './world-state-errors.js';
import { type PublicDataWrite, type TxTreeEffects, WorldStateFork } from './world-state-fork.js';
import { LEVEL_SPAN, storeKey, TREE_SPAN, WorldStateRepository } from './world-state-repository.js';
import { type LowLeafResult, type TreeMetadata, type TreeSource, WorldStateView } from './world-state-view.js';

/** A block to read: a number, or the latest block. */
export type BlockSelector = number | 'latest';

export interface WorldStateOptions {
  /**
   * How many blocks of history stay readable (the latest N); older ones are pruned once finalized.
   * 0 or undefined keeps every block (the dev-mode default).
   */
  readonly historyBlocks?: number;
  /** Public data present at genesis (e.g. prefunded fee juice balances): tree leaf slots and values. */
  readonly genesisPublicData?: readonly GenesisPublicData[];
  /** The hashing engine for tree nodes (a worker pool, say); defaults to hashing on the calling thread. */
  readonly hasher?: BatchHasher;
  /**
   * The database holds this genesis already, as a genesis image keyed by every genesis input says
   * (src/daemon/store/genesis-image.ts): open does not rebuild the genesis trees to compare their hash. They are
   * built when first read (block 0's state), as on every other open.
   */
  readonly genesisFromImage?: boolean;
}

/** The tree side of a block, as the chain code hands it over; the chain code owns headers. */
export interface BlockToApply {
  readonly blockNumber: number;
  /** The header hash: the block's archive leaf. */
  readonly blockHash: bigint;
  /** The header's state reference; the computed state must equal it or the block is rejected. */
  readonly state: StateReference;
  /** The header's lastArchive; when given, it must equal the archive before this block. */
  readonly lastArchive?: AppendOnlyTreeSnapshot;
  readonly txs: readonly TxTreeEffects[];
  /**
   * Public data writes applied before the txs: the state cheat codes' overrides (docs/cheat-codes.md), which the
   * header's roots include and the body does not carry.
   */
  readonly stateOverrides?: readonly PublicDataWrite[];
  /** True for the first block of a checkpoint (indexWithinCheckpoint 0): it appends the checkpoint's messages. */
  readonly firstInCheckpoint: boolean;
  /** The checkpoint's L1-to-L2 messages (at most 1024, padded with zeros); must be empty otherwise. */
  readonly l1ToL2Messages: readonly bigint[];
}

export interface ForkCommit {
  readonly blockNumber: number;
  readonly blockHash: bigint;
  /** When given, the fork's state must equal it. */
  readonly state?: StateReference;
}

export interface WorldStateUnwindOptions {
  /** Allows unwinding below the finalized block; below the oldest kept block it clears the trees to genesis. */
  readonly force?: boolean;
}

export interface UnwindResult {
  readonly latestBlockNumber: number;
  /** True when history did not reach the target and the trees were reset to genesis (resync needed). */
  readonly clearedToGenesis: boolean;
}

/** Where a lazily forked world state starts (WorldState.openSparse): an upstream's block and its trees. */
export interface SparseBase {
  readonly blockNumber: number;
  /** The block's hash: the archive leaf at blockNumber. */
  readonly blockHash: bigint;
  /** The block header's state reference. */
  readonly state: StateReference;
  /** The archive after the block (blockNumber + 1 leaves), as the upstream's block carries it. */
  readonly archive: AppendOnlyTreeSnapshot;
}

/** An upstream leaf with the path that proves it (a witness), as WorldState.addUpstreamPath takes it. */
export interface UpstreamLeafPath {
  readonly tree: MerkleTreeId;
  readonly index: number;
  /**
   * The leaf: an append-only tree's value or an indexed tree's leaf hash (zero, the empty leaf, when not given),
   * or an indexed tree's preimage, which also makes its key and preimage readable.
   */
  readonly value?: Buffer;
  readonly preimage?: IndexedLeaf;
  /** Siblings from the leaf level up (height entries). */
  readonly siblingPath: readonly Buffer[];
}

interface BlockState {
  readonly hash: Buffer;
  readonly snapshots: readonly TreeSnapshot[];
}

const STATE_RECORD = 40;
/** Values per tree a lazy fork remembers the upstream does not hold, before it starts over (bounds memory). */
const ABSENT_VALUES_KEPT = 1 << 16;

/**
 * The world state: the five Aztec trees (docs/aztec-facts.md section 3) kept in the node's SQLite database,
 * readable at any retained block, with forks for block building and simulation, unwinding, finality and
 * history pruning. Writes run inside the caller's transaction when there is one (better-sqlite3 nests them
 * as savepoints), so a block and its world state commit together.
 *
 * An in-memory copy of the tip (block number, roots, sizes) is checked against a random token in ws_meta
 * that every write changes, so a transaction rolled back by the caller is noticed before the next use.
 */
export class WorldState {
  private readonly store: WorldStateRepository;
  private readonly hasher: BatchHasher;
  private readonly historyBlocks: number;
  private readonly genesisPublicData: readonly GenesisPublicData[];
  private readonly genesisFromImage: boolean;
  /** The genesis hash stored in a database copied from a genesis image (see genesisFromImage). */
  private imageGenesisHash: Buffer | undefined;
  private builtGenesis:
    | { readonly overlays: TreeOverlay[]; readonly hash: Buffer; readonly state: StateReference }
    | undefined;
  private token: number | undefined;
  private latest = 0;
  private finalized = 0;
  private oldest = 0;
  private latestState: BlockState | undefined;
  private readonly stateCache = new Map<number, BlockState>();
  private readonly nodeCache = new LatestNodeCache(TREE_COUNT);
  /** Per tree, values the upstream said it did not hold at a lazy fork's block (see addUpstreamLeafLocation). */
  private readonly upstreamAbsent = TREES.map(() => new Set<string>());
  /** A lazy fork's base: the upstream's block and its trees' snapshots there (see openSparse). */
  private sparse: { readonly block: number; readonly snapshots: readonly TreeSnapshot[] } | undefined;

  private constructor(
    private readonly db: SqliteDatabase,
    options: WorldStateOptions,
  ) {
    const history = options.historyBlocks ?? 0;
    if (!Number.isInteger(history) || history < 0) {
      throw new InvalidWorldStateArgumentError(`historyBlocks must be a non-negative integer, got ${history}`);
    }
    this.historyBlocks = history;
    this.store = new WorldStateRepository(db);
    this.hasher = options.hasher ?? new InThreadBatchHasher();
    this.genesisPublicData = options.genesisPublicData ?? [];
    this.genesisFromImage = options.genesisFromImage ?? false;
  }

  /** The genesis block's trees, hash and state, built on first use (from the genesis public data alone). */
  private get genesis(): NonNullable<WorldState['builtGenesis']> {
    this.builtGenesis ??= this.buildGenesis(this.genesisPublicData);
    return this.builtGenesis;
  }

  /**
   * Opens the world state in a migrated node database, writing the genesis block on first use. A database
   * whose genesis differs (another prefill) is refused.
   */
  static open(db: SqliteDatabase, options: WorldStateOptions = {}): WorldState {
    const ws = new WorldState(db, options);
    ws.initialize();
    return ws;
  }

  /**
   * Opens a lazily forked world state (--fork-url): block `base.blockNumber` is an upstream's, of which this
   * database holds nothing at first but the trees' roots and sizes. Reads of the upstream's part that was not
   * fetched throw UpstreamStateNeededError (never a wrong answer); the caller fetches the witness from the upstream
   * at that block (addUpstreamPath), which is kept in the database, and asks again. Blocks built on it have the
   * roots a node holding the upstream's whole state computes: appends use the frontier (the path of the leaf at
   * each tree's size, fetched before the first block), indexed inserts the upstream's low leaves.
   * A database that already holds this fork is opened as it is; one holding another chain is refused.
   */
  static openSparse(db: SqliteDatabase, base: SparseBase, options: WorldStateOptions = {}): WorldState {
    const ws = new WorldState(db, options);
    const stored = ws.store.getMeta('sparseBlock') as number | undefined;
    if (ws.store.getMeta('genesis') === undefined) {
      ws.atomically(() => ws.writeSparseBase(base));
      ws.token = undefined;
    } else if (stored !== base.blockNumber) {
      throw new WorldStateStateError(
        stored === undefined
          ? 'This data directory holds a chain of its own, not a lazy fork: use an empty data directory'
          : `This data directory holds a lazy fork at block ${stored}, not ${base.blockNumber}`,
      );
    }
    ws.initialize();
    return ws;
  }

  /** The upstream's block a lazy fork starts from; undefined for a world state of its own. */
  get sparseBlock(): number | undefined {
    this.refresh();
    return this.sparse?.block;
  }

  /**
   * Keeps an upstream leaf's path (a witness fetched at the fork's block) once it proves the upstream's root
   * there: its siblings, the nodes it passes and the leaf (an indexed leaf's preimage and key) become readable.
   * A path that does not hash to that root is refused, so a wrong answer from the upstream cannot make a root.
   */
  addUpstreamPath(p: UpstreamLeafPath): void {
    this.refresh();
    const sparse = this.sparse;
    if (!sparse) throw new WorldStateStateError('addUpstreamPath is for a lazily forked world state');
    const info = treeInfo(parseTreeId(p.tree));
    const snapshot = sparse.snapshots[info.id] as TreeSnapshot;
    if (!Number.isSafeInteger(p.index) || p.index < 0 || p.index >= 2 ** info.height) {
      throw new InvalidWorldStateArgumentError(`Leaf index ${p.index} is outside ${info.name}`);
    }
    if (p.siblingPath.length !== info.height) {
      throw new InvalidWorldStateArgumentError(
        `${info.name} paths have ${info.height} siblings, the upstream sent ${p.siblingPath.length}`,
      );
    }
    let leafHash: Buffer;
    if (info.kind === 'append-only') leafHash = p.value ?? ZERO32;
    else if (p.preimage) {
      const kind = info.kind as IndexedLeafKind;
      const input = Buffer.alloc(leafHashWidth(kind) * 32);
      writeLeafHashInput(kind, p.preimage, input, 0);
      leafHash = Buffer.from(this.hasher.hashBatch(input, leafHashWidth(kind)));
    } else leafHash = p.value ?? ZERO32;
    // The nodes the path passes, bottom up; the last is the root.
    const passed: Buffer[] = [leafHash];
    let node = leafHash;
    let i = p.index;
    for (let level = 0; level < info.height; level++) {
      const sibling = p.siblingPath[level] as Buffer;
      const input = i % 2 === 0 ? Buffer.concat([node, sibling]) : Buffer.concat([sibling, node]);
      node = Buffer.from(this.hasher.hashBatch(input, 2));
      passed.push(node);
      i = Math.floor(i / 2);
    }
    if (!node.equals(snapshot.root)) {
      throw new UpstreamWitnessRejectedError(
        `the upstream's path of ${info.name} leaf ${p.index} gives root 0x${node.toString('hex')}, not the ` +
          `root 0x${snapshot.root.toString('hex')} of its block ${sparse.block}`,
      );
    }
    const nodes: [number, Buffer][] = [];
    const leaves: [number, Buffer, Buffer][] = [];
    i = p.index;
    for (let level = 0; level < info.height; level++) {
      const sibling = i % 2 === 0 ? i + 1 : i - 1;
      nodes.push([storeKey(info.id, level, sibling), p.siblingPath[level] as Buffer]);
      const own = passed[level] as Buffer;
      if (level > 0 || info.kind === 'append-only' || !p.preimage) nodes.push([storeKey(info.id, level, i), own]);
      else leaves.push([storeKey(info.id, 0, i), encodeIndexedLeaf(info.kind as IndexedLeafKind, p.preimage), own]);
      i = Math.floor(i / 2);
    }
    // Nodes past the upstream's size are empty anyway; rows for them would only take room.
    const kept = nodes.filter(([k]) => upstreamPart(k, info.id, snapshot.size));
    this.atomically(() => {
      this.store.insertUpstreamRows(sparse.block, kept, leaves);
      if (p.preimage && info.kind !== 'append-only') this.store.insertUpstreamKey(info.id, p.preimage.key, p.index);
    });
  }

  /**
   * Keeps the upstream's answer to where a value is in a tree at the fork's block (node_findLeavesIndexes): its
   * index and inserting block, or that it is not there (remembered in memory: the upstream's block never changes).
   */
  addUpstreamLeafLocation(
    tree: MerkleTreeId,
    value: bigint,
    found: { index: bigint; blockNumber: number } | undefined,
  ): void {
    this.refresh();
    const sparse = this.sparse;
    if (!sparse) throw new WorldStateStateError('addUpstreamLeafLocation is for a lazily forked world state');
    const info = treeInfo(parseTreeId(tree));
    const key = checkedFieldBuffer(value, 'leaf value');
    if (!found) {
      const absent = this.upstreamAbsent[info.id] as Set<string>;
      if (absent.size >= ABSENT_VALUES_KEPT) absent.clear();
      absent.add(key.toString('hex'));
      return;
    }
    const index = Number(found.index);
    const size = (sparse.snapshots[info.id] as TreeSnapshot).size;
    if (!Number.isSafeInteger(index) || index < 0 || index >= size || found.blockNumber > sparse.block) {
      throw new UpstreamWitnessRejectedError(
        `the upstream places 0x${value.toString(16)} at ${info.name} leaf ${found.index}, block ${found.blockNumber}: ` +
          `not within its ${size} leaves at block ${sparse.block}`,
      );
    }
    this.atomically(() => this.store.upsertUpstreamKey(info.id, key, index, found.blockNumber));
  }

  // ---- status ----

  get latestBlockNumber(): number {
    this.refresh();
    return this.latest;
  }

  getSyncStatus(): WorldStateSyncStatus {
    this.refresh();
    return {
      latestBlockNumber: this.latest,
      latestBlockHash: readField32((this.latestState as BlockState).hash),
      finalizedBlockNumber: this.finalized,
      oldestHistoricBlockNumber: this.oldest,
      // One SQLite transaction writes all five trees, so they cannot drift apart.
      treesAreSynched: true,
    };
  }

  /** The state reference of the genesis block. */
  getInitialStateReference(): StateReference {
    return this.genesis.state;
  }

  /**
   * The archive right after genesis: one leaf, the genesis block header hash. It is block 0's `archive`
   * and block 1's `lastArchive` (4.1.2: GENESIS_ARCHIVE_ROOT with the default prefill).
   */
  getGenesisArchive(): AppendOnlyTreeSnapshot {
    return new WorldStateView(
      0,
      (id) => this.genesis.overlays[id] as TreeOverlay,
      () => {},
    ).getArchiveSnapshot();
  }

  /** The genesis block header hash (archive leaf 0). */
  getGenesisBlockHash(): bigint {
    return readField32(this.imageGenesisHash ?? this.genesis.hash);
  }

  /**
   * The value (an indexed tree's key) at a leaf of the genesis trees, zero when empty: a lazy fork of an upstream
   * whose tree still ends in a genesis leaf finds that leaf's witness by it.
   */
  getGenesisLeafValue(tree: MerkleTreeId, index: number): bigint {
    return readField32((this.genesis.overlays[parseTreeId(tree)] as TreeOverlay).getLeafValue(index));
  }

  /** The hash of a block (its archive leaf), if the block exists. */
  getBlockHash(blockNumber: number): bigint | undefined {
    this.refresh();
    if (!Number.isInteger(blockNumber) || blockNumber < 0 || blockNumber > this.latest) return undefined;
    if (blockNumber === this.latest) return readField32((this.latestState as BlockState).hash);
    // Archive leaves are written once and never pruned, so this works for blocks beyond history too.
    const leaf = this.store.getNode(storeKey(MerkleTreeId.ARCHIVE, 0, blockNumber), this.latest);
    if (!leaf && this.sparse && blockNumber < this.sparse.block) {
      throw new UpstreamStateNeededError({ kind: 'node', tree: MerkleTreeId.ARCHIVE, level: 0, index: blockNumber });
    }
    return leaf ? readField32(leaf) : undefined;
  }

  /** The number of the block with this hash (an archive leaf index), if any. */
  getBlockNumber(blockHash: bigint): number | undefined {
    const [index] = this.view('latest').findLeafIndices(MerkleTreeId.ARCHIVE, [blockHash]);
    return index === undefined ? undefined : Number(index);
  }

  // ---- reads at a block ----

  /** A read-only view of the trees after `block` (latest by default). */
  view(block: BlockSelector = 'latest'): WorldStateView {
    this.refresh();
    const b = this.resolve(block);
    return new WorldStateView(b, this.treesAt(b), this.guardFor(b));
  }

  getStateReference(block: BlockSelector = 'latest'): StateReference {
    return this.view(block).getStateReference();
  }

  getArchiveSnapshot(block: BlockSelector = 'latest'): AppendOnlyTreeSnapshot {
    return this.view(block).getArchiveSnapshot();
  }

  getTreeInfo(block: BlockSelector, treeId: MerkleTreeId): TreeMetadata {
    return this.view(block).getTreeInfo(treeId);
  }

  getSiblingPath(block: BlockSelector, treeId: MerkleTreeId, leafIndex: bigint): SiblingPath {
    return this.view(block).getSiblingPath(treeId, leafIndex);
  }

  getLeafValue(block: BlockSelector, treeId: MerkleTreeId, leafIndex: bigint): bigint {
    return this.view(block).getLeafValue(treeId, leafIndex);
  }

  getLeafPreimage(block: BlockSelector, treeId: MerkleTreeId, leafIndex: bigint): IndexedLeafPreimage | undefined {
    return this.view(block).getLeafPreimage(treeId, leafIndex);
  }

  /** The leaf with the largest key <= `key` in an indexed tree (nullifier or public data). */
  findLowLeaf(block: BlockSelector, treeId: MerkleTreeId, key: bigint): LowLeafResult {
    return this.view(block).findLowLeaf(treeId, key);
  }

  /**
   * node_findLeavesIndexes: for each value, its leaf index and the block that inserted it, or undefined.
   * Indexed trees are searched by key (nullifier, public data leaf slot).
   */
  findLeavesIndexes(
    block: BlockSelector,
    treeId: MerkleTreeId,
    values: readonly bigint[],
  ): (LeafInBlock | undefined)[] {
    const view = this.view(block);
    const found = view.findLeafLocations(parseTreeId(treeId), values);
    const hashes = new Map<number, bigint>();
    return found.map((f) => {
      if (!f) return undefined;
      const blockNumber = f.blockNumber as number;
      let blockHash = hashes.get(blockNumber);
      if (blockHash === undefined) {
        blockHash = this.getBlockHash(blockNumber) as bigint;
        hashes.set(blockNumber, blockHash);
      }
      return { index: f.index, blockNumber, blockHash };
    });
  }

  getNullifierMembershipWitness(block: BlockSelector, nullifier: bigint): NullifierMembershipWitness | undefined {
    return this.view(block).getNullifierMembershipWitness(nullifier);
  }

  getLowNullifierMembershipWitness(block: BlockSelector, nullifier: bigint): NullifierMembershipWitness | undefined {
    return this.view(block).getLowNullifierMembershipWitness(nullifier);
  }

  getPublicDataWitness(block: BlockSelector, leafSlot: bigint): PublicDataWitness | undefined {
    return this.view(block).getPublicDataWitness(leafSlot);
  }

  /** The value at a public data tree leaf slot (already siloed); 0 when never written. */
  getPublicStorageAt(block: BlockSelector, leafSlot: bigint): bigint {
    return this.view(block).getPublicStorageAt(leafSlot);
  }

  getNoteHashMembershipWitness(block: BlockSelector, noteHash: bigint): MembershipWitness | undefined {
    return this.view(block).getNoteHashMembershipWitness(noteHash);
  }

  /**
   * Proves `blockHash` is an archive leaf, against the archive as of the block before `block`, so the path
   * matches the lastArchive root in `block`'s header (Aztec 4.1.x, docs/aztec-facts.md section 2.6). Undefined for
   * block 0 (its lastArchive is empty) and for hashes not in that archive.
   */
  getBlockHashMembershipWitness(block: BlockSelector, blockHash: bigint): MembershipWitness | undefined {
    this.refresh();
    const b = this.resolve(block);
    if (b === 0) return undefined;
    return this.view(b - 1).getArchiveMembershipWitness(blockHash);
  }

  /** The older getArchiveMembershipWitness: the archive as of `block` itself. */
  getArchiveMembershipWitness(block: BlockSelector, archiveLeaf: bigint): MembershipWitness | undefined {
    return this.view(block).getArchiveMembershipWitness(archiveLeaf);
  }

  /** The message's leaf index and sibling path in the L1-to-L2 message tree (wire: [index, SiblingPath<36>]). */
  getL1ToL2MessageMembershipWitness(block: BlockSelector, message: bigint): MembershipWitness | undefined {
    return this.view(block).getL1ToL2MessageMembershipWitness(message);
  }

  // ---- writes ----

  /** A writable fork on top of `block` (latest by default). Only a fork of the latest block can be committed. */
  fork(block: BlockSelector = 'latest'): WorldStateFork {
    this.refresh();
    const b = this.resolve(block);
    return new WorldStateFork(b, this.treesAt(b), this.guardFor(b));
  }

  /**
   * Applies a block's effects (docs/aztec-facts.md section 3.4): per tx 64 note hashes and 64 nullifiers
   * (zero-padded), public data writes in order, the checkpoint's L1-to-L2 messages padded to 1024 on its first
   * block, then the block hash into the archive. The computed state must equal the header's; otherwise
   * BlockRejectedError and nothing is written. Runs inside the caller's transaction if one is open (without a
   * savepoint): if anything else throws while rows are being written, the caller must roll that transaction back.
   */
  applyBlock(block: BlockToApply): StateReference {
    this.refresh();
    const n = block.blockNumber;
    if (n !== this.latest + 1) {
      throw new BlockRejectedError(`Block ${n} cannot be applied: the world state is at block ${this.latest}`);
    }
    if (!block.firstInCheckpoint && block.l1ToL2Messages.length > 0) {
      throw new BlockRejectedError(
        `Block ${n} is not the first of its checkpoint but brings ${block.l1ToL2Messages.length} L1-to-L2 messages`,
      );
    }
    const fork = this.fork(this.latest);
    try {
      if (block.lastArchive && !fork.getArchiveSnapshot().equals(block.lastArchive)) {
        const have = fork.getArchiveSnapshot();
        throw new BlockRejectedError(
          `Block ${n} lastArchive (${block.lastArchive.root.toString()}, ${block.lastArchive.nextAvailableLeafIndex}) ` +
            `is not the archive after block ${this.latest} (${have.root.toString()}, ${have.nextAvailableLeafIndex})`,
        );
      }
      if (block.stateOverrides && block.stateOverrides.length > 0) {
        try {
          fork.writePublicData(block.stateOverrides);
        } catch (e) {
          if (rejects(e)) throw new BlockRejectedError(`Block ${n}, state overrides: ${e.message}`);
          throw e;
        }
      }
      for (let i = 0; i < block.txs.length; i++) {
        try {
          fork.applyTxEffects(block.txs[i] as TxTreeEffects);
        } catch (e) {
          if (rejects(e)) throw new BlockRejectedError(`Block ${n}, tx ${i}: ${e.message}`);
          throw e;
        }
      }
      if (block.firstInCheckpoint) {
        try {
          fork.appendCheckpointMessages(block.l1ToL2Messages);
        } catch (e) {
          if (rejects(e)) throw new BlockRejectedError(`Block ${n}: ${e.message}`);
          throw e;
        }
      }
      return this.commitFork(fork, { blockNumber: n, blockHash: block.blockHash, state: block.state });
    } finally {
      fork.close();
    }
  }

  /**
   * Commits a fork of the latest block as block `blockNumber`: appends the block hash to its archive, checks
   * the state against `state` when given, and writes everything. The fork is used up.
   */
  commitFork(fork: WorldStateFork, commit: ForkCommit): StateReference {
    this.refresh();
    const n = commit.blockNumber;
    if (fork.blockNumber !== this.latest || n !== this.latest + 1) {
      throw new WorldStateStateError(
        `Cannot commit a fork of block ${fork.blockNumber} as block ${n}: the world state is at block ${this.latest}`,
      );
    }
    const state = fork.getStateReference();
    if (commit.state && !state.equals(commit.state)) {
      throw new BlockRejectedError(`Block ${n} state mismatch: ${describeMismatch(state, commit.state)}`);
    }
    fork.appendArchive(commit.blockHash);
    const overlays = fork.overlays();
    fork.markCommitted();
    this.writeBlock(n, checkedFieldBuffer(commit.blockHash, 'block hash'), overlays, true);
    return state;
  }

  /**
   * Removes the blocks above `target`. Refused below the finalized block unless forced; forced below the
   * oldest kept block, the trees go back to genesis and the node must resync.
   */
  unwindBlocks(target: number, options: WorldStateUnwindOptions = {}): UnwindResult {
    this.refresh();
    if (!Number.isInteger(target) || target < 0) {
      throw new InvalidWorldStateArgumentError(`Unwind target must be a block number >= 0, got ${target}`);
    }
    if (target >= this.latest) return { latestBlockNumber: this.latest, clearedToGenesis: false };
    if (target < this.finalized && !options.force) {
      throw new WorldStateStateError(
        `Cannot unwind to block ${target}: block ${this.finalized} is finalized (force clears world state for a resync)`,
      );
    }
    if (this.sparse && target < this.sparse.block) {
      throw new WorldStateStateError(
        `Cannot unwind to block ${target}: this world state is a lazy fork of its upstream's block ${this.sparse.block}`,
      );
    }
    if (target < this.oldest) {
      this.atomically(() => {
        this.store.clearAll();
        this.writeGenesis();
      });
      this.token = undefined;
      this.refresh();
      return { latestBlockNumber: 0, clearedToGenesis: true };
    }
    const from = this.blockState(target).snapshots;
    const to = (this.latestState as BlockState).snapshots;
    const latest = this.latest;
    this.atomically(() => {
      for (const info of TREES) {
        const lo = storeKey(info.id, 0, (from[info.id] as TreeSnapshot).size);
        const hi = storeKey(info.id, 0, (to[info.id] as TreeSnapshot).size);
        if (hi <= lo) continue;
        if (info.kind === 'append-only') {
          for (const row of this.store.nodesWrittenAfter(lo, hi, target)) {
            this.store.deleteKeyInsertedAfter(info.id, row.hash, target);
          }
        } else {
          const kind = info.kind as IndexedLeafKind;
          for (const row of this.store.leavesWrittenAfter(lo, hi, target)) {
            this.store.deleteKeyInsertedAfter(info.id, decodeIndexedLeaf(kind, row.leaf).key, target);
          }
        }
      }
      for (let b = latest; b > target; b--) {
        for (const j of this.store.getJournal(b)) {
          const base = j.tree * TREE_SPAN;
          forEachPacked(j.nodes, (id) => this.store.deleteNodeVersion(base + id, b));
          forEachPacked(j.leaves, (id) => this.store.deleteLeafVersion(base + id, b));
        }
      }
      this.store.deleteBlocksAbove(target);
      this.store.setMeta('latest', target);
      if (this.finalized > target) this.store.setMeta('finalized', target);
      this.bumpToken();
    });
    this.token = undefined;
    this.refresh();
    return { latestBlockNumber: this.latest, clearedToGenesis: false };
  }

  /** Marks blocks up to `blockNumber` final (they can no longer be unwound) and prunes history. */
  setFinalized(blockNumber: number): void {
    this.refresh();
    if (!Number.isInteger(blockNumber) || blockNumber < 0 || blockNumber > this.latest) {
      throw new InvalidWorldStateArgumentError(
        `Cannot finalize block ${blockNumber}: the world state holds blocks 0 to ${this.latest}`,
      );
    }
    if (blockNumber <= this.finalized) return;
    this.atomically(() => {
      this.store.setMeta('finalized', blockNumber);
      this.bumpToken();
      this.finalized = blockNumber;
      this.pruneInTransaction();
    });
    this.token = undefined;
    this.refresh();
  }

  /**
   * Drops history below the retention window (the latest `historyBlocks` blocks), never above the finalized
   * block. Returns the oldest block still readable.
   */
  pruneHistory(): number {
    this.refresh();
    this.atomically(() => this.pruneInTransaction());
    this.token = undefined;
    this.refresh();
    return this.oldest;
  }

  // ---- internals ----

  private pruneInTransaction(): void {
    if (this.historyBlocks === 0) return;
    const target = Math.min(this.finalized, this.latest - this.historyBlocks + 1);
    if (target <= this.oldest) return;
    for (let b = this.oldest + 1; b <= target; b++) {
      for (const j of this.store.getJournal(b)) {
        const base = j.tree * TREE_SPAN;
        forEachPacked(j.nodes, (id) => this.store.deleteNodeVersionsBefore(base + id, b));
        forEachPacked(j.leaves, (id) => this.store.deleteLeafVersionsBefore(base + id, b));
      }
    }
    this.store.deleteHistoryBelow(target);
    this.store.setMeta('oldest', target);
    this.bumpToken();
    this.oldest = target;
  }

  private initialize(): void {
    if (this.store.getMeta('genesis') === undefined) {
      this.atomically(() => this.writeGenesis());
    } else if (this.genesisFromImage) {
      // The image's genesis is this node's (its name covers every genesis input): its stored hash is the one
      // buildGenesis would give, and the chain's tips take it at once.
      this.imageGenesisHash = this.store.getMeta('genesis') as Buffer;
    } else {
      const stored = this.store.getMeta('genesis') as Buffer;
      if (!stored.equals(this.genesis.hash)) {
        throw new WorldStateStateError(
          `The database's world state starts from genesis block hash 0x${stored.toString('hex')}, but this node's ` +
            `genesis (its prefilled public data) gives 0x${this.genesis.hash.toString('hex')}; use the same genesis ` +
            'settings or another data directory',
        );
      }
    }
    this.refresh();
  }

  /**
   * A lazy fork's first rows: block `base.blockNumber` with the upstream's roots and sizes, the oldest and
   * finalized block (nothing below it is held), and no tree rows. The genesis fingerprint is this node's, which
   * the fork checked equals the upstream's.
   */
  private writeSparseBase(base: SparseBase): void {
    const n = base.blockNumber;
    const snap = (s: AppendOnlyTreeSnapshot): TreeSnapshot => ({
      root: bigIntToBuffer32(s.root.toBigInt()),
      size: s.nextAvailableLeafIndex,
    });
    const snapshots: TreeSnapshot[] = [];
    snapshots[MerkleTreeId.NULLIFIER_TREE] = snap(base.state.partial.nullifierTree);
    snapshots[MerkleTreeId.NOTE_HASH_TREE] = snap(base.state.partial.noteHashTree);
    snapshots[MerkleTreeId.PUBLIC_DATA_TREE] = snap(base.state.partial.publicDataTree);
    snapshots[MerkleTreeId.L1_TO_L2_MESSAGE_TREE] = snap(base.state.l1ToL2MessageTree);
    snapshots[MerkleTreeId.ARCHIVE] = snap(base.archive);
    if (snapshots[MerkleTreeId.ARCHIVE]?.size !== n + 1) {
      throw new InvalidWorldStateArgumentError(
        `The archive after block ${n} holds ${n + 1} leaves, the upstream's holds ${base.archive.nextAvailableLeafIndex}`,
      );
    }
    const state = encodeState(snapshots);
    this.store.insertBlock(n, checkedFieldBuffer(base.blockHash, 'block hash'), state);
    this.store.setMeta('genesis', this.genesis.hash);
    this.store.setMeta('latest', n);
    this.store.setMeta('finalized', n);
    this.store.setMeta('oldest', n);
    this.store.setMeta('sparseBlock', n);
    this.store.setMeta('sparseState', state);
    this.bumpToken();
  }

  private writeGenesis(): void {
    this.writeBlock(0, this.genesis.hash, this.genesis.overlays, false);
    this.store.setMeta('genesis', this.genesis.hash);
    this.store.setMeta('finalized', 0);
    this.store.setMeta('oldest', 0);
    this.bumpToken();
  }

  /** Genesis (docs/aztec-facts.md section 3.3): prefilled indexed trees, empty others, archive leaf 0 = header hash. */
  private buildGenesis(prefill: readonly GenesisPublicData[]): NonNullable<WorldState['builtGenesis']> {
    const overlays = TREES.map(
      (info) =>
        new TreeOverlay(
          new CommittedTree(this.store, info, -1, { root: emptySubtreeRoot(info.height), size: 0 }),
          this.hasher,
        ),
    );
    (overlays[MerkleTreeId.NULLIFIER_TREE] as TreeOverlay).seedLeaves(genesisNullifierLeaves());
    (overlays[MerkleTreeId.PUBLIC_DATA_TREE] as TreeOverlay).seedLeaves(genesisPublicDataLeaves(prefill));
    const view = new WorldStateView(
      0,
      (id) => overlays[id] as TreeOverlay,
      () => {},
    );
    const state = view.getStateReference();
    const hash = bigIntToBuffer32(BlockHeader.empty({ state }).hash().value);
    (overlays[MerkleTreeId.ARCHIVE] as TreeOverlay).appendLeaves([hash]);
    return { overlays, hash, state };
  }

  private writeBlock(n: number, hash: Buffer, overlays: readonly TreeOverlay[], journal: boolean): void {
    const snapshots = overlays.map((o) => ({ root: o.root(), size: o.treeSize }));
    const writes = overlays.map((o) => o.collectWrites());
    this.atomically(() => {
      for (const info of TREES) {
        const w = writes[info.id] as ReturnType<TreeOverlay['collectWrites']>;
        this.store.insertNodes(n, w.nodes);
        this.store.insertLeaves(n, w.leaves);
        this.store.insertKeys(info.id, n, w.keys, info.kind === 'append-only');
        if (journal) {
          const base = info.id * TREE_SPAN;
          this.store.insertJournal(n, info.id, packIds(w.nodes, base), packIds(w.leaves, base));
        }
      }
      this.store.insertBlock(n, hash, encodeState(snapshots));
      this.store.setMeta('latest', n);
      this.bumpToken();
    });
    this.latest = n;
    this.latestState = { hash, snapshots };
    this.nodeCache.advance(
      n,
      snapshots.map((s) => s.size),
      writes.map((w) =>
        w.leaves.length === 0 ? w.nodes : [...w.leaves.map(([k, , h]) => [k, h] as const), ...w.nodes],
      ),
    );
  }

  /**
   * Runs `fn` atomically: in the caller's open transaction when there is one (the caller commits or rolls
   * back the block and its world state together), otherwise in a transaction of its own. A nested
   * better-sqlite3 transaction would be a SAVEPOINT, and a savepoint around tens of thousands of scattered
   * row writes costs several times the writes themselves (measured), so none is opened.
   */
  private atomically(fn: () => void): void {
    if (this.db.inTransaction) fn();
    else this.db.transaction(fn)();
  }

  private bumpToken(): void {
    const token = randomToken48();
    this.store.setMeta('token', token);
    this.token = token;
  }

  /** Reloads the tip from the database when another write (or a rollback) changed it. */
  private refresh(): void {
    const token = this.store.getMeta('token') as number;
    if (token === this.token) return;
    this.latest = this.store.getMeta('latest') as number;
    this.finalized = this.store.getMeta('finalized') as number;
    this.oldest = this.store.getMeta('oldest') as number;
    const sparseBlock = this.store.getMeta('sparseBlock') as number | undefined;
    this.sparse =
      sparseBlock === undefined
        ? undefined
        : { block: sparseBlock, snapshots: decodeState(this.store.getMeta('sparseState') as Buffer) };
    this.stateCache.clear();
    this.latestState = this.loadState(this.latest);
    this.nodeCache.reset(
      this.latest,
      this.latestState.snapshots.map((s) => s.size),
    );
    this.token = token;
  }

  private resolve(block: BlockSelector): number {
    if (block === 'latest') return this.latest;
    if (!Number.isInteger(block) || block < 0) {
      throw new InvalidWorldStateArgumentError(`Block must be a block number >= 0 or 'latest', got ${String(block)}`);
    }
    if (block > this.latest || block < this.oldest) throw new BlockNotAvailableError(block, this.oldest, this.latest);
    return block;
  }

  private blockState(b: number): BlockState {
    if (b === this.latest) return this.latestState as BlockState;
    let s = this.stateCache.get(b);
    if (!s) {
      s = this.loadState(b);
      if (this.stateCache.size >= 1024) this.stateCache.clear();
      this.stateCache.set(b, s);
    }
    return s;
  }

  private loadState(b: number): BlockState {
    const row = this.store.getBlock(b);
    if (!row) throw new BlockNotAvailableError(b, this.oldest, this.latest);
    return { hash: row.hash, snapshots: decodeState(row.state) };
  }

  /** Opens the trees of block b on demand (a single read touches one tree). */
  private treesAt(b: number): TreeSource {
    const { snapshots } = this.blockState(b);
    return (id) =>
      new TreeOverlay(
        new CommittedTree(
          this.store,
          treeInfo(id),
          b,
          snapshots[id] as TreeSnapshot,
          b === this.latest ? this.nodeCache : undefined,
          this.sparse && {
            size: (this.sparse.snapshots[id] as TreeSnapshot).size,
            absent: this.upstreamAbsent[id] as Set<string>,
          },
        ),
        this.hasher,
      );
  }

  /**
   * A check run before each use of a view or fork of block b: while nothing was written since the last check
   * it costs one token read; otherwise b must still be readable and still hold the same block.
   */
  private guardFor(b: number): () => void {
    const hash = this.blockState(b).hash;
    let seen = this.token;
    return () => {
      this.refresh();
      if (this.token === seen) return;
      if (b > this.latest || b < this.oldest) {
        throw new WorldStateStateError(
          `World state block ${b} under this view is gone (now blocks ${this.oldest} to ${this.latest})`,
        );
      }
      if (!this.blockState(b).hash.equals(hash)) {
        throw new WorldStateStateError(`World state block ${b} under this view was replaced by a reorg`);
      }
      seen = this.token;
    };
  }
}

/**
 * Whether an error applying a block means the block is wrong; a lazy fork's missing upstream data does not (the
 * caller fetches it and applies the block again).
 */
function rejects(e: unknown): e is WorldStateError {
  return e instanceof WorldStateError && !(e instanceof UpstreamStateNeededError);
}

/** Whether a store key's node covers a leaf below `size` (the upstream's part of a lazily forked tree). */
function upstreamPart(key: number, tree: number, size: number): boolean {
  const rel = key - tree * TREE_SPAN;
  const level = Math.floor(rel / LEVEL_SPAN);
  return (rel % LEVEL_SPAN) * 2 ** level < size;
}

function encodeState(snapshots: readonly TreeSnapshot[]): Buffer {
  const out = Buffer.alloc(snapshots.length * STATE_RECORD);
  snapshots.forEach((s, i) => {
    s.root.copy(out, i * STATE_RECORD);
    out.writeUIntBE(Math.floor(s.size / 0x10000), i * STATE_RECORD + 32, 6);
    out.writeUInt16BE(s.size & 0xffff, i * STATE_RECORD + 38);
  });
  return out;
}

function decodeState(buf: Buffer): TreeSnapshot[] {
  const out: TreeSnapshot[] = [];
  for (let o = 0; o < buf.length; o += STATE_RECORD) {
    out.push({
      root: Buffer.from(buf.subarray(o, o + 32)),
      size: buf.readUIntBE(o + 32, 6) * 0x10000 + buf.readUInt16BE(o + 38),
    });
  }
  return out;
}

/** Store keys relative to their tree (< 2^48), 6 bytes each. */
function packIds(rows: readonly (readonly [number, ...unknown[]])[], base: number): Buffer {
  const out = Buffer.allocUnsafe(rows.length * 6);
  for (let i = 0; i < rows.length; i++)
    out.writeUIntBE((rows[i] as readonly [number, ...unknown[]])[0] - base, i * 6, 6);
  return out;
}

function forEachPacked(buf: Buffer, fn: (id: number) => void): void {
  for (let o = 0; o < buf.length; o += 6) fn(buf.readUIntBE(o, 6));
}

function describeMismatch(computed: StateReference, expected: StateReference): string {
  const pairs: [string, AppendOnlyTreeSnapshot, AppendOnlyTreeSnapshot][] = [
    ['L1_TO_L2_MESSAGE_TREE', computed.l1ToL2MessageTree, expected.l1ToL2MessageTree],
    ['NOTE_HASH_TREE', computed.partial.noteHashTree, expected.partial.noteHashTree],
    ['NULLIFIER_TREE', computed.partial.nullifierTree, expected.partial.nullifierTree],
    ['PUBLIC_DATA_TREE', computed.partial.publicDataTree, expected.partial.publicDataTree],
  ];
  return pairs
    .filter(([, c, e]) => !c.equals(e))
    .map(
      ([name, c, e]) =>
        `${name} computed (${c.root.toString()}, ${c.nextAvailableLeafIndex}), header says (${e.root.toString()}, ${e.nextAvailableLeafIndex})`,
    )
    .join('; ');
}
