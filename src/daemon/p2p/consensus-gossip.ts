import { SpongeBlob } from '../../core/blob/sponge-blob.js';
import { CommitteeAttestation } from '../../core/block/committee-attestation.js';
import type { L2Block } from '../../core/block/l2-block.js';
import type { EthAddress } from '../../core/eth-address.js';
import { Fr } from '../../core/fr.js';
import { computeInHash } from '../../core/messaging/in-hash.js';
import { BlockProposal } from '../../core/p2p/block-proposal.js';
import { CheckpointAttestation } from '../../core/p2p/checkpoint-attestation.js';
import { CheckpointProposal } from '../../core/p2p/checkpoint-proposal.js';
import { BitVector, type BlockTxsRequest } from '../../core/p2p/reqresp-payloads.js';
import type { GossipTopicType } from '../../core/p2p/topics.js';
import type { Tx } from '../../core/tx/tx.js';
import type { TxHash } from '../../core/tx-hash.js';
import type { Chain, CompletedCheckpoint } from '../chain/chain.js';
import type { Logger } from '../logging/logger.js';
import type { Mempool } from '../mempool/mempool.js';
import { type BlockTxRunner, buildBlock } from '../sequencer/block-builder.js';
import type { SlotClock } from '../sequencer/slot-clock.js';
import { resumeStoredCheckpoint } from '../sequencer/stored-checkpoint.js';
import type { L1PublishedData } from '../store/checkpoint-repository.js';
import { verifyUpstreamCheckpoint } from '../sync/checkpoint-verification.js';
import type { Committee } from '../validators/committee.js';
import type { CheckpointNetwork, ValidatorClient } from '../validators/validator-client.js';
import type { GossipHandler, GossipVerdict } from './libp2p-peer.js';
import { fetchMissingTxs } from './missing-txs.js';
import type { PeerPenaltyName } from './peer-scoring.js';
import { catchUpToProposal } from './proposal-catch-up.js';

/** What the gossip side needs of the libp2p peer, once it runs. */
export interface ConsensusNetwork {
  publish(type: GossipTopicType, payload: Uint8Array): Promise<void>;
  /** Asks peers for txs by hash (req/resp `tx`); answers those found. */
  requestTxs(hashes: readonly TxHash[]): Promise<Tx[]>;
  /** Asks one peer for a proposal's txs (req/resp `block_txs`), checked against the proposal's tx hashes. */
  requestBlockTxs(peer: string, request: BlockTxsRequest, proposalTxHashes: readonly TxHash[]): Promise<Tx[]>;
  /**
   * Blocks `from` to `to` from the peers ahead (req/resp `block`); fewer when they do not serve them all by
   * `deadline` (epoch ms).
   */
  fetchBlocks(from: number, to: number, deadline: number): Promise<L2Block[]>;
}

export interface ConsensusGossipOptions {
  readonly chain: () => Chain;
  readonly slots: SlotClock;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  /** The validator client, once the validators run (absent: no committee here). */
  readonly validators: () => ValidatorClient | undefined;
  readonly mempool: Mempool;
  /** Where a proposed block's public txs are re-executed: the public execution pool. */
  readonly blockTxs: () => BlockTxRunner;
  readonly log: Logger;
}

/** Block proposals kept while they do not extend the tip yet (their parent is still being re-executed). */
const PARKED_MAX = 32;
/** The least time a proposal's missing txs are waited for, even when its slot is (nearly) over. */
const MIN_TX_FETCH_MS = 2_000;
/** Proposals and attestations are kept for this many slots back. */
const SLOTS_KEPT = 4;

const ignore = (outcome: string): GossipVerdict => ({ result: 'ignore', outcome });
const accept: GossipVerdict = { result: 'accept', outcome: 'accepted' };
const reject = (penalty: PeerPenaltyName, outcome: string, why: string): GossipVerdict => ({
  result: 'reject',
  outcome,
  penalty,
  why,
});

/**
 * The committee over gossip (4.1.2's block, checkpoint and attestation topics; docs/network.md): the proposer of
 * a slot gossips a block proposal for each block it builds and, once the slot is over, its checkpoint proposal
 * and its own attestations, then waits for the committee's (`collectAttestations`). Every node checks a
 * proposal's signer is its slot's proposer, gets its txs (the proposal, the pool, req/resp `tx`), re-executes the
 * block on its own state and applies it through applyBlock only when the header and archive come out the same.
 * A validator attests a checkpoint proposal whose header it recomputed from those blocks; every node records a
 * checkpoint once a quorum of valid attestations of it arrived. Anything forged, misdirected or mismatching is
 * dropped and costs its sender.
 */
export class ConsensusGossip implements CheckpointNetwork {
  private network: ConsensusNetwork | undefined;
  /** Block proposals and checkpoint checks run one at a time, in arrival order (each may change the chain). */
  private queue: Promise<unknown> = Promise.resolve();
  private outbound: Promise<unknown> = Promise.resolve();
  private readonly parked = new Map<string, BlockProposal>();
  private readonly proposals = new Map<number, CheckpointProposal>();
  /** `<slot>:<header hash>:<archive>` -> attester address -> attestation. */
  private readonly attestations = new Map<string, Map<string, CheckpointAttestation>>();
  private readonly attested = new Set<number>();
  /** Slots whose checkpoint this node proposed: its sequencer records those. */
  private readonly ownSlots = new Set<number>();
  /** Slots whose checkpoint is awaited on the real L1, then where it landed there (see landing). */
  private readonly onL1 = new Map<number, L1PublishedData | 'awaited'>();
  private readonly waiters = new Set<() => void>();

  constructor(private readonly o: ConsensusGossipOptions) {}

  handlers(): Partial<Record<GossipTopicType, GossipHandler>> {
    return {
      block_proposal: (payload, from) => this.onBlockProposal(payload, from),
      checkpoint_proposal: (payload) => this.onCheckpointProposal(payload),
      checkpoint_attestation: (payload) => this.onAttestation(payload),
    };
  }

  /** The peer runs: proposals go out through it, and the proposer's checkpoints wait for its attestations. */
  attach(network: ConsensusNetwork): void {
    this.network = network;
    this.o.validators()?.setNetwork(this);
  }

  /** The sequencer built and applied block `n`: when its slot is this node's, it is gossiped as a proposal. */
  proposeBlock(n: number): void {
    const client = this.o.validators();
    const network = this.network;
    if (!client || !network) return;
    this.outbound = this.outbound.then(async () => {
      const chain = this.o.chain();
      const block = chain.getBlock(n);
      if (!block) return;
      const inHash = new Fr(computeInHash(chain.settlement.inboxMessages(block.checkpointNumber)));
      const txHashes = block.body.txEffects.map((e) => e.txHash);
      const proposal = await client.signBlockProposal(
        block.header,
        block.indexWithinCheckpoint,
        inHash,
        block.archive.root,
        txHashes,
      );
      if (!proposal) return;
      this.ownSlots.add(block.slot);
      await network.publish('block_proposal', proposal.toBuffer());
      this.o.log.debug({ blockNumber: n, slot: block.slot }, `gossiped the proposal of block ${n}`);
    });
  }

  async collectAttestations(
    proposal: CheckpointProposal,
    own: readonly CheckpointAttestation[],
    quorum: number,
    timeoutMs: number,
  ): Promise<Map<string, Buffer>> {
    const slot = proposal.slotNumber;
    this.ownSlots.add(slot);
    this.proposals.set(slot, proposal);
    const key = payloadKey(slot, proposal.checkpointHeader.hash().toString(), proposal.archive.toString());
    for (const a of own) this.addAttestation(key, a.sender() as EthAddress, a);
    await this.outbound;
    await this.network?.publish('checkpoint_proposal', proposal.toBuffer());
    for (const a of own) await this.network?.publish('checkpoint_attestation', a.toBuffer());
    const count = () => this.attestations.get(key)?.size ?? 0;
    if (count() < quorum) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(check);
          resolve();
        };
        const check = () => {
          if (count() >= quorum) done();
        };
        const timer = setTimeout(done, timeoutMs);
        this.waiters.add(check);
      });
    }
    const out = new Map<string, Buffer>();
    for (const [address, a] of this.attestations.get(key) ?? []) out.set(address, a.signature.toCompact65());
    // Without a quorum now, a late one may still make the checkpoint: then this node records it as the others do.
    if (out.size < quorum) {
      this.ownSlots.delete(slot);
      this.attested.add(slot);
    }
    return out;
  }

  // ---- received ----

  private async onBlockProposal(payload: Buffer, from: string): Promise<GossipVerdict> {
    let p: BlockProposal;
    try {
      p = BlockProposal.fromBuffer(payload);
    } catch (err) {
      return reject('LowTolerance', 'undecodable', `gossiped an undecodable block proposal: ${(err as Error).message}`);
    }
    const bad = this.checkProposer('block proposal', p.slotNumber, () => p.sender());
    if (bad) return bad;
    const g = p.blockHeader.globalVariables;
    if (g.chainId.value !== BigInt(this.o.l1ChainId) || g.version.value !== BigInt(this.o.rollupVersion)) {
      return reject(
        'LowTolerance',
        'invalid',
        `proposed a block for chain ${g.chainId.value} version ${g.version.value}`,
      );
    }
    return this.enqueue(() => this.applyProposal(p, from));
  }

  private async onCheckpointProposal(payload: Buffer): Promise<GossipVerdict> {
    let p: CheckpointProposal;
    try {
      p = CheckpointProposal.fromBuffer(payload);
    } catch (err) {
      const why = `gossiped an undecodable checkpoint proposal: ${(err as Error).message}`;
      return reject('LowTolerance', 'undecodable', why);
    }
    const slot = p.slotNumber;
    const bad = this.checkProposer('checkpoint proposal', slot, () => p.sender());
    if (bad) return bad;
    if (this.proposals.has(slot)) return ignore('duplicate');
    this.proposals.set(slot, p);
    this.forgetBefore(slot - SLOTS_KEPT);
    void this.enqueue(() => this.checkpointProgress(slot));
    return accept;
  }

  private async onAttestation(payload: Buffer): Promise<GossipVerdict> {
    let a: CheckpointAttestation;
    try {
      a = CheckpointAttestation.fromBuffer(payload);
    } catch (err) {
      const why = `gossiped an undecodable checkpoint attestation: ${(err as Error).message}`;
      return reject('LowTolerance', 'undecodable', why);
    }
    const slot = a.payload.header.slotNumber;
    const committee = this.committeeAt(slot);
    if (!committee) return ignore('unhandled');
    const stale = this.slotCheck('checkpoint attestation', slot);
    if (stale) return stale;
    const attester = a.sender();
    if (!attester)
      return reject('LowTolerance', 'invalid', `attested slot ${slot} with a signature that does not recover`);
    if (!committee.includes(attester)) {
      return reject(
        'LowTolerance',
        'invalid',
        `sent an attestation of slot ${slot} by ${attester}, not a member of its committee`,
      );
    }
    const proposer = committee.proposerOf(slot);
    if (!proposer || !a.proposer()?.equals(proposer)) {
      return reject(
        'LowTolerance',
        'invalid',
        `sent an attestation of slot ${slot} of a proposal not signed by its proposer ${proposer}`,
      );
    }
    const key = payloadKey(slot, a.payload.header.hash().toString(), a.payload.archive.toString());
    if (this.attestations.get(key)?.has(attester.toString())) return ignore('duplicate');
    this.forgetBefore(this.o.slots.currentSlot() - SLOTS_KEPT);
    this.addAttestation(key, attester, a);
    void this.enqueue(() => this.checkpointProgress(slot));
    return accept;
  }

  /** A slot's message must be from around now, and (when signed by a proposer) from that slot's proposer. */
  private checkProposer(kind: string, slot: number, signer: () => EthAddress | undefined): GossipVerdict | undefined {
    const committee = this.committeeAt(slot);
    if (!committee) return ignore('unhandled');
    const stale = this.slotCheck(kind, slot);
    if (stale) return stale;
    const who = signer();
    if (!who)
      return reject('LowTolerance', 'invalid', `sent a ${kind} for slot ${slot} whose signature does not recover`);
    const proposer = committee.proposerOf(slot);
    if (!proposer?.equals(who)) {
      return reject(
        'LowTolerance',
        'invalid',
        `sent a ${kind} for slot ${slot} signed by ${who}, not by its proposer ${proposer}`,
      );
    }
    return undefined;
  }

  private slotCheck(kind: string, slot: number): GossipVerdict | undefined {
    const current = this.o.slots.currentSlot();
    if (slot < current - SLOTS_KEPT + 1) return ignore('stale');
    if (slot > current + 1) {
      return reject('LowTolerance', 'invalid', `sent a ${kind} for slot ${slot}, ahead of the current slot ${current}`);
    }
    return undefined;
  }

  private committeeAt(slot: number): Committee | undefined {
    const committee = this.o.validators()?.committeeAt(slot);
    return committee && committee.size > 0 ? committee : undefined;
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job);
    this.queue = run.catch((err: Error) =>
      this.o.log.warn({ err: err.message }, `a gossiped consensus message could not be processed: ${err.message}`),
    );
    return run;
  }

  /** Re-executes a proposed block on this node's tip and applies it when it comes out the same. */
  private async applyProposal(p: BlockProposal, from?: string): Promise<GossipVerdict> {
    const chain = this.o.chain();
    const n = p.blockNumber;
    if (n <= chain.latestBlockNumber && chain.store.getBlockHash(n) === p.blockHeader.hash().value) {
      return ignore('duplicate');
    }
    if (
      !p.blockHeader.lastArchive.equals(chain.worldState.getArchiveSnapshot()) &&
      !this.pruneFor(p) &&
      !(await this.catchUp(p))
    ) {
      // Its parent may still be on its way: kept until the tip reaches it.
      if (this.parked.size >= PARKED_MAX) this.parked.delete(this.parked.keys().next().value as string);
      this.parked.set(p.blockHeader.lastArchive.root.toString(), p);
      return ignore('ignored');
    }
    const tip = chain.latestBlockNumber;
    const tipBlock = tip === 0 ? undefined : chain.getBlock(tip);
    const index = p.indexWithinCheckpoint;
    const slot = p.slotNumber;
    const follows =
      index === 0
        ? (tipBlock?.slot ?? -1) < slot
        : tipBlock?.slot === slot && tipBlock.indexWithinCheckpoint === index - 1;
    if (!follows || (!tipBlock && index > 0)) {
      return reject(
        'LowTolerance',
        'invalid',
        `proposed block ${n} as block ${index} of slot ${slot}, which does not follow block ${tip}`,
      );
    }
    const checkpointNumber =
      index === 0 ? (tipBlock?.checkpointNumber ?? 0) + 1 : (tipBlock as L2Block).checkpointNumber;
    const messages = index === 0 ? chain.settlement.inboxMessages(checkpointNumber) : [];
    if (computeInHash(index === 0 ? messages : chain.settlement.inboxMessages(checkpointNumber)) !== p.inHash.value) {
      this.o.log.warn(
        { blockNumber: n, slot },
        `block ${n} proposed for slot ${slot} inserts L1-to-L2 messages this node does not have: not applied`,
      );
      return ignore('ignored');
    }
    const txs = await this.txsOf(p, from);
    if (!txs) return ignore('ignored');
    const sponge =
      index === 0
        ? SpongeBlob.init()
        : resumeStoredCheckpoint(chain, this.o.slots, chain.store.getBlocks(tip - index + 1, index)).sponge;
    const result = await buildBlock(
      {
        worldState: chain.worldState,
        globals: p.blockHeader.globalVariables,
        checkpointNumber,
        indexWithinCheckpoint: index,
        l1ToL2Messages: messages,
        sponge,
        limits: { maxTxs: txs.length, maxL2Gas: Number.MAX_SAFE_INTEGER },
        txs,
        allowEmpty: true,
      },
      this.o.blockTxs(),
    );
    const built = result.built;
    const mismatch = !built
      ? 'it builds no block'
      : result.dropped[0]
        ? `its tx ${result.dropped[0].tx.txHash} cannot be included (${result.dropped[0].reason})`
        : built.included.length !== txs.length
          ? `${built.included.length} of its ${txs.length} txs fit`
          : built.block.hash().value !== p.blockHeader.hash().value
            ? `re-executed, its header hashes to ${built.block.hash()}, the proposal's to ${p.blockHeader.hash()}`
            : !built.block.archive.root.equals(p.archiveRoot)
              ? `re-executed, its archive is ${built.block.archive.root}, the proposal says ${p.archiveRoot}`
              : undefined;
    if (mismatch || !built) {
      built?.fork.close();
      return reject(
        'LowTolerance',
        'invalid',
        `proposed block ${n} (slot ${slot}) that does not re-execute: ${mismatch}`,
      );
    }
    if (!p.blockHeader.lastArchive.equals(chain.worldState.getArchiveSnapshot())) {
      built.fork.close();
      return ignore('ignored');
    }
    chain.applyBlock({ block: built.block, l1ToL2Messages: messages, fork: built.fork });
    this.o.log.info(
      { blockNumber: n, slot, txs: txs.length, blockHash: built.block.hash().toString() },
      `applied block ${n} proposed for slot ${slot} (${txs.length} txs, re-executed)`,
    );
    this.afterApplied(built.block);
    return accept;
  }

  /** A block was applied: a parked proposal that builds on it goes next, and the slot's checkpoint may be due. */
  private afterApplied(block: L2Block): void {
    const next = this.parked.get(block.archive.root.toString());
    if (next) {
      this.parked.delete(block.archive.root.toString());
      void this.enqueue(() => this.applyProposal(next));
    }
    void this.enqueue(() => this.checkpointProgress(block.slot));
  }

  /**
   * A checkpoint's first block built on the last checkpointed block, while this node holds blocks after it that
   * never got a checkpoint (their proposer missed its quorum): those are pruned, as the network did.
   */
  private pruneFor(p: BlockProposal): boolean {
    if (p.indexWithinCheckpoint !== 0) return false;
    const chain = this.o.chain();
    const last = chain.store.checkpoints.latest()?.lastBlock ?? 0;
    if (chain.latestBlockNumber <= last || p.blockNumber !== last + 1) return false;
    const base = chain.getBlock(last);
    if (!base?.archive.equals(p.blockHeader.lastArchive)) return false;
    const pruned = chain.unwindTo(last);
    this.o.log.warn(
      { slot: p.slotNumber, pruned: pruned.length },
      `pruned ${pruned.length} uncheckpointed block(s) after block ${last}: slot ${p.slotNumber}'s proposer builds on block ${last}`,
    );
    return true;
  }

  /** A proposal past this node's tip (it was stopped a while): the blocks before it come from its peers. */
  private async catchUp(p: BlockProposal): Promise<boolean> {
    const chain = this.o.chain();
    const network = this.network;
    // A proposal of a past slot that reached this node late is no reason to fetch blocks: the next one will be.
    if (!network || p.blockNumber <= chain.latestBlockNumber + 1 || p.slotNumber < this.o.slots.currentSlot()) {
      return false;
    }
    // The fetch holds the gossip queue: it gets until the end of the proposal's slot.
    const deadline = this.o.slots.slotStartMs(p.slotNumber + 1);
    const caughtUp = await catchUpToProposal(p, {
      chain,
      slots: this.o.slots,
      fetchBlocks: (from, to) => network.fetchBlocks(from, to, deadline),
      log: this.o.log,
    });
    if (caughtUp) this.parked.clear();
    return caughtUp;
  }

  /**
   * The proposal's txs in its order: attached, in the pool, or asked of peers (the one that sent it first) until
   * the proposal's slot ends; undefined, with a log line, while some are missing.
   */
  private async txsOf(p: BlockProposal, from?: string): Promise<Tx[] | undefined> {
    const byHash = new Map<string, Tx>();
    for (const tx of p.signedTxs?.txs ?? []) byHash.set(tx.txHash.toString(), tx);
    const wanted = p.txHashes.filter((h) => !byHash.has(h.toString()));
    for (const tx of this.o.mempool.txsByHash(wanted)) byHash.set(tx.txHash.toString(), tx);
    const missing = p.txHashes.flatMap((h, i) => (byHash.has(h.toString()) ? [] : [i]));
    const network = this.network;
    if (missing.length > 0 && network) {
      const hashes = p.txHashes;
      const started = Date.now();
      const timeoutMs = Math.max(MIN_TX_FETCH_MS, this.o.slots.slotStartMs(p.slotNumber + 1) - started);
      const fetched = await fetchMissingTxs(
        hashes,
        missing,
        {
          blockTxs: from
            ? (indices) =>
                network.requestBlockTxs(
                  from,
                  { archiveRoot: p.archiveRoot, txHashes: hashes, txIndices: BitVector.of(hashes.length, indices) },
                  hashes,
                )
            : undefined,
          byHash: (wanted) => network.requestTxs(wanted),
        },
        timeoutMs,
      );
      for (const [h, tx] of fetched) byHash.set(h, tx);
      this.o.log.info(
        { blockNumber: p.blockNumber, missing: missing.length, fetched: fetched.size, ms: Date.now() - started },
        `block ${p.blockNumber} proposed for slot ${p.slotNumber}: ${fetched.size} of its ${missing.length} missing txs fetched from peers`,
      );
    }
    const txs = p.txHashes.map((h) => byHash.get(h.toString()));
    if (txs.some((t) => t === undefined)) {
      this.o.log.warn(
        { blockNumber: p.blockNumber, missing: txs.filter((t) => t === undefined).length },
        `block ${p.blockNumber} proposed for slot ${p.slotNumber} is not applied: some of its txs are neither attached, in the pool, nor served by peers in time`,
      );
      return undefined;
    }
    return txs as Tx[];
  }

  /**
   * A slot's checkpoint proposal against the blocks this node applied for it: attested (once) when its header is
   * the one these blocks give, recorded once a quorum of the committee attested it.
   */
  private async checkpointProgress(slot: number): Promise<void> {
    const proposal = this.proposals.get(slot);
    const committee = this.committeeAt(slot);
    if (!proposal || !committee) return;
    const chain = this.o.chain();
    const blocks = this.slotBlocks(slot);
    const last = blocks?.at(-1);
    if (!blocks || !last?.archive.root.equals(proposal.archive)) return;
    const local = resumeStoredCheckpoint(chain, this.o.slots, blocks).complete();
    if (!local.header.hash().equals(proposal.checkpointHeader.hash())) {
      this.proposals.delete(slot);
      this.o.log.warn(
        { slot, checkpoint: local.number },
        `the checkpoint proposed for slot ${slot} is not the one its blocks give here (header ${proposal.checkpointHeader.hash()}, here ${local.header.hash()}): not attested`,
      );
      return;
    }
    const key = payloadKey(slot, proposal.checkpointHeader.hash().toString(), proposal.archive.toString());
    const client = this.o.validators();
    if (client && !this.ownSlots.has(slot) && !this.attested.has(slot)) {
      this.attested.add(slot);
      for (const a of await client.attest(proposal)) {
        this.addAttestation(key, a.sender() as EthAddress, a);
        await this.network?.publish('checkpoint_attestation', a.toBuffer());
      }
    }
    if (this.ownSlots.has(slot)) return;
    const recorded = chain.store.checkpoints.latest();
    if ((recorded?.lastBlock ?? 0) >= last.number || (recorded?.number ?? 0) !== local.number - 1) return;
    const gathered = this.attestations.get(key);
    const attestations = committee.members.map((m) => {
      const a = gathered?.get(m.toString());
      return a ? CommitteeAttestation.signed(m, a.signature.toCompact65()) : CommitteeAttestation.missing(m);
    });
    const signed = attestations.filter((a) => a.isSigned).length;
    if (signed < committee.quorum) return;
    const landed = this.landing(slot, local);
    if (!landed) return;
    const row = verifyUpstreamCheckpoint(
      {
        number: local.number,
        header: proposal.checkpointHeader,
        archiveRoot: proposal.archive,
        blocks,
        l1: landed,
        attestations,
      },
      chain.store,
    );
    chain.recordCheckpoint(row, {
      attestations,
      proposer: committee.proposerOf(slot) as EthAddress,
      proposerSignature: proposal.signature.toCompact65(),
    });
    this.o.log.info(
      { checkpoint: row.number, slot, firstBlock: row.firstBlock, lastBlock: row.lastBlock, attestations: signed },
      `checkpoint ${row.number} (slot ${slot}, blocks ${row.firstBlock} to ${row.lastBlock}) recorded with ${signed} of ${committee.size} attestations gathered over P2P`,
    );
  }

  /**
   * Where another proposer's checkpoint landed. The stand-in says so at once on every node; on a real L1 only its
   * proposer's node publishes it, and this node records it once the rollup holds it with the same archive (it
   * waits in the background, then checks the slot again); undefined meanwhile.
   */
  private landing(slot: number, local: CompletedCheckpoint): L1PublishedData | undefined {
    const settlement = this.o.chain().settlement;
    if (!settlement.awaitCheckpoint) {
      const landed = settlement.publishCheckpoint(local);
      return landed instanceof Promise ? undefined : landed;
    }
    const known = this.onL1.get(slot);
    if (known !== undefined) return known === 'awaited' ? undefined : known;
    this.onL1.set(slot, 'awaited');
    void settlement.awaitCheckpoint({ number: local.number, archiveRoot: local.archiveRoot, slot }).then((landed) => {
      if (!landed) return;
      this.onL1.set(slot, landed);
      void this.enqueue(() => this.checkpointProgress(slot));
    });
    return undefined;
  }

  /** The blocks of `slot` at the tip, from its checkpoint's first; undefined when the tip is not that slot's. */
  private slotBlocks(slot: number): L2Block[] | undefined {
    const chain = this.o.chain();
    const tip = chain.latestBlockNumber;
    const tail = tip === 0 ? undefined : chain.getBlock(tip);
    if (!tail || tail.slot !== slot) return undefined;
    const blocks = chain.store.getBlocks(tip - tail.indexWithinCheckpoint, tail.indexWithinCheckpoint + 1);
    return blocks[0]?.indexWithinCheckpoint === 0 && blocks[0].slot === slot ? blocks : undefined;
  }

  private addAttestation(key: string, attester: EthAddress, a: CheckpointAttestation): void {
    let byAttester = this.attestations.get(key);
    if (!byAttester) {
      byAttester = new Map();
      this.attestations.set(key, byAttester);
    }
    byAttester.set(attester.toString(), a);
    for (const waiter of [...this.waiters]) waiter();
  }

  private forgetBefore(slot: number): void {
    for (const s of this.proposals.keys()) if (s < slot) this.proposals.delete(s);
    for (const s of this.attested) if (s < slot) this.attested.delete(s);
    for (const s of this.ownSlots) if (s < slot) this.ownSlots.delete(s);
    for (const s of this.onL1.keys()) if (s < slot) this.onL1.delete(s);
    for (const key of this.attestations.keys()) if (Number(key.split(':')[0]) < slot) this.attestations.delete(key);
  }
}

function payloadKey(slot: number, headerHash: string, archive: string): string {
  return `${slot}:${headerHash}:${archive}`;
}
