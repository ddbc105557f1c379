import { computeBlockHeadersHash } from '../../core/block/block-headers-hash.js';
import { toHex64 } from '../../core/fr.js';
import type { ChainStore } from '../store/chain-store.js';
import type { CheckpointRow } from '../store/checkpoint-repository.js';
import { SyncRefusedError } from './sync-refused-error.js';
import type { UpstreamCheckpoint } from './upstream.js';

/**
 * Checks a checkpoint from the upstream against this node's stored (already verified) blocks before it is
 * recorded: it must be the next checkpoint, hold exactly the next blocks with the stored hashes, and its
 * header must commit to them (last archive root, block headers hash, slot, archive after its last block).
 * Returns the row to store. The blobs hash and epoch out hash are not recomputed (see docs/follower.md).
 */
export function verifyUpstreamCheckpoint(
  c: UpstreamCheckpoint,
  store: ChainStore,
  /** The checkpoint before it; default this node's latest (a lazy fork starts on the upstream's own). */
  previous: { readonly number: number; readonly lastBlock: number } | undefined = store.checkpoints.latest(),
): CheckpointRow {
  const subject = `checkpoint ${c.number}`;
  const first = c.blocks[0];
  const last = c.blocks.at(-1);
  const refuse = (reason: string): never => {
    throw new SyncRefusedError(subject, first?.number ?? 0, reason);
  };
  if (!first || !last) return refuse('it has no blocks');
  const expectedFirst = (previous?.lastBlock ?? 0) + 1;
  if (c.number !== (previous?.number ?? 0) + 1) {
    refuse(`the next checkpoint of this node is ${(previous?.number ?? 0) + 1}`);
  }
  if (first.number !== expectedFirst)
    refuse(`it starts at block ${first.number}, the next checkpoint starts at block ${expectedFirst}`);
  c.blocks.forEach((b, i) => {
    if (b.number !== first.number + i || b.checkpointNumber !== c.number || b.indexWithinCheckpoint !== i) {
      refuse(`its block ${b.number} is not block ${i} of checkpoint ${c.number} at height ${first.number + i}`);
    }
    const stored = store.getBlockHash(b.number);
    if (stored !== b.hash().value) refuse(`its block ${b.number} is not this node's block ${b.number}`);
  });
  const h = c.header;
  if (!h.lastArchiveRoot.equals(first.header.lastArchive.root)) {
    refuse(`its header's last archive root ${h.lastArchiveRoot} is not the archive before block ${first.number}`);
  }
  const headersHash = computeBlockHeadersHash(c.blocks.map((b) => b.header));
  if (h.blockHeadersHash.value !== headersHash) {
    refuse(
      `its header's block headers hash ${h.blockHeadersHash} is not the hash of its blocks' headers (${toHex64(headersHash)})`,
    );
  }
  if (h.slotNumber !== first.slot) refuse(`its header's slot ${h.slotNumber} is not its blocks' slot ${first.slot}`);
  if (!c.archiveRoot.equals(last.archive.root)) {
    refuse(`its archive root ${c.archiveRoot} is not the archive after block ${last.number}`);
  }
  return {
    number: c.number,
    firstBlock: first.number,
    lastBlock: last.number,
    slot: h.slotNumber,
    header: h.toBuffer(),
    archiveRoot: c.archiveRoot.toBuffer(),
    l1: c.l1,
  };
}
