import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { type Hex, type PublicClient, parseEventLogs, type WalletClient } from 'viem';
import { blockBlobFields, checkpointEndMarker } from '../../core/blob/blob-fields.js';
import { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import { EthAddress } from '../../core/eth-address.js';
import type { Chain } from '../chain/chain.js';
import type {
  CheckpointPublication,
  ForeignCheckpoint,
  InboxPosition,
  L1ContractAddresses,
  SettlementLayer,
} from '../chain/settlement/settlement-layer.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import type { SlotClock } from '../sequencer/slot-clock.js';
import type { ChainStore } from '../store/chain-store.js';
import type { L1PublishedData } from '../store/checkpoint-repository.js';
import type { SqliteDatabase } from '../store/node-database.js';
import type { BlobKzg, CheckpointBlobs } from './blob-kzg.js';
import { nextEpochProofRange } from './epoch-proof-range.js';
import { readFinalizedCheckpoint } from './finalized-checkpoint.js';
import type { L1Activity, L1TxKind, L1TxOutcome } from './l1-activity.js';
import type { L1Deployment } from './l1-deployment.js';
import { L1InboxReader } from './l1-inbox-reader.js';
import { L1TxError, L1TxSender } from './l1-tx-sender.js';
import { warmUpPointEvaluation } from './point-evaluation-warm-up.js';
import { type LandedProof, provenAfterRead } from './proven-tip.js';
import { PublishingLead } from './publishing-lead.js';
import { epochRootProofCalldata, proposeCalldata, word } from './rollup-calldata.js';

export interface L1SettlementOptions {
  readonly deployment: L1Deployment;
  readonly client: PublicClient;
  /** The publisher: proposals and epoch proofs are sent from its account. */
  readonly wallet: WalletClient;
  readonly kzg: BlobKzg;
  readonly slots: SlotClock;
  /** Seconds after an epoch ends before its proof is submitted (--proof-delay). */
  readonly proofDelay: number;
  readonly activity: L1Activity;
  /** The chain's store and database: the Inbox's messages are kept beside the blocks. */
  readonly store: ChainStore;
  readonly db: SqliteDatabase;
  /**
   * Makes the L1's current state survive a crash (the node's anvil saves its state): awaited after a proposal or
   * proof lands and before the node records it, so what the node records is on the L1 it restarts with.
   */
  readonly persist: () => Promise<void>;
  /**
   * Whether this node submits the proof of the epoch whose last slot is `lastSlot` (a committee over the
   * network: the node holding that slot's proposer key, so exactly one node sends it; docs/network.md).
   * Absent: the node proves every epoch it settles.
   */
  readonly provesEpoch?: (lastSlot: number) => boolean;
  readonly log: Logger;
}

/** How often the node reads its L1 (ms): 4.1.2's local network polls its archiver every 500 ms. */
const POLL_INTERVAL_MS = 500;
/**
 * How long before its slot ends a checkpoint is sent, at least: 4.1.2 allows 1 s of L1 publishing time on anvil;
 * one more second covers building the blobs and the simulation before the tx goes out. A machine that needs more
 * gets more (PublishingLead).
 */
const L1_PUBLISHING_TIME_MS = 2_000;
/**
 * How long after its slot ends another proposer's checkpoint is still looked for on the rollup: the rollup takes
 * it only in an L1 block of its slot, which is read a poll or an L1 block later. Before the sequencer prunes the
 * slot's uncheckpointed blocks (twice the publishing time after the slot, at least 3 s with the shortest slots).
 */
const FOREIGN_CHECKPOINT_GRACE_MS = 2_000;

/**
 * The node's settlement on a real L1 (docs/l1.md): Aztec 4.1.2's rollup contract, behind the same interface as
 * the dev stand-in.
 *
 * - Checkpoints are proposed to the rollup as EIP-4844 blob txs with real KZG commitments; the sequencer records
 *   a checkpoint (its blocks become checkpointed) only once its proposal is mined and the rollup emitted
 *   `CheckpointProposed` for it.
 * - The L1 is polled every 500 ms: the Inbox's messages, the rollup's tips (proven; finalized as read at L1's
 *   finalized block), the min fee of the current and next slots. A checkpoint the L1 no longer has (an L1 reorg
 *   dropped its proposal, or the rollup pruned an unproven epoch) is unwound with its blocks, whose txs return
 *   to the pool, as 4.1.2's archiver does.
 * - `--proof-delay` seconds after an epoch ends, its root proof is submitted (`submitEpochRootProof`): the
 *   deployment's MockVerifier accepts any proof bytes, the rest (archives, out hash, fees, the batched blob
 *   opening) the rollup checks. The Outbox then holds the epoch's L2-to-L1 messages.
 */
export class L1Settlement implements SettlementLayer, Service {
  readonly name = 'l1-settlement';
  private readonly lead = new PublishingLead(L1_PUBLISHING_TIME_MS);
  private readonly sender: L1TxSender;
  private readonly inbox: L1InboxReader;
  private readonly rollup: Hex;
  private chain: Chain | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;
  /**
   * The slot of the checkpoint whose proposal is on its way (undefined: none): the tips it changes are not judged
   * meanwhile, nor is its epoch proven.
   */
  private proposingSlot: number | undefined;
  private proving: Promise<void> | undefined;
  private proven = 0;
  /** The node's last proof that landed: a poll that read the rollup before its L1 block does not undo it. */
  private landedProof: LandedProof | undefined;
  private finalized = 0;
  private l1Pending = 0;
  /** Min fee per L2 gas by `${slot}:${parentCheckpoint}`, as the rollup computes it. */
  private fees = new Map<string, bigint>();
  /** The checkpoint the last read fees build on. */
  private feeParent = 0;
  /** Blobs made for a checkpoint's header, kept for its proposal (keyed by its payload array). */
  private readonly blobsByPayload = new WeakMap<readonly bigint[], CheckpointBlobs>();
  /** Their blob proofs, started on the KZG thread as soon as the blobs are made (undefined: it failed). */
  private readonly blobProofs = new WeakMap<CheckpointBlobs, Promise<Uint8Array[] | undefined>>();
  /** Epoch whose proof last failed, and when it may be tried again (ms). */
  private proofRetryAt = 0;
  private lastPollError: string | undefined;
  /** Whether the rollup holding checkpoints this node lacks was reported (once, until it no longer does). */
  private foreignReported = false;
  /** Since when (ms) the rollup holds checkpoints this node lacks; undefined while it does not. */
  private foreignSince: number | undefined;
  /** The last checkpoint this node's own proposal put on the rollup. */
  private lastLanded = 0;
  /**
   * Counts the checkpoints seen landing (this node's own proposals, other nodes' it waited for): a poll during
   * which one landed read the L1 before it, and does not judge the local checkpoints (the node may record it
   * meanwhile). Not an L1 block number: an L1 reorg takes those back.
   */
  private landings = 0;
  /** The warm-up tx (see warmUp): the publisher's own txs go after it, so their nonces do not collide. */
  private warming: Promise<void> = Promise.resolve();

  constructor(private readonly o: L1SettlementOptions) {
    this.rollup = o.deployment.addresses.rollupAddress as Hex;
    this.sender = new L1TxSender({ client: o.client, wallet: o.wallet, rollup: this.rollup, log: o.log });
    this.inbox = new L1InboxReader({
      client: o.client,
      inbox: o.deployment.addresses.inboxAddress as Hex,
      fromBlock: o.deployment.l1BlockAtGenesis,
      db: o.db,
      messages: o.store.inboxMessages,
      log: o.log,
    });
  }

  /** The chain it settles, once open (the chain is built on this settlement layer, so it comes second). */
  attach(chain: Chain): void {
    this.chain = chain;
  }

  async start(): Promise<void> {
    await this.poll();
    // In the background, after the first reading of the L1 (anvil answers nothing else while it loads its KZG
    // set-up): the publisher's first tx waits for it, the node's start does not.
    this.warming = this.warmUp();
    this.schedule();
  }

  /** The L1's KZG set-up, loaded before the first proposal needs it (see warmUpPointEvaluation). */
  private async warmUp(): Promise<void> {
    const started = performance.now();
    const answered = await warmUpPointEvaluation(this.o.client);
    this.o.log.debug({ ms: Math.round(performance.now() - started), answered }, 'the L1 KZG set-up is warmed up');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.polling;
    await this.proving;
    await this.warming;
  }

  // SettlementLayer

  get publishingTimeMs(): number {
    return this.lead.leadMs(this.slotMs());
  }

  private slotMs(): number {
    const slot = this.o.slots.currentSlot();
    return this.o.slots.slotStartMs(slot + 1) - this.o.slots.slotStartMs(slot);
  }

  async publishCheckpoint(c: CheckpointPublication): Promise<L1PublishedData> {
    const started = performance.now();
    const blobs = this.blobsFor(c.blobFields);
    this.o.log.debug(
      { checkpoint: c.number, blobs: blobs.blobs.length, ms: Math.round(performance.now() - started) },
      `checkpoint ${c.number}: ${blobs.blobs.length} blob(s) committed`,
    );
    this.proposingSlot = c.header.slotNumber;
    try {
      const landed = await this.propose(c, blobs, started);
      // Saved before the sequencer records it: a crash after this point finds it on the restarted L1.
      await this.o.persist();
      this.l1Pending = Math.max(this.l1Pending, c.number);
      this.lastLanded = c.number;
      this.landings++;
      return landed;
    } finally {
      this.proposingSlot = undefined;
      this.recordPublishingTime(performance.now() - started);
      // The next checkpoint's min fee depends on this one: read it now rather than at the next poll.
      void this.poll();
    }
  }

  /** Takes one proposal's time into the lead, and says so when the lead moves by half a second or more. */
  private recordPublishingTime(ms: number): void {
    const before = this.publishingTimeMs;
    this.lead.record(ms);
    const after = this.publishingTimeMs;
    if (Math.abs(after - before) < 500) return;
    this.o.log.info(
      { publishingLeadMs: after, proposalMs: Math.round(ms) },
      `checkpoints now go to L1 ${(after / 1000).toFixed(1)} s before their slot ends (the latest proposal took ${(ms / 1000).toFixed(1)} s to land)`,
    );
  }

  /** Sends checkpoint `c`'s proposal and waits for it to land; where it landed. */
  private async propose(c: CheckpointPublication, blobs: CheckpointBlobs, started: number): Promise<L1PublishedData> {
    try {
      await this.warming;
      const slotEndMs = this.o.slots.slotStartMs(c.header.slotNumber + 1);
      const proofs = await this.blobProofs.get(blobs);
      const { receipt, outcome } = await this.sender.send({
        kind: 'propose',
        data: proposeCalldata(c.header, c.archiveRoot, blobs.blobInput),
        blobs: { blobs: blobs.blobs, versionedHashes: blobs.versionedHashes, kzg: this.o.kzg.viemKzg(blobs, proofs) },
        timeoutMs: Math.max(2_000, slotEndMs - this.o.slots.now() + 4_000),
      });
      const proposed = parseEventLogs({ abi: RollupAbi, eventName: 'CheckpointProposed', logs: receipt.logs }).find(
        (l) => l.address.toLowerCase() === this.rollup.toLowerCase() && Number(l.args.checkpointNumber) === c.number,
      );
      if (!proposed) throw new L1TxError('the rollup did not emit CheckpointProposed for it', receipt.transactionHash);
      const block = await this.o.client.getBlock({ blockNumber: receipt.blockNumber });
      this.record('propose', { ...outcome, checkpoint: c.number }, started);
      return { blockNumber: receipt.blockNumber, timestamp: block.timestamp, blockHash: receipt.blockHash };
    } catch (err) {
      // A proposal can land although its sender saw an error (a receipt that came late, a restart between the
      // proposal and its record): the rollup's event for this very archive settles it.
      const landed = await this.findProposal(c.number, c.archiveRoot).catch(() => undefined);
      if (landed) return landed;
      this.recordFailure('propose', err, started, { checkpoint: c.number });
      throw err;
    }
  }

  /** Where the rollup took checkpoint `n` with this archive root, if it did; logged, as a proposal of this node's. */
  private async findProposal(n: number, archiveRoot: Buffer): Promise<L1PublishedData | undefined> {
    const landed = await this.proposalOnL1(n, archiveRoot);
    if (landed) {
      this.o.log.info(
        { checkpoint: n, l1Block: landed.blockNumber },
        `checkpoint ${n} is on L1 already (L1 block ${landed.blockNumber})`,
      );
    }
    return landed;
  }

  /** Where the rollup took checkpoint `n` with this archive root, if it holds it (its CheckpointProposed event). */
  private async proposalOnL1(n: number, archiveRoot: Buffer): Promise<L1PublishedData | undefined> {
    const logs = await this.o.client.getContractEvents({
      address: this.rollup,
      abi: RollupAbi,
      eventName: 'CheckpointProposed',
      args: { checkpointNumber: BigInt(n), archive: word(archiveRoot) },
      fromBlock: this.o.deployment.l1BlockAtGenesis,
      toBlock: 'latest',
      strict: true,
    });
    const log = logs.at(-1);
    if (!log || log.blockNumber === null || log.blockHash === null) return undefined;
    const onL1 = await this.o.client.readContract({
      address: this.rollup,
      abi: RollupAbi,
      functionName: 'archiveAt',
      args: [BigInt(n)],
    });
    if (onL1.toLowerCase() !== word(archiveRoot).toLowerCase()) return undefined;
    const block = await this.o.client.getBlock({ blockNumber: log.blockNumber });
    return { blockNumber: log.blockNumber, timestamp: block.timestamp, blockHash: log.blockHash };
  }

  /**
   * Another node's checkpoint, gossiped with its quorum: its proposer's node publishes it, this one only waits
   * for the rollup to hold it (`archiveAt`, read every poll, then its CheckpointProposed event), so a node never
   * races another's proposal. Undefined once the slot's window passed without it: its blocks are then pruned.
   */
  async awaitCheckpoint(c: ForeignCheckpoint): Promise<L1PublishedData | undefined> {
    const deadline = this.o.slots.slotStartMs(c.slot + 1) + FOREIGN_CHECKPOINT_GRACE_MS;
    const archive = word(c.archiveRoot).toLowerCase();
    let lastError: string | undefined;
    while (!this.stopped) {
      try {
        const onL1 = await this.o.client.readContract({
          address: this.rollup,
          abi: RollupAbi,
          functionName: 'archiveAt',
          args: [BigInt(c.number)],
        });
        const landed = onL1.toLowerCase() === archive ? await this.proposalOnL1(c.number, c.archiveRoot) : undefined;
        if (landed) {
          this.landings++;
          return landed;
        }
      } catch (err) {
        // The L1 poll reports an unreachable L1; this only keeps trying until the window closes.
        lastError = (err as Error).message.split('\n')[0];
      }
      if (this.o.slots.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
    if (!this.stopped) {
      this.o.log.warn(
        { checkpoint: c.number, slot: c.slot, ...(lastError ? { err: lastError } : {}) },
        `checkpoint ${c.number} (slot ${c.slot}) had its quorum over P2P, but the rollup did not take it in its slot: its blocks are not checkpointed here and are pruned`,
      );
    }
    return undefined;
  }

  blobsHash = (blobFields: readonly bigint[]): bigint => this.blobsFor(blobFields).blobsHash;

  manaMinFee(slot: number, parentCheckpoint: number): bigint | undefined {
    return this.fees.get(`${slot}:${parentCheckpoint}`);
  }

  /** The min fee a checkpoint of the current slot pays on the rollup's current chain (node_getCurrentMinFees). */
  currentMinFee(): bigint | undefined {
    return this.fees.get(`${this.o.slots.currentSlot()}:${this.feeParent}`);
  }

  inboxMessages(checkpointNumber: number): bigint[] {
    return this.store.inboxMessages.forCheckpoint(checkpointNumber).map((m) => m.leaf);
  }

  findInboxMessage(leaf: bigint): InboxPosition | undefined {
    const m = this.store.inboxMessages.find(leaf);
    return m ? { index: m.index, checkpoint: m.checkpoint } : undefined;
  }

  l1ContractAddresses(): L1ContractAddresses {
    return this.o.deployment.addresses;
  }

  provenCheckpoint(): number {
    return this.proven;
  }

  finalizedCheckpoint(): number {
    return this.finalized;
  }

  // The L1 poll

  private get store(): ChainStore {
    return this.o.store;
  }

  private blobsFor(blobFields: readonly bigint[]): CheckpointBlobs {
    let blobs = this.blobsByPayload.get(blobFields);
    if (!blobs) {
      blobs = this.o.kzg.checkpointBlobs(blobFields);
      this.blobsByPayload.set(blobFields, blobs);
      // A failure here only costs the head start: viem then has the proofs computed while it sends.
      this.blobProofs.set(
        blobs,
        this.o.kzg.blobProofsAsync(blobs).catch(() => undefined),
      );
    }
    return blobs;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.poll().finally(() => this.schedule());
    }, POLL_INTERVAL_MS);
  }

  /** One read of the L1 (never two at once); a failure is logged once until the L1 answers again. */
  private poll(): Promise<void> {
    this.polling ??= this.readL1()
      .then(() => {
        if (this.lastPollError) this.o.log.info('the L1 settlement reads its L1 again');
        this.lastPollError = undefined;
      })
      .catch((err: Error) => {
        const message = err.message.split('\n')[0] ?? 'unknown error';
        if (message !== this.lastPollError) {
          this.o.log.warn({ err: message }, `reading the L1 failed (${message}); retrying every 500 ms`);
        }
        this.lastPollError = message;
      })
      .finally(() => {
        this.polling = undefined;
      });
    return this.polling;
  }

  private async readL1(): Promise<void> {
    const chain = this.chain;
    if (!chain || this.stopped) return;
    const { client } = this.o;
    const landings = this.landings;
    const latest = await client.getBlock({ blockTag: 'latest' });
    await this.inbox.sync(latest.number);
    const read = <T>(functionName: string, args: readonly unknown[] = [], blockNumber = latest.number) =>
      client.readContract({
        address: this.rollup,
        abi: RollupAbi,
        functionName: functionName as never,
        args: args as never,
        blockNumber,
      }) as Promise<T>;
    const tips = await read<{ pending: bigint; proven: bigint }>('getTips');
    const pending = Number(tips.pending);
    const proven = provenAfterRead(latest.number, Number(tips.proven), this.landedProof);
    this.l1Pending = pending;
    this.proven = proven;
    // An L1 without the state of its finalized block (anvil reloaded from its state file keeps none before the
    // reload: "BlockOutOfRangeError") leaves the finalized tip where it was; the rest of the poll goes on.
    this.finalized = await readFinalizedCheckpoint(client, this.rollup, this.o.deployment.l1BlockAtGenesis).catch(
      () => this.finalized,
    );
    // Whether the unproven checkpoints go at the next L1 block (the rollup prunes lazily, on its next write).
    const prunable = pending > proven && (await read<boolean>('canPruneAtTime', [latest.timestamp + 1n]));
    // Not while a proposal is on its way, nor on a reading older than a landing the node records meanwhile.
    if (this.proposingSlot === undefined && this.landings === landings) {
      await this.followL1Tips(chain, pending, proven, prunable, read);
    }
    await this.readFees(prunable ? proven : pending, read);
    chain.syncSettlement();
    this.maybeProve(chain);
  }

  /**
   * The local checkpointed tip follows the rollup's pending chain: a local checkpoint the rollup does not hold
   * (an L1 reorg dropped its proposal), holds with another archive, or is about to prune (its epoch was not
   * proven in time: 4.1.2's archiver prunes as soon as the next L1 block could) is unwound with its blocks.
   */
  private async followL1Tips(
    chain: Chain,
    pending: number,
    proven: number,
    prunable: boolean,
    read: <T>(fn: string, args?: readonly unknown[]) => Promise<T>,
  ): Promise<void> {
    const store = chain.store;
    const local = store.checkpoints.latest()?.number ?? 0;
    // A proposal that just landed may not be recorded yet: it is the node's own.
    this.reportForeignCheckpoints(Math.max(local, this.lastLanded), pending, proven, prunable);
    if (local === 0) return;
    let keep = Math.min(local, pending);
    while (keep > 0) {
      const row = store.checkpoints.get(keep);
      const onL1 = await read<Hex>('archiveAt', [BigInt(keep)]);
      if (row && onL1.toLowerCase() === word(row.archiveRoot).toLowerCase()) break;
      keep--;
    }
    let why = keep < local ? `L1 holds the chain only up to checkpoint ${keep}` : undefined;
    if (!why && local > proven && prunable) {
      keep = proven;
      why = `the rollup prunes the unproven checkpoints after ${proven} (their epoch was not proven in time)`;
    }
    if (!why) return;
    const target = keep === 0 ? 0 : (store.checkpoints.get(keep)?.lastBlock ?? 0);
    const removed = chain.unwindTo(target);
    // A proof refused on the chain before (its range read before the unwind) may go at once on this one: the
    // epoch's deadline does not wait a slot for it.
    this.proofRetryAt = 0;
    this.o.log.warn(
      { keptCheckpoint: keep, localCheckpoint: local, l1Pending: pending, removedBlocks: removed.length },
      `${why}: checkpoints ${keep + 1} to ${local} and their ${removed.length} block(s) are unwound; their txs return to the pool`,
    );
  }

  /**
   * Checkpoints on the rollup this node never proposed (another sequencer settles on it, or the L1 kept a
   * proposal the node lost): the node cannot build on them, so it says so once instead of stalling silently.
   */
  private reportForeignCheckpoints(local: number, pending: number, proven: number, prunable: boolean): void {
    // Checkpoints about to be pruned are not built on: being behind them is no stall.
    const ahead = pending > local && !(prunable && local >= proven);
    const now = this.o.slots.now();
    this.foreignSince = ahead ? (this.foreignSince ?? now) : undefined;
    // Another validator node's checkpoint is on the rollup a moment before this node records it (it waits for
    // it there, awaitCheckpoint): only one still missing two slots later is reported.
    const lasting = ahead && now - (this.foreignSince ?? now) >= 2 * this.o.deployment.slotDuration * 1000;
    if (lasting && !this.foreignReported) {
      this.o.log.error(
        { localCheckpoint: local, l1Pending: pending },
        `the rollup holds checkpoints up to ${pending}, this node only up to ${local}: another sequencer proposes to it, so this node builds nothing on it; follow that sequencer instead (--sync-from with --l1-rpc-urls and --registry-address, docs/l1.md)`,
      );
    }
    if (!ahead && this.foreignReported) this.o.log.info('the rollup holds no checkpoint this node lacks any more');
    this.foreignReported = lasting || (ahead && this.foreignReported);
  }

  /** The rollup's min fee for the current and the next slot on top of `parent`, its effective pending checkpoint. */
  private async readFees(
    parent: number,
    read: <T>(fn: string, args?: readonly unknown[]) => Promise<T>,
  ): Promise<void> {
    const slot = this.o.slots.currentSlot();
    const next = new Map<string, bigint>();
    for (const s of [slot, slot + 1]) {
      const ts = BigInt(this.o.deployment.genesisTime + s * this.o.deployment.slotDuration);
      next.set(`${s}:${parent}`, await read<bigint>('getManaMinFeeAt', [ts, true]));
    }
    this.fees = next;
    this.feeParent = parent;
  }

  /**
   * Submits the root proof of the oldest unproven epoch (nextEpochProofRange picks its checkpoints) once it has
   * ended and `--proof-delay` has passed. Every checkpoint it covers is on L1: the node records only mined
   * proposals.
   */
  private maybeProve(chain: Chain): void {
    if (this.proving || this.stopped) return;
    const { slots } = this.o;
    const store = chain.store;
    const { epochDuration } = slots.timing;
    const range = nextEpochProofRange({
      proven: this.proven,
      l1Pending: this.l1Pending,
      checkpoint: (n) => store.checkpoints.get(n),
      checkpointsOfEpoch: (epoch) => store.checkpoints.inSlotRange(epoch * epochDuration, (epoch + 1) * epochDuration),
      epochOf: (slot) => slots.epochOf(slot),
      proposingSlot: this.proposingSlot,
    });
    if (!range) return;
    const now = slots.now();
    if (now < (slots.epochEndTime(range.epoch) + this.o.proofDelay) * 1000 || now < this.proofRetryAt) return;
    if (this.o.provesEpoch && !this.o.provesEpoch((range.epoch + 1) * epochDuration - 1)) return;
    this.proving = this.prove(chain, range.epoch, range.start, range.end).finally(() => {
      this.proving = undefined;
    });
  }

  private async prove(chain: Chain, epoch: number, start: number, end: number): Promise<void> {
    const started = performance.now();
    const store = chain.store;
    const range = { epoch, fromCheckpoint: start, toCheckpoint: end };
    try {
      await this.warming;
      const payloads: bigint[][] = [];
      const checkpoints: { coinbase: EthAddress; fees: bigint }[] = [];
      for (let n = start; n <= end; n++) {
        const row = store.checkpoints.get(n);
        if (!row) throw new L1TxError(`checkpoint ${n} is not in the node's store`);
        const blocks = store.getBlocks(row.firstBlock, row.lastBlock - row.firstBlock + 1);
        const fields: bigint[] = [];
        let fees = 0n;
        for (const b of blocks) {
          fields.push(...blockBlobFields(b.header, b.body.txEffects, b.indexWithinCheckpoint === 0));
          for (const e of b.body.txEffects) fees += e.transactionFee.value;
        }
        fields.push(checkpointEndMarker(fields.length + 1));
        payloads.push(fields);
        checkpoints.push({ coinbase: CheckpointHeader.fromBuffer(row.header).coinbase, fees });
      }
      const endRow = store.checkpoints.get(end);
      if (!endRow) throw new L1TxError(`checkpoint ${end} is not in the node's store`);
      const previousArchive =
        start === 1
          ? chain.worldState.getGenesisArchive().root.toBuffer()
          : store.checkpoints.get(start - 1)?.archiveRoot;
      if (!previousArchive) throw new L1TxError(`checkpoint ${start - 1} is not in the node's store`);
      const batch = await this.o.kzg.epochBlobBatchAsync(payloads);
      const publisher = this.o.wallet.account?.address ?? '0x0000000000000000000000000000000000000000';
      const { outcome, receipt } = await this.sender.send({
        kind: 'proof',
        data: epochRootProofCalldata({
          start,
          end,
          previousArchive,
          endArchive: endRow.archiveRoot,
          outHash: CheckpointHeader.fromBuffer(endRow.header).epochOutHash.value,
          proverId: EthAddress.fromString(publisher),
          checkpoints,
          blobInputs: batch.blobInputs,
        }),
        timeoutMs: 60_000,
      });
      this.record('proof', { ...outcome, ...range }, started);
      // Saved before the node counts it: a crash after this point finds the proof on the restarted L1.
      await this.o.persist();
      this.landedProof = { toCheckpoint: end, l1Block: receipt.blockNumber };
      this.proven = Math.max(this.proven, end);
      chain.syncSettlement();
    } catch (err) {
      this.recordFailure('proof', err, started, range);
      // Retried after a slot: the epoch may still be proven until its deadline.
      this.proofRetryAt = this.o.slots.now() + this.o.deployment.slotDuration * 1000;
    }
  }

  private record(kind: L1TxKind, outcome: Omit<L1TxOutcome, 'kind' | 'seconds'>, started: number): void {
    this.o.activity.record({ ...outcome, kind, seconds: (performance.now() - started) / 1000 });
  }

  private recordFailure(kind: L1TxKind, err: unknown, started: number, what: object): void {
    this.o.activity.record({
      kind,
      ...what,
      txHash: err instanceof L1TxError ? err.txHash : undefined,
      ok: false,
      error: (err as Error).message.split('\n')[0] ?? 'unknown error',
      seconds: (performance.now() - started) / 1000,
    });
  }
}
