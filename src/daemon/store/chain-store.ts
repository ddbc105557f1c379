import { AppendOnlyTreeSnapshot } from '../../core/block/append-only-tree-snapshot.js';
import { BlockHeader } from '../../core/block/block-header.js';
import { Body } from '../../core/block/body.js';
import { L2Block } from '../../core/block/l2-block.js';
import { BlockHash } from '../../core/block-hash.js';
import { NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP } from '../../core/constants.js';
import type { ContractClassPublic } from '../../core/contract/contract-class-public.js';
import { ContractClassPublishedEvent } from '../../core/contract/contract-class-published-event.js';
import { ContractInstancePublishedEvent } from '../../core/contract/contract-instance-published-event.js';
import { ContractInstanceUpdatedEvent } from '../../core/contract/contract-instance-updated-event.js';
import { ContractInstanceWithAddress } from '../../core/contract/contract-instance-with-address.js';
import { getProtocolContractClass, getProtocolContractInstance } from '../../core/contract/protocol-contracts.js';
import { Fr, toHex64 } from '../../core/fr.js';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import { IndexedTxEffect } from '../../core/tx/indexed-tx-effect.js';
import type { TxEffect } from '../../core/tx/tx-effect.js';
import { UpstreamStateNeededError } from '../world-state/world-state-errors.js';
import type { PublicDataWrite } from '../world-state/world-state-fork.js';
import { BlockBodyPrunedError } from './block-body-pruned-error.js';
import { BlockRepository, type BlockRow } from './block-repository.js';
import { ChainMetaRepository } from './chain-meta-repository.js';
import { CheckpointAttestationRepository } from './checkpoint-attestation-repository.js';
import { CheckpointRepository } from './checkpoint-repository.js';
import { ContractClassRepository } from './contract-class-repository.js';
import { ContractInstanceRepository } from './contract-instance-repository.js';
import { ContractInstanceUpdateRepository } from './contract-instance-update-repository.js';
import { ForkUpstreamRepository } from './fork-upstream-repository.js';
import { FunctionSignatureRepository } from './function-signature-repository.js';
import { InboxMessageRepository } from './inbox-message-repository.js';
import { L1ToL2MessageRepository } from './l1-to-l2-message-repository.js';
import { LogTagRepository, type TaggedLogPosition } from './log-tag-repository.js';
import type { SqliteDatabase } from './node-database.js';
import { PendingStateOverrideRepository } from './pending-state-override-repository.js';
import { StoredDataDamagedError } from './record-checksum.js';
import { StateOverrideRepository } from './state-override-repository.js';
import { StoredTxEffect } from './stored-tx-effect.js';
import { TxEffectRepository, type TxLocation } from './tx-effect-repository.js';

/** What the chain store writes for one block. */
export interface BlockWrite {
  readonly block: L2Block;
  /** The checkpoint's L1-to-L2 messages when the block is the first of its checkpoint; empty otherwise. */
  readonly l1ToL2Messages: readonly bigint[];
  /** Leaf index of the first of those messages in the message tree. */
  readonly l1ToL2MessageStartIndex: number;
  /** The state overrides the block applied before its txs (docs/cheat-codes.md); none for most blocks. */
  readonly stateOverrides?: readonly PublicDataWrite[];
  /** The block took the pending overrides up to this queue position: they leave the queue with it. */
  readonly pendingOverridesThrough?: number;
}

/** Something in a block the store could not index (a malformed publication event); the block is kept. */
export type StoreWarning = (message: string, details: Record<string, unknown>) => void;

/** Contracts a lazy fork remembers its upstream does not have, before it starts over (bounds memory). */
const UPSTREAM_ABSENT_KEPT = 1 << 16;

/**
 * The chain store (docs/architecture.md section 3.1, step 3): blocks and everything derived from them, one repository per
 * table over the node's single database. It never opens transactions itself: `applyBlock` and the unwind
 * call it inside theirs, together with the world state and the block observers.
 */
export class ChainStore {
  readonly blocks: BlockRepository;
  readonly txs: TxEffectRepository;
  readonly tags: LogTagRepository;
  readonly contractClasses: ContractClassRepository;
  readonly contractInstances: ContractInstanceRepository;
  /** Upgrades scheduled through the instance registry (its public logs). */
  readonly contractInstanceUpdates: ContractInstanceUpdateRepository;
  readonly l1ToL2Messages: L1ToL2MessageRepository;
  readonly checkpoints: CheckpointRepository;
  /** Each checkpoint's committee attestations (src/daemon/validators). */
  readonly checkpointAttestations: CheckpointAttestationRepository;
  readonly meta: ChainMetaRepository;
  /** A lazy fork's contracts and classes its upstream does not have (markAbsentUpstream). */
  private readonly upstreamAbsent = new Set<string>();
  readonly functionSignatures: FunctionSignatureRepository;
  readonly inboxMessages: InboxMessageRepository;
  /** State overrides each block applied (the state cheat codes). */
  readonly stateOverrides: StateOverrideRepository;
  /** State overrides waiting for the next block. */
  readonly pendingStateOverrides: PendingStateOverrideRepository;
  /** A lazy fork's upstream: its URL and its blocks below the fork fetched so far. */
  readonly forkUpstream: ForkUpstreamRepository;

  constructor(
    readonly db: SqliteDatabase,
    private readonly warn: StoreWarning = () => {},
  ) {
    this.blocks = new BlockRepository(db);
    this.txs = new TxEffectRepository(db);
    this.tags = new LogTagRepository(db);
    this.contractClasses = new ContractClassRepository(db);
    this.contractInstances = new ContractInstanceRepository(db);
    this.contractInstanceUpdates = new ContractInstanceUpdateRepository(db);
    this.l1ToL2Messages = new L1ToL2MessageRepository(db);
    this.checkpoints = new CheckpointRepository(db);
    this.checkpointAttestations = new CheckpointAttestationRepository(db);
    this.meta = new ChainMetaRepository(db);
    this.functionSignatures = new FunctionSignatureRepository(db);
    this.inboxMessages = new InboxMessageRepository(db);
    this.stateOverrides = new StateOverrideRepository(db);
    this.pendingStateOverrides = new PendingStateOverrideRepository(db);
    this.forkUpstream = new ForkUpstreamRepository(db);
  }

  // ---- writes (inside the caller's transaction) ----

  /** Writes a block, its tx effects, tag index entries, published contracts and inserted L1-to-L2 messages. */
  writeBlock(w: BlockWrite): void {
    const { block } = w;
    const n = block.number;
    let publicLogs = 0;
    let classLogs = 0;
    let updates = 0;
    const effects = block.body.txEffects;
    for (let i = 0; i < effects.length; i++) {
      const effect = effects[i] as TxEffect;
      const stored = StoredTxEffect.of(effect);
      this.txs.insert(n, i, stored.bytes.subarray(1, 33), stored.bytes);
      this.indexTags(n, i, stored, 'insert');
      publicLogs += stored.publicLogCount;
      classLogs += stored.contractClassLogCount;
      updates = this.indexContracts(block, i, effect, updates);
    }
    this.blocks.insert({
      number: n,
      hash: block.hash().toBuffer(),
      archiveRoot: block.archive.root.toBuffer(),
      checkpoint: block.checkpointNumber,
      indexInCheckpoint: block.indexWithinCheckpoint,
      txCount: effects.length,
      publicLogCount: publicLogs,
      classLogCount: classLogs,
      header: block.header.toBuffer(),
    });
    for (let k = 0; k < w.l1ToL2Messages.length; k++) {
      const leaf = w.l1ToL2Messages[k] as bigint;
      if (leaf !== 0n) this.l1ToL2Messages.insert(w.l1ToL2MessageStartIndex + k, leaf, block.checkpointNumber, n);
    }
    if (w.stateOverrides && w.stateOverrides.length > 0) this.stateOverrides.insert(n, w.stateOverrides);
    if (w.pendingOverridesThrough !== undefined) this.pendingStateOverrides.deleteThrough(w.pendingOverridesThrough);
  }

  /**
   * Removes every block above `blockNumber` and what was derived from them (checkpoints that lost blocks
   * included). Returns the removed blocks, newest first.
   */
  removeBlocksAbove(blockNumber: number): L2Block[] {
    const latest = this.blocks.latest();
    const oldestBody = this.oldestBlockWithBody();
    const removed: L2Block[] = [];
    for (let n = latest; n > blockNumber; n--) {
      if (n < oldestBody) {
        // A pruned body has no tags left and no txs to give back: the block goes with its header alone.
        const row = this.blocks.get(n);
        if (row) removed.push(this.toBlock(row, []));
        continue;
      }
      let read: { row: BlockRow | undefined; effects: Buffer[] };
      try {
        read = { row: this.blocks.get(n), effects: this.txs.ofBlock(n) };
      } catch (err) {
        // A damaged block is what `db rollback` is told to remove: its tags cannot be trusted, so its index
        // entries go by block number (a scan, taken only here), and it is not among the blocks returned.
        if (!(err instanceof StoredDataDamagedError)) throw err;
        this.tags.deleteBlock(n);
        continue;
      }
      if (!read.row) continue;
      read.effects.forEach((bytes, i) => {
        this.indexTags(n, i, new StoredTxEffect(bytes), 'delete');
      });
      removed.push(this.toBlock(read.row, read.effects));
    }
    this.txs.deleteAbove(blockNumber);
    this.blocks.deleteAbove(blockNumber);
    this.contractClasses.deleteAbove(blockNumber);
    this.contractInstances.deleteAbove(blockNumber);
    this.contractInstanceUpdates.deleteAbove(blockNumber);
    this.l1ToL2Messages.deleteAbove(blockNumber);
    this.stateOverrides.deleteAbove(blockNumber);
    this.checkpoints.deleteEndingAbove(blockNumber);
    if (oldestBody > blockNumber + 1) this.meta.set('bodiesPrunedThrough', blockNumber);
    return removed;
  }

  /**
   * Block history pruning (--block-body-history-blocks): drops the bodies of the oldest blocks still holding one,
   * up to block `through` and at most `maxBlocks` of them (bounded work, inside the caller's transaction): their
   * tx effects (each tx keeps its hash) and their entries in the log tag index. Headers, the archive, contracts
   * and L1-to-L2 messages stay. Returns the oldest block with a body afterwards.
   */
  pruneBodies(through: number, maxBlocks: number): number {
    const from = this.oldestBlockWithBody();
    const last = Math.min(through, from + maxBlocks - 1, this.blocks.latest());
    if (last < from) return from;
    for (let n = from; n <= last; n++) {
      try {
        this.txs.ofBlock(n).forEach((bytes, i) => {
          this.indexTags(n, i, new StoredTxEffect(bytes), 'delete');
        });
      } catch (err) {
        // A damaged body's tags cannot be read: its index entries go by block number (a scan, taken only here).
        if (!(err instanceof StoredDataDamagedError)) throw err;
        this.tags.deleteBlock(n);
      }
      this.txs.stripEffects(n);
    }
    this.meta.set('bodiesPrunedThrough', last);
    return last + 1;
  }

  /** The oldest block whose body (tx effects, logs) the store keeps: 1 unless bodies were pruned. */
  oldestBlockWithBody(): number {
    return (this.meta.get('bodiesPrunedThrough') ?? 0) + 1;
  }

  /** Throws BlockBodyPrunedError when block `n`'s body was pruned. */
  requireBody(n: number, subject = `block ${n}`): void {
    const oldest = this.oldestBlockWithBody();
    if (n >= 1 && n < oldest) throw new BlockBodyPrunedError(subject, n, oldest);
  }

  // ---- reads ----

  /** Number of the latest stored block; 0 at genesis. */
  latestBlockNumber(): number {
    return this.blocks.latest();
  }

  /** Block `number` with its body; undefined past the tip; BlockBodyPrunedError when its body was pruned. */
  getBlock(number: number): L2Block | undefined {
    const row = this.blocks.get(number);
    return row ? this.withBody(row) : undefined;
  }

  getBlockByHash(hash: bigint): L2Block | undefined {
    const row = this.blocks.getByHash(bigIntToBuffer32(hash));
    return row ? this.withBody(row) : undefined;
  }

  getBlockByArchiveRoot(root: bigint): L2Block | undefined {
    const row = this.blocks.getByArchiveRoot(bigIntToBuffer32(root));
    return row ? this.withBody(row) : undefined;
  }

  /** Up to `limit` consecutive blocks from `from`, fewer when the chain is shorter; none of them pruned. */
  getBlocks(from: number, limit: number): L2Block[] {
    return this.blocks.getRange(from, from + limit).map((row) => this.withBody(row));
  }

  private withBody(row: BlockRow): L2Block {
    this.requireBody(row.number);
    return this.toBlock(row, this.txs.ofBlock(row.number));
  }

  getHeader(number: number): BlockHeader | undefined {
    const row = this.blocks.get(number);
    return row ? BlockHeader.fromBuffer(row.header) : undefined;
  }

  getHeaderByHash(hash: bigint): BlockHeader | undefined {
    const row = this.blocks.getByHash(bigIntToBuffer32(hash));
    return row ? BlockHeader.fromBuffer(row.header) : undefined;
  }

  getHeaderByArchiveRoot(root: bigint): BlockHeader | undefined {
    const row = this.blocks.getByArchiveRoot(bigIntToBuffer32(root));
    return row ? BlockHeader.fromBuffer(row.header) : undefined;
  }

  /** The hash of a stored block. */
  getBlockHash(number: number): bigint | undefined {
    const row = this.blocks.get(number);
    return row ? readField32(row.hash) : undefined;
  }

  /** The first block of a checkpoint (block checkpoint numbers never decrease: a binary search). */
  firstBlockOfCheckpoint(checkpoint: number): number | undefined {
    let lo = 1;
    let hi = this.latestBlockNumber();
    let found: number | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.blocks.get(mid)?.checkpoint ?? Number.POSITIVE_INFINITY;
      if (c >= checkpoint) {
        if (c === checkpoint) found = mid;
        hi = mid - 1;
      } else lo = mid + 1;
    }
    return found;
  }

  /** The L1-to-L2 messages a checkpoint's first block inserted (undefined when no stored block is in it). */
  checkpointL1ToL2Messages(checkpoint: number): bigint[] | undefined {
    const first = this.firstBlockOfCheckpoint(checkpoint);
    const header = first === undefined ? undefined : this.getHeader(first);
    if (!header) return undefined;
    const end = header.state.l1ToL2MessageTree.nextAvailableLeafIndex;
    return this.l1ToL2Messages.leavesInRange(end - NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP, end);
  }

  /** A mined tx's effect with its block and position (node_getTxEffect). */
  getTxEffect(txHash: bigint): IndexedTxEffect | undefined {
    const found = this.txs.getByHash(bigIntToBuffer32(txHash));
    if (!found) return undefined;
    const n = found.location.blockNumber;
    this.requireBody(n, `tx ${toHex64(txHash)} (mined in block ${n})`);
    const hash = this.getBlockHash(found.location.blockNumber) as bigint;
    return new IndexedTxEffect(
      found.location.blockNumber,
      new BlockHash(hash),
      new StoredTxEffect(found.effect).decode(),
      found.location.txIndex,
    );
  }

  /** Where a mined tx is. */
  locateTx(txHash: bigint): TxLocation | undefined {
    return this.txs.locate(bigIntToBuffer32(txHash));
  }

  /** L2-to-L1 message hashes of a block, per tx (undefined when the block is not stored). */
  getL2ToL1Messages(number: number): bigint[][] | undefined {
    if (!this.blocks.get(number)) return undefined;
    this.requireBody(number);
    return this.txs.ofBlock(number).map((bytes) => new StoredTxEffect(bytes).l2ToL1Msgs);
  }

  private toBlock(row: BlockRow, effects: readonly Buffer[]): L2Block {
    return new L2Block(
      new AppendOnlyTreeSnapshot(Fr.fromBuffer(row.archiveRoot), row.number + 1),
      BlockHeader.fromBuffer(row.header),
      new Body(effects.map((e) => new StoredTxEffect(e).decode())),
      row.checkpoint,
      row.indexInCheckpoint,
    );
  }

  private indexTags(blockNumber: number, txIndex: number, e: StoredTxEffect, op: 'insert' | 'delete'): void {
    for (const [tag, p] of tagEntries(blockNumber, txIndex, e)) this.tags[op](tag, p);
  }

  /** Tagged logs of a stored block that the tag index lacks (`l2node db check --full`). */
  missingTagEntries(blockNumber: number): number {
    let missing = 0;
    if (blockNumber < this.oldestBlockWithBody()) return 0;
    this.txs.ofBlock(blockNumber).forEach((bytes, i) => {
      for (const [tag, p] of tagEntries(blockNumber, i, new StoredTxEffect(bytes)))
        if (!this.tags.has(tag, p)) missing++;
    });
    return missing;
  }

  /** Entries the tag index holds, and the entries the stored blocks up to `to` give it. */
  tagEntryCount(): number {
    return this.tags.count();
  }

  expectedTagEntryCount(to: number): number {
    let n = 0;
    for (const { location, effect } of this.txs.ofBlockRange(this.oldestBlockWithBody(), to + 1)) {
      for (const _ of tagEntries(location.blockNumber, location.txIndex, new StoredTxEffect(effect))) n++;
    }
    return n;
  }

  /** Rebuilds the tag index from the stored effects (`l2node db repair`); inside the caller's transaction. */
  rebuildTagIndex(): void {
    this.tags.clear();
    // Block by block: a statement iterating the effects cannot run beside the inserts on one connection.
    const tip = this.blocks.latest();
    for (let n = this.oldestBlockWithBody(); n <= tip; n++) {
      this.txs.ofBlock(n).forEach((effect, i) => {
        this.indexTags(n, i, new StoredTxEffect(effect), 'insert');
      });
    }
  }

  /** Contract classes and instances announced by the registries' events in a tx (4.1.2 archiver rules). */
  private indexContracts(block: L2Block, txIndex: number, effect: TxEffect, updatesBefore: number): number {
    const blockNumber = block.number;
    for (const log of effect.contractClassLogs) {
      if (!ContractClassPublishedEvent.isContractClassPublishedEvent(log)) continue;
      try {
        this.contractClasses.insert(ContractClassPublishedEvent.fromLog(log).toContractClassPublic(), blockNumber);
      } catch (err) {
        this.warn('ignored a malformed contract class publication', {
          blockNumber,
          txIndex,
          reason: (err as Error).message,
        });
      }
    }
    for (const log of effect.privateLogs) {
      if (!ContractInstancePublishedEvent.isContractInstancePublishedEvent(log)) continue;
      try {
        this.contractInstances.insert(ContractInstancePublishedEvent.fromLog(log).toContractInstance(), blockNumber);
      } catch (err) {
        this.warn('ignored a malformed contract instance publication', {
          blockNumber,
          txIndex,
          reason: (err as Error).message,
        });
      }
    }
    let updates = updatesBefore;
    for (const log of effect.publicLogs) {
      if (!ContractInstanceUpdatedEvent.isContractInstanceUpdatedEvent(log)) continue;
      try {
        this.contractInstanceUpdates.insert(ContractInstanceUpdatedEvent.fromLog(log), {
          blockNumber,
          blockTimestamp: block.header.globalVariables.timestamp,
          position: updates,
        });
        updates++;
      } catch (err) {
        this.warn('ignored a malformed contract instance update', {
          blockNumber,
          txIndex,
          reason: (err as Error).message,
        });
      }
    }
    return updates;
  }

  /**
   * The instance at `address` with its class as of `timestamp` (upgrades applied): the protocol contracts at
   * addresses 1..6 from genesis, other instances from their publication.
   */
  getContractInstanceAt(address: bigint, timestamp: bigint): ContractInstanceWithAddress | undefined {
    const protocol = getProtocolContractInstance(address);
    if (protocol) return protocol;
    const published = this.contractInstances.get(address);
    if (!published) return this.lazyForkMiss({ kind: 'contract', address });
    const original = published.originalContractClassId.value;
    const current = this.contractInstanceUpdates.currentClassId(address, timestamp, original);
    if (current === published.currentContractClassId.value) return published;
    return new ContractInstanceWithAddress(
      published.salt,
      published.deployer,
      new Fr(current),
      published.originalContractClassId,
      published.initializationHash,
      published.publicKeys,
      published.address,
    );
  }

  /** A contract class by id: the protocol contracts' from genesis, others from their publication. */
  getContractClass(classId: bigint): ContractClassPublic | undefined {
    return (
      getProtocolContractClass(classId) ??
      this.contractClasses.get(classId) ??
      this.lazyForkMiss({ kind: 'class', id: classId })
    );
  }

  /**
   * A lazy fork (--fork-mode lazy) holds none of the contracts published on its upstream before it: one not
   * here may be there, so the read throws for the caller to fetch it (UpstreamStateFetcher) and ask again,
   * unless the upstream already said it has none. Undefined on any other chain.
   */
  private lazyForkMiss(need: { kind: 'contract'; address: bigint } | { kind: 'class'; id: bigint }): undefined {
    const key = need.kind === 'contract' ? `c${need.address}` : `k${need.id}`;
    if (this.upstreamAbsent.has(key) || this.meta.get('forkFirstBlock') === undefined) return undefined;
    throw new UpstreamStateNeededError(need);
  }

  /** A lazy fork's upstream has no such contract instance or class: this store answers none from now on. */
  markAbsentUpstream(need: { kind: 'contract'; address: bigint } | { kind: 'class'; id: bigint }): void {
    if (this.upstreamAbsent.size >= UPSTREAM_ABSENT_KEPT) this.upstreamAbsent.clear();
    this.upstreamAbsent.add(need.kind === 'contract' ? `c${need.address}` : `k${need.id}`);
  }
}

/** The tag index entries of a stored tx effect. */
function* tagEntries(
  blockNumber: number,
  txIndex: number,
  e: StoredTxEffect,
): IterableIterator<[Buffer, TaggedLogPosition]> {
  for (let k = 0; k < e.privateLogCount; k++) {
    const tag = e.privateLogTag(k);
    if (tag) yield [tag, { blockNumber, txIndex, kind: 'private', logIndex: k }];
  }
  for (let k = 0; k < e.publicLogCount; k++) {
    const tag = e.publicLogTag(k);
    if (tag) yield [tag, { blockNumber, txIndex, kind: 'public', logIndex: k }];
  }
}
