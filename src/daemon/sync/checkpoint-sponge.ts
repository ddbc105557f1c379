import { blockBlobFields } from '../../core/blob/blob-fields.js';
import { SpongeBlob } from '../../core/blob/sponge-blob.js';
import type { L2Block } from '../../core/block/l2-block.js';
import { toHex64 } from '../../core/fr.js';
import type { ChainStore } from '../store/chain-store.js';
import { SyncRefusedError } from './sync-refused-error.js';

/**
 * Binds a synced block's body to its header: the header's spongeBlobHash is the hash of the checkpoint's blob
 * sponge after this block's blob fields (every tx effect field, then the block's end data), so a body changed
 * anywhere (a log, a fee, a tx hash) does not verify even where the state roots cannot tell. Keeps the
 * sponge of the checkpoint being synced; after a restart or an unwind it is rebuilt from the stored blocks.
 */
export class CheckpointSponge {
  private current: { checkpoint: number; lastBlock: number; sponge: SpongeBlob } | undefined;

  constructor(private readonly store: ChainStore) {}

  /** Checks a block that extends the chain; returns the sponge after it, to `advance` to once it is stored. */
  verify(block: L2Block): SpongeBlob {
    const first = block.indexWithinCheckpoint === 0;
    const sponge = first ? SpongeBlob.init() : this.before(block).clone();
    try {
      sponge.absorb(blockBlobFields(block.header, block.body.txEffects, first));
    } catch (err) {
      throw new SyncRefusedError(`block ${block.number}`, block.number, (err as Error).message);
    }
    const hash = sponge.squeeze();
    if (hash !== block.header.spongeBlobHash.value) {
      throw new SyncRefusedError(
        `block ${block.number}`,
        block.number,
        `its body does not match its header: the blob sponge over its tx effects hashes to ${toHex64(hash)}, ` +
          `the header says ${block.header.spongeBlobHash}`,
      );
    }
    return sponge;
  }

  /** The block is stored: the next block of its checkpoint continues from `sponge`. */
  advance(block: L2Block, sponge: SpongeBlob): void {
    this.current = { checkpoint: block.checkpointNumber, lastBlock: block.number, sponge };
  }

  /** The chain moved another way (an unwind): rebuild from the store next time. */
  reset(): void {
    this.current = undefined;
  }

  private before(block: L2Block): SpongeBlob {
    const c = this.current;
    if (c && c.lastBlock === block.number - 1 && c.checkpoint === block.checkpointNumber) return c.sponge;
    const k = block.indexWithinCheckpoint;
    const earlier = this.store.getBlocks(block.number - k, k);
    if (
      earlier.length !== k ||
      earlier.some((b, i) => b.checkpointNumber !== block.checkpointNumber || b.indexWithinCheckpoint !== i)
    ) {
      throw new SyncRefusedError(
        `block ${block.number}`,
        block.number,
        `it claims to be block ${k} of checkpoint ${block.checkpointNumber}, but the ${k} blocks before it are not that checkpoint's first ones`,
      );
    }
    const sponge = SpongeBlob.init();
    for (const b of earlier) sponge.absorb(blockBlobFields(b.header, b.body.txEffects, b.indexWithinCheckpoint === 0));
    return sponge;
  }
}
