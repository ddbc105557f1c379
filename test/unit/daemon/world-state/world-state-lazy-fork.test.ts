import { describe, expect, it } from 'vitest';
import type { UpstreamBlockEffects } from '../../../../src/daemon/fork/upstream-frontier.js';
import {
  UpstreamStateFetcher,
  UpstreamStateUnavailableError,
  type UpstreamWitnessSource,
} from '../../../../src/daemon/fork/upstream-state-fetcher.js';
import { openNodeDatabase } from '../../../../src/daemon/store/node-database.js';
import { MerkleTreeId } from '../../../../src/daemon/world-state/merkle-tree-id.js';
import { type SparseBase, WorldState } from '../../../../src/daemon/world-state/world-state.js';
import {
  UpstreamStateNeededError,
  UpstreamWitnessRejectedError,
} from '../../../../src/daemon/world-state/world-state-errors.js';
import { buildBlock, openWorldState, Rng, randomTx } from './world-state-fixtures.js';

/**
 * The lazy fork's world state (WorldState.openSparse + UpstreamStateFetcher) against a full world state holding
 * the upstream's whole state: every block, built on either side, must have bit-exact the same roots.
 */

/**
 * The upstream's 4.1.2 methods, answered from a full world state at any block and the blocks' effects (as a
 * 4.1.2 node does): no sibling path by index.
 */
function sourceOf(up: WorldState, blocks: readonly UpstreamBlockEffects[], log: string[] = []): UpstreamWitnessSource {
  return {
    url: 'in-process upstream',
    findLeaves: async (tree, block, values) => {
      log.push(`find ${tree}`);
      return up.findLeavesIndexes(block, tree, values);
    },
    lowLeaf: async (tree, block, key) => {
      log.push(`low ${tree}`);
      const w =
        tree === MerkleTreeId.NULLIFIER_TREE
          ? up.getLowNullifierMembershipWitness(block, key)
          : up.getPublicDataWitness(block, key);
      return w && { index: w.index, preimage: w.leafPreimage, siblingPath: w.siblingPath.toBigInts() };
    },
    witness: async (tree, block, value) => {
      log.push(`witness ${tree}`);
      if (tree === MerkleTreeId.NULLIFIER_TREE || tree === MerkleTreeId.PUBLIC_DATA_TREE) {
        const w =
          tree === MerkleTreeId.NULLIFIER_TREE
            ? up.getNullifierMembershipWitness(block, value)
            : up.getPublicDataWitness(block, value);
        return w?.leafPreimage.key === value
          ? { index: w.index, preimage: w.leafPreimage, siblingPath: w.siblingPath.toBigInts() }
          : undefined;
      }
      const w =
        tree === MerkleTreeId.ARCHIVE
          ? up.getBlockHashMembershipWitness(block, value)
          : up.getNoteHashMembershipWitness(block, value);
      return w && { index: w.index, siblingPath: w.siblingPath.toBigInts() };
    },
    blockHash: async (n) => {
      log.push('block hash');
      return up.getBlockHash(n);
    },
    blockEffects: async (from, limit) => {
      log.push('blocks');
      return blocks.slice(from - 1, from - 1 + limit);
    },
  };
}

/** An upstream with `blocks` blocks of random effects, and the slots and nullifiers they wrote. */
function upstreamWith(rng: Rng, blocks: number, withMessages = false) {
  const { ws: up } = openWorldState();
  const slots: bigint[] = [];
  const nullifiers: bigint[] = [];
  const effects: UpstreamBlockEffects[] = [];
  for (let b = 0; b < blocks; b++) {
    const txs = Array.from({ length: 1 + rng.int(3) }, () => randomTx(rng, slots));
    for (const tx of txs) nullifiers.push(...tx.nullifiers);
    const messages = withMessages ? Array.from({ length: 1 + rng.int(4) }, () => rng.field()) : [];
    up.applyBlock(buildBlock(up, { txs, l1ToL2Messages: messages }));
    effects.push({
      number: b + 1,
      hash: up.getBlockHash(b + 1) as bigint,
      publicDataSize: Number(up.getStateReference().partial.publicDataTree.nextAvailableLeafIndex),
      txs: txs.map((tx) => ({
        noteHashes: tx.noteHashes,
        nullifiers: tx.nullifiers,
        publicDataSlots: tx.publicDataWrites.map((w) => w.leafSlot),
      })),
    });
  }
  return { up, slots, nullifiers, effects, source: (log?: string[]) => sourceOf(up, effects, log) };
}

function baseOf(up: WorldState, n: number): SparseBase {
  return {
    blockNumber: n,
    blockHash: up.getBlockHash(n) as bigint,
    state: up.getStateReference(n),
    archive: up.getArchiveSnapshot(n),
  };
}

describe('lazy fork world state: roots bit-exact with a node holding the upstream state', () => {
  for (const seed of [7, 8]) {
    it(`blocks built on the fork and on the full state agree, seed ${seed}`, async () => {
      const rng = new Rng(seed);
      const { up, slots, nullifiers, source } = upstreamWith(rng, 6);
      const n = up.latestBlockNumber;
      const log: string[] = [];
      const lazy = WorldState.openSparse(openNodeDatabase(null), baseOf(up, n));
      const fetcher = new UpstreamStateFetcher(lazy, source(log));
      await fetcher.fetchFrontiers();
      // The blocks (one call), where the last block that grew the public data tree put its writes, and the
      // witness of each tree's last leaf (but the empty L1-to-L2 message tree's).
      expect(log).toEqual([
        'blocks',
        `find ${MerkleTreeId.PUBLIC_DATA_TREE}`,
        ...Array(4).fill(expect.stringMatching(/^witness/)),
      ]);
      expect(lazy.getStateReference().equals(up.getStateReference())).toBe(true);

      // A full node following the upstream: its state at N is the upstream's, it applies what the fork builds.
      const full = up;
      for (let round = 0; round < 6; round++) {
        // Writes to the upstream's own slots (in-place updates), new slots, nullifiers anywhere among the
        // upstream's, note hashes and a checkpoint's messages.
        const txs = Array.from({ length: 1 + rng.int(3) }, () => randomTx(rng, slots));
        const messages = round % 2 === 0 ? Array.from({ length: rng.int(4) }, () => rng.field()) : [];
        // Even rounds: the fork builds the block; odd rounds: the full node does and the fork applies it.
        const block =
          round % 2 === 0
            ? await fetcher.run(() => buildBlock(lazy, { txs, l1ToL2Messages: messages }))
            : buildBlock(full, { txs, l1ToL2Messages: messages });
        await fetcher.run(() => lazy.applyBlock(block));
        full.applyBlock(block);
        expect(lazy.getStateReference().equals(full.getStateReference())).toBe(true);
        expect(lazy.getArchiveSnapshot().equals(full.getArchiveSnapshot())).toBe(true);
      }

      // Reads fall through: an upstream slot's value, a nullifier's presence, a witness matching the full node's.
      const slot = slots[0] as bigint;
      expect(await fetcher.run(() => lazy.getPublicStorageAt('latest', slot))).toBe(
        full.getPublicStorageAt('latest', slot),
      );
      const nullifier = nullifiers[0] as bigint;
      const witness = await fetcher.run(() => lazy.getNullifierMembershipWitness('latest', nullifier));
      expect(witness?.index).toBe(full.getNullifierMembershipWitness('latest', nullifier)?.index);
      expect(witness?.siblingPath.toBigInts()).toEqual(
        full.getNullifierMembershipWitness('latest', nullifier)?.siblingPath.toBigInts(),
      );
      // Where a value is, and since which block, comes from the upstream for its part of a tree.
      const leafQueries: [MerkleTreeId, bigint][] = [
        [MerkleTreeId.NULLIFIER_TREE, nullifier],
        [MerkleTreeId.PUBLIC_DATA_TREE, slot],
        [MerkleTreeId.ARCHIVE, up.getBlockHash(2) as bigint],
        [MerkleTreeId.ARCHIVE, up.getBlockHash(n + 2) as bigint],
        [MerkleTreeId.NOTE_HASH_TREE, 12345n],
      ];
      for (const [tree, value] of leafQueries) {
        expect(await fetcher.run(() => lazy.findLeavesIndexes('latest', tree, [value]))).toEqual(
          full.findLeavesIndexes('latest', tree, [value]),
        );
      }
      expect(await fetcher.run(() => lazy.getBlockNumber(up.getBlockHash(3) as bigint))).toBe(3);
      // Everything fetched is kept: asking again makes no call.
      const calls = fetcher.calls;
      await fetcher.run(() => lazy.getPublicStorageAt('latest', slot));
      expect(fetcher.calls).toBe(calls);
      expect(log.length).toBe(calls);
    });
  }

  it('a read of what was not fetched throws instead of answering, and a forged witness is refused', async () => {
    const rng = new Rng(3);
    const { up, slots } = upstreamWith(rng, 3);
    const n = up.latestBlockNumber;
    const lazy = WorldState.openSparse(openNodeDatabase(null), baseOf(up, n));
    expect(() => lazy.getPublicStorageAt('latest', slots[0] as bigint)).toThrow(UpstreamStateNeededError);
    expect(() => lazy.getSiblingPath('latest', MerkleTreeId.NOTE_HASH_TREE, 0n)).toThrow(UpstreamStateNeededError);
    // Appending without the frontier cannot make a root either.
    const fork = lazy.fork();
    fork.appendNoteHashes([rng.field()]);
    expect(() => fork.getStateReference()).toThrow(UpstreamStateNeededError);
    fork.close();
    // A witness of another state (the upstream's block before) does not prove the root at N.
    const stale = up.getPublicDataWitness(n - 1, slots[0] as bigint);
    expect(() =>
      lazy.addUpstreamPath({
        tree: MerkleTreeId.PUBLIC_DATA_TREE,
        index: Number(stale?.index),
        preimage: {
          key: Buffer.from((stale?.leafPreimage.key ?? 0n).toString(16).padStart(64, '0'), 'hex'),
          value: Buffer.from((stale?.leafPreimage.value ?? 0n).toString(16).padStart(64, '0'), 'hex'),
          nextKey: Buffer.from((stale?.leafPreimage.nextKey ?? 0n).toString(16).padStart(64, '0'), 'hex'),
          nextIndex: Number(stale?.leafPreimage.nextIndex),
        },
        siblingPath: stale?.siblingPath.nodes ?? [],
      }),
    ).toThrow(UpstreamWitnessRejectedError);
    // An upstream that fails is named in a clear error.
    const refused = () => Promise.reject(new Error('connection refused'));
    const broken = new UpstreamStateFetcher(lazy, {
      url: 'http://127.0.0.1:9',
      lowLeaf: refused,
      findLeaves: refused,
      witness: refused,
      blockHash: refused,
      blockEffects: refused,
    });
    const failed = broken.run(() => lazy.getPublicStorageAt('latest', slots[0] as bigint));
    await expect(failed).rejects.toThrow(UpstreamStateUnavailableError);
    await expect(failed).rejects.toThrow(/http:\/\/127\.0\.0\.1:9 did not give the low leaf .* connection refused/);
    // Below the fork's block nothing is held: unwinding there is refused.
    expect(() => lazy.unwindBlocks(n - 1, { force: true })).toThrow(/lazy fork/);
  });

  it('an upstream whose L1-to-L2 message tree holds messages is refused with a clear error', async () => {
    // No node serves that tree's paths, so the empty path is all there is.
    const { up, source } = upstreamWith(new Rng(5), 2, true);
    const lazy = WorldState.openSparse(openNodeDatabase(null), baseOf(up, 2));
    const fetcher = new UpstreamStateFetcher(lazy, source());
    await expect(fetcher.fetchFrontiers()).rejects.toThrow(
      /cannot fork in-process upstream lazily: its L1-to-L2 message tree holds messages/,
    );
  });

  it('a database holding a lazy fork reopens as one, and refuses another fork block', async () => {
    const rng = new Rng(4);
    const { up, source } = upstreamWith(rng, 2);
    const db = openNodeDatabase(null);
    const base = baseOf(up, 2);
    const lazy = WorldState.openSparse(db, base);
    await new UpstreamStateFetcher(lazy, source()).fetchFrontiers();
    expect(WorldState.open(db).sparseBlock).toBe(2);
    expect(WorldState.openSparse(db, base).getStateReference().equals(up.getStateReference(2))).toBe(true);
    expect(() => WorldState.openSparse(db, baseOf(up, 1))).toThrow(/lazy fork at block 2, not 1/);
    const { db: plain } = openWorldState();
    expect(() => WorldState.openSparse(plain, base)).toThrow(/chain of its own/);
  });
});
