import type { L2Block } from '../../core/block/l2-block.js';
import { toHex64 } from '../../core/fr.js';
import type { Chain } from '../chain/chain.js';
import type { NodeConfig } from '../config/settings.js';
import type { WorldState } from '../world-state/world-state.js';
import { BlockRejectedError } from '../world-state/world-state-errors.js';
import { CheckpointSponge } from './checkpoint-sponge.js';
import { verifyUpstreamCheckpoint } from './checkpoint-verification.js';
import type { L1CheckpointCheck } from './l1-checkpoint-check.js';
import { SyncRefusedError } from './sync-refused-error.js';
import type { SyncStage } from './sync-stage.js';
import type { Upstream, UpstreamCheckpoint } from './upstream.js';
import { UpstreamReorgedError } from './upstream-reorg.js';

/**
 * The block verifier: checks every block from the upstream before the chain's one applyBlock path stores it
 * (its position and parent, the chain's identity, its body against the header through the checkpoint's blob
 * sponge; then the roots and the archive inside applyBlock), and every checkpoint against the stored blocks
 * and its committee's attestations (and, with an L1, against the rollup contract first). A block that does not
 * verify throws SyncRefusedError and nothing of it is stored. Its unwind forgets the sponge of the checkpoint being synced (rebuilt from the stored blocks).
 */
export class UpstreamBlockVerifier implements SyncStage {
  private sponge: CheckpointSponge | undefined;

  constructor(
    private readonly o: {
      readonly upstream: Upstream;
      readonly chain: () => Chain;
      /** Read live: the identity is adopted from the upstream at start. */
      readonly config: NodeConfig;
      /** With an L1: each checkpoint must be the rollup's before anything of it is applied. */
      readonly l1?: L1CheckpointCheck;
      /** False once the sync is paused or stopped: a checkpoint's remaining blocks are left for later. */
      readonly active: () => boolean;
      /** A block was stored, after `ms` milliseconds of checks and apply. */
      readonly applied: (block: L2Block, messages: number, ms: number) => void;
    },
  ) {}

  unwind(): void {
    this.sponge?.reset();
  }

  /** Applies a checkpoint's blocks, then records the checkpoint once it is checked against them. */
  async applyCheckpoint(c: UpstreamCheckpoint): Promise<void> {
    const chain = this.o.chain();
    // Against L1 first: a checkpoint the rollup does not hold as served is neither applied nor recorded.
    await this.o.l1?.verify(c);
    for (const b of c.blocks) {
      if (!this.o.active()) return;
      await this.applyBlock(b);
    }
    if (!this.o.active()) return;
    const row = verifyUpstreamCheckpoint(c, chain.store);
    // The attestations are what makes a checkpoint final for its committee: a follower takes it only when
    // every signature recovers to its member and a quorum signed (spec part 4 validators; issue 9). The check
    // (viem's signature recovery) is loaded with the first checkpoint, not by every start.
    const { verifyCheckpointAttestations } = await import('../validators/verify-checkpoint-attestations.js');
    const check = await verifyCheckpointAttestations({
      header: c.header,
      archiveRoot: c.archiveRoot.value,
      attestations: c.attestations,
    });
    if (!check.ok) {
      throw new SyncRefusedError(
        `checkpoint ${c.number}`,
        c.blocks[0]?.number ?? 0,
        `its attestations ${check.problem}`,
      );
    }
    chain.recordCheckpoint(row, c.attestations.length > 0 ? { attestations: c.attestations } : undefined);
  }

  /**
   * Verifies and applies one block that extends the chain; one this node has must be the same block.
   * `tipHash`: the hash the upstream's tips give this block when it is their proposed tip. Nothing later binds
   * a tip's header (no next block's last archive, no checkpoint's archive yet), and the parts of a header the
   * body does not commit to (coinbase, fees) could be changed unseen: its hash must be the one the upstream names.
   */
  async applyBlock(block: L2Block, tipHash?: bigint): Promise<void> {
    const chain = this.o.chain();
    const ws = chain.worldState;
    const n = block.number;
    const ours = chain.latestBlockNumber;
    if (n <= ours) {
      const have = chain.store.getBlockHash(n) as bigint;
      if (have !== block.hash().value) {
        // The upstream still names this node's block: the block it served is not its own block, not a reorg.
        if ((await this.o.upstream.blockHash(n)) === have) throw this.notItsBlock(block, have);
        throw new UpstreamReorgedError(`the upstream's block ${n} is ${block.hash()}, not this node's`);
      }
      return;
    }
    if (tipHash !== undefined && tipHash !== block.hash().value) {
      // The tip may have moved since the tips were read: what the upstream names now decides.
      const named = await this.o.upstream.blockHash(n);
      if (named !== block.hash().value) throw this.notItsBlock(block, named ?? tipHash);
    }
    const subject = `block ${n}`;
    if (n !== ours + 1) {
      throw new SyncRefusedError(subject, ours + 1, `the upstream sent block ${n} after block ${ours}`);
    }
    if (!block.header.lastArchive.equals(ws.getArchiveSnapshot())) await this.parentCheck(block, ws);
    const { config } = this.o;
    const g = block.header.globalVariables;
    if (g.chainId.value !== BigInt(config.l1ChainId) || g.version.value !== BigInt(config.rollupVersion)) {
      throw new SyncRefusedError(
        subject,
        n,
        `it is for chain id ${g.chainId.value} and rollup version ${g.version.value}, this chain is ${config.l1ChainId} version ${config.rollupVersion}`,
      );
    }
    const messages = await this.messagesOf(block, ws);
    const started = performance.now();
    const sponge = this.checkpointSponge.verify(block);
    try {
      chain.applyBlock({ block, l1ToL2Messages: messages });
    } catch (err) {
      if (!(err instanceof BlockRejectedError)) throw new SyncRefusedError(subject, n, (err as Error).message);
      await this.applyWithStateOverrides(block, messages, err);
    }
    this.checkpointSponge.advance(block, sponge);
    this.o.applied(block, messages.length, Math.round(performance.now() - started));
  }

  /** The refusal of a served block whose header is not the one the upstream names for its number. */
  private notItsBlock(block: L2Block, named: bigint): SyncRefusedError {
    return new SyncRefusedError(
      `block ${block.number}`,
      block.number,
      `its header does not match the block: it hashes to ${block.hash()}, but the upstream names ${toHex64(named)} ` +
        `as its block ${block.number} (a header field the body does not commit to, such as the coinbase or the fees, was changed)`,
    );
  }

  /**
   * A block whose roots its effects do not give: on a dev chain, a state cheat code may have written public data
   * before its txs (docs/cheat-codes.md). The upstream records those writes (node_getStateOverrides); applied
   * first, the roots are checked again as for any block. Without any, the block is refused saying why.
   */
  private async applyWithStateOverrides(
    block: L2Block,
    messages: readonly bigint[],
    rejected: BlockRejectedError,
  ): Promise<void> {
    const n = block.number;
    const overrides = await this.o.upstream.stateOverrides(n);
    if (!overrides || overrides.length === 0) {
      const why = overrides
        ? 'and the upstream recorded no state overrides for it'
        : 'and the upstream does not serve state overrides (node_getStateOverrides is an l2node extension)';
      throw new SyncRefusedError(`block ${n}`, n, `${rejected.message} (${why})`);
    }
    try {
      this.o.chain().applyBlock({ block, l1ToL2Messages: messages, stateOverrides: overrides });
    } catch (err) {
      throw new SyncRefusedError(
        `block ${n}`,
        n,
        `${(err as Error).message} (with the ${overrides.length} state overrides the upstream recorded for it applied first)`,
      );
    }
  }

  /** A block whose parent is not this node's tip: the upstream reorged, or the block is wrong. */
  private async parentCheck(block: L2Block, ws: WorldState): Promise<void> {
    const ours = block.number - 1;
    // Both chains start from the same genesis (checked at start): below block 1 the block itself is wrong.
    if (ours > 0 && (await this.o.upstream.blockHash(ours)) !== this.o.chain().store.getBlockHash(ours)) {
      throw new UpstreamReorgedError(`the upstream's block ${block.number} does not extend this node's block ${ours}`);
    }
    const have = ws.getArchiveSnapshot();
    throw new SyncRefusedError(
      `block ${block.number}`,
      block.number,
      `its last archive (${block.header.lastArchive.root}, ${block.header.lastArchive.nextAvailableLeafIndex}) is not ` +
        `the archive after block ${ours} (${have.root}, ${have.nextAvailableLeafIndex}), which the upstream also has`,
    );
  }

  /**
   * The L1-to-L2 messages a checkpoint's first block inserts. Appending zeros leaves an append-only tree's root
   * as it was, so an unchanged message tree root means none; otherwise they come from the upstream.
   */
  private async messagesOf(block: L2Block, ws: WorldState): Promise<readonly bigint[]> {
    if (block.indexWithinCheckpoint !== 0) return [];
    const before = ws.getStateReference('latest').l1ToL2MessageTree.root;
    if (block.header.state.l1ToL2MessageTree.root.equals(before)) return [];
    const messages = await this.o.upstream.l1ToL2Messages(block.checkpointNumber);
    if (messages === undefined) {
      throw new SyncRefusedError(
        `block ${block.number}`,
        block.number,
        `its checkpoint ${block.checkpointNumber} inserts L1-to-L2 messages and the upstream does not serve them ` +
          '(node_getL1ToL2Messages is an l2node extension; a 4.1.2 node reads them from L1, which a follower cannot)',
      );
    }
    return messages;
  }

  /** The sponge of the checkpoint being synced, built from the store the first time (the chain is open by then). */
  private get checkpointSponge(): CheckpointSponge {
    this.sponge ??= new CheckpointSponge(this.o.chain().store);
    return this.sponge;
  }
}
