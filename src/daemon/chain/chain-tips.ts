import { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import { toHex64 } from '../../core/fr.js';
import type { ChainStore } from '../store/chain-store.js';
import type { CheckpointRow } from '../store/checkpoint-repository.js';
import type { BlockId, CheckpointedTip, L2Tips } from './l2-tips.js';

/** The genesis checkpoint id: number 0 and the hash of the empty checkpoint header (4.1.2 GENESIS_CHECKPOINT_HEADER_HASH). */
const GENESIS_CHECKPOINT_HASH = toHex64(CheckpointHeader.empty().hash().value);

/**
 * Reads the tips from the chain store: proposed = the latest block; checkpointed = the last block of the
 * latest published checkpoint; proven and finalized = the last blocks of the checkpoints the settlement layer
 * reported (chain_meta). Genesis is block 0 with the node's genesis block hash and checkpoint 0.
 */
export class ChainTips {
  constructor(
    private readonly store: ChainStore,
    private readonly genesisBlockHash: bigint,
  ) {}

  read(): L2Tips {
    const latest = this.store.latestBlockNumber();
    const checkpointed = this.store.checkpoints.latest();
    const provenNumber = this.store.meta.get('provenCheckpoint') ?? 0;
    const finalizedNumber = this.store.meta.get('finalizedCheckpoint') ?? 0;
    return {
      proposed: this.blockId(latest),
      checkpointed: this.tip(checkpointed),
      proven: this.tip(this.checkpoint(provenNumber)),
      finalized: this.tip(this.checkpoint(finalizedNumber)),
    };
  }

  private checkpoint(number: number): CheckpointRow | undefined {
    return number > 0 ? this.store.checkpoints.get(number) : undefined;
  }

  private tip(c: CheckpointRow | undefined): CheckpointedTip {
    if (!c) return { block: this.blockId(0), checkpoint: { number: 0, hash: GENESIS_CHECKPOINT_HASH } };
    return {
      block: this.blockId(c.lastBlock),
      checkpoint: { number: c.number, hash: toHex64(CheckpointHeader.fromBuffer(c.header).hash().value) },
    };
  }

  private blockId(number: number): BlockId {
    const hash = number === 0 ? this.genesisBlockHash : (this.store.getBlockHash(number) as bigint);
    return { number, hash: toHex64(hash) };
  }
}
