import { createHash } from 'node:crypto';
import {
  BatchedBlobAccumulator,
  computeBlobsHashFromBlobs,
  getBlobsPerL1Block,
  getEthBlobEvaluationInputs,
  getPrefixedEthBlobCommitments,
} from '@aztec/blob-lib';
import { encodeCheckpointBlobData, makeCheckpointBlobData } from '@aztec/blob-lib/encoding';
import { Fr as AztecFr } from '@aztec/foundation/curves/bn254';
import { DasContextJs } from '@crate-crypto/node-eth-kzg';
import { blobsToCommitments, blobsToProofs } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkpointEndMarker } from '../../../../src/core/blob/blob-fields.js';
import { FR_MODULUS } from '../../../../src/core/fr.js';
import { BlobKzg } from '../../../../src/daemon/l1/blob-kzg.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';
import { scaled } from '../../../helpers/until.js';

// Each KZG context (ours, and the one @aztec/blob-lib builds lazily) takes a few seconds to create: one per file.
// `verifier` is a second, plain node-eth-kzg context that checks our output independently of BlobKzg.
let kzg: BlobKzg;
let verifier: DasContextJs;
beforeAll(async () => {
  await initAztecOracle();
  kzg = BlobKzg.create();
  await kzg.start();
  verifier = DasContextJs.create({ usePrecomp: false });
}, scaled(60_000));

/** Deterministic field elements: sha256(label, i) reduced into the BN254 field. */
function fields(label: string, n: number): bigint[] {
  return Array.from({ length: n }, (_, i) => {
    const digest = createHash('sha256').update(`${label}:${i}`).digest('hex');
    return BigInt(`0x${digest}`) % FR_MODULUS;
  });
}

/** A payload that ends with a checkpoint end marker counting every field, as a real checkpoint's does. */
function payload(label: string, n: number): bigint[] {
  return [...fields(label, n - 1), checkpointEndMarker(n)];
}

const emptyCheckpoint = (): bigint[] =>
  encodeCheckpointBlobData(makeCheckpointBlobData({ numBlocks: 1, numTxsPerBlock: 0 })).map((f) => f.toBigInt());

const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;

describe('BlobKzg.checkpointBlobs against @aztec/blob-lib 4.1.2', () => {
  const cases: [string, () => bigint[], number][] = [
    ['an empty checkpoint (one block, no txs)', emptyCheckpoint, 1],
    ['300 random fields', () => payload('random', 300), 1],
    ['exactly 4096 fields (one full blob)', () => payload('full', 4096), 1],
    ['5000 fields (two blobs)', () => payload('two', 5000), 2],
  ];
  for (const [name, make, numBlobs] of cases) {
    it(`${name}: blobs, commitments, versioned hashes, blobsHash and blobInput are 4.1.2's`, async () => {
      const input = make();
      const ours = kzg.checkpointBlobs(input);
      const theirs = await getBlobsPerL1Block(input.map((f) => new AztecFr(f)));

      expect(ours.blobs).toHaveLength(numBlobs);
      expect(theirs).toHaveLength(numBlobs);
      expect(ours.blobs.map(hex)).toEqual(theirs.map((b) => hex(b.data)));
      for (const b of ours.blobs) expect(b.length).toBe(131072);
      expect(ours.commitments.map(hex)).toEqual(theirs.map((b) => hex(b.commitment)));
      expect(ours.versionedHashes).toEqual(theirs.map((b) => hex(b.getEthVersionedBlobHash())));
      expect(ours.blobsHash).toBe(computeBlobsHashFromBlobs(theirs).toBigInt());
      expect(ours.blobInput).toBe(getPrefixedEthBlobCommitments(theirs));
      // The variant that commits off the event loop gives the same.
      expect(await kzg.checkpointBlobsAsync(input)).toEqual(ours);
    });
  }

  it('refuses a payload L1 could not carry, naming what is wrong', () => {
    expect(() => kzg.checkpointBlobs([])).toThrow(/at least one field/);
    expect(() => kzg.checkpointBlobs([1n, FR_MODULUS])).toThrow(/Blob field 1 is not a BN254 field element/);
    expect(() => kzg.checkpointBlobs([-1n])).toThrow(/Blob field 0/);
    expect(() => kzg.checkpointBlobs(new Array<bigint>(6 * 4096 + 1).fill(1n))).toThrow(/at most 24576 fields/);
  });
});

describe('BlobKzg.viemKzg', () => {
  it('gives viem the same commitments and blob proofs that verify against them (the sidecar anvil checks)', () => {
    const { blobs, commitments } = kzg.checkpointBlobs(payload('viem', 5000));
    const viemCommitments = blobsToCommitments({ blobs: [...blobs], kzg: kzg.viemKzg() });
    expect(viemCommitments.map(hex)).toEqual(commitments.map(hex));
    const proofs = blobsToProofs({ blobs: [...blobs], commitments: viemCommitments, kzg: kzg.viemKzg() });
    expect(verifier.verifyBlobKzgProofBatch([...blobs], [...commitments], proofs)).toBe(true);
  });

  it("hands viem back the commitments of the checkpoint's own blobs instead of computing them again", () => {
    const known = kzg.checkpointBlobs(payload('known', 5000));
    const marked = { ...known, commitments: known.commitments.map(() => new Uint8Array(48).fill(7)) };
    const other = kzg.checkpointBlobs(payload('other', 100));
    const viemCommitments = blobsToCommitments({ blobs: [...known.blobs, ...other.blobs], kzg: kzg.viemKzg(marked) });
    // The known blobs' come from `marked` (as given), another blob's is computed.
    expect(viemCommitments.map(hex)).toEqual([...marked.commitments, ...other.commitments].map(hex));
  });

  it('computes the blob proofs off the calling thread, and hands viem those of the known blobs', async () => {
    const known = kzg.checkpointBlobs(payload('proofs', 5000));
    const proofs = await kzg.blobProofsAsync(known);
    expect(verifier.verifyBlobKzgProofBatch([...known.blobs], [...known.commitments], proofs)).toBe(true);
    const marked = proofs.map(() => new Uint8Array(48).fill(9));
    const other = kzg.checkpointBlobs(payload('other proofs', 100));
    const blobs = [...known.blobs, ...other.blobs];
    const viemProofs = blobsToProofs({
      blobs,
      commitments: [...known.commitments, ...other.commitments],
      kzg: kzg.viemKzg(known, marked),
    });
    // The known blobs' proofs come from `marked` (as given), another blob's is computed.
    expect(viemProofs.map(hex)).toEqual(
      [
        ...marked,
        ...blobsToProofs({ blobs: [...other.blobs], commitments: [...other.commitments], kzg: kzg.viemKzg() }),
      ].map(hex),
    );
  });
});

describe('BlobKzg.epochBlobInputs against 4.1.2 BatchedBlob', () => {
  async function oracle(checkpoints: bigint[][]) {
    const batched = await BatchedBlobAccumulator.batch(checkpoints.map((cp) => cp.map((f) => new AztecFr(f))));
    return { batched, inputs: getEthBlobEvaluationInputs(batched) };
  }

  it("one checkpoint: the 192 bytes, the final blobCommitmentsHash, z and y are 4.1.2's", async () => {
    const epoch = [payload('epoch1', 700)];
    const ours = kzg.epochBlobBatch(epoch);
    const { batched, inputs } = await oracle(epoch);
    expect(ours.blobInputs).toBe(inputs);
    expect(kzg.epochBlobInputs(epoch)).toBe(inputs);
    expect((ours.blobInputs.length - 2) / 2).toBe(192);
    expect(ours.blobCommitmentsHash).toBe(batched.blobCommitmentsHash.toBigInt());
    expect(ours.z).toBe(batched.z.toBigInt());
    expect(ours.y).toBe(batched.y.toBigInt());
  });

  it("three checkpoints (one of two blobs, one empty): equal to 4.1.2's, and L1's point evaluation accepts them", async () => {
    const epoch = [payload('epoch3-a', 5000), emptyCheckpoint(), payload('epoch3-c', 40)];
    const ours = kzg.epochBlobBatch(epoch);
    const { batched, inputs } = await oracle(epoch);
    expect(ours.blobInputs).toBe(inputs);
    expect(await kzg.epochBlobBatchAsync(epoch)).toEqual(ours);
    expect(ours.blobCommitmentsHash).toBe(batched.blobCommitmentsHash.toBigInt());
    expect(hex(ours.commitment)).toBe(hex(batched.commitment.compress()));
    expect(hex(ours.proof)).toBe(hex(batched.q.compress()));

    // What the point-evaluation precompile checks, done with node-eth-kzg itself.
    const bytes = Buffer.from(ours.blobInputs.slice(2), 'hex');
    const c = bytes.subarray(96, 144);
    const versioned = createHash('sha256').update(c).digest();
    versioned[0] = 1;
    expect(hex(bytes.subarray(0, 32))).toBe(hex(versioned));
    expect(verifier.verifyKzgProof(c, bytes.subarray(32, 64), bytes.subarray(64, 96), bytes.subarray(144))).toBe(true);
    expect(kzg.verifyPointEvaluation(ours.blobInputs)).toBe(true);

    // A wrong y fails both.
    const tampered = Buffer.from(bytes);
    tampered[95] = (tampered[95] as number) ^ 1;
    expect(
      verifier.verifyKzgProof(c, tampered.subarray(32, 64), tampered.subarray(64, 96), tampered.subarray(144)),
    ).toBe(false);
    expect(kzg.verifyPointEvaluation(tampered)).toBe(false);
  });

  it("a blob of zeros (its commitment is the point at infinity) batches as 4.1.2's does", async () => {
    const epoch = [[...new Array<bigint>(4096).fill(0n), 5n], [7n]];
    expect(kzg.checkpointBlobs(epoch[0] as bigint[]).blobInput.slice(0, 6)).toBe('0x02c0');
    const ours = kzg.epochBlobInputs(epoch);
    expect(ours).toBe((await oracle(epoch)).inputs);
    expect(kzg.verifyPointEvaluation(ours)).toBe(true);
  });

  it('refuses an epoch with no checkpoint, too many, or a bad payload, naming the checkpoint', async () => {
    expect(() => kzg.epochBlobInputs([])).toThrow(/at least one checkpoint/);
    expect(() => kzg.epochBlobInputs(Array.from({ length: 33 }, () => [1n]))).toThrow(/at most 32 checkpoints/);
    expect(() => kzg.epochBlobInputs([[1n], []])).toThrow(/Checkpoint 1 of the epoch batch: .*at least one field/);
    await expect(kzg.epochBlobBatchAsync([[1n], [1n, FR_MODULUS]])).rejects.toThrow(
      /Checkpoint 1 of the epoch batch: Blob field 1 is not a BN254 field element/,
    );
    await expect(kzg.epochBlobBatchAsync([])).rejects.toThrow(/at least one checkpoint/);
  });
});

describe('BlobKzg on its own thread', () => {
  it('builds its set-up off the event loop: timers fire while it is built', async () => {
    const other = BlobKzg.create();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      await other.start();
    } finally {
      clearInterval(timer);
      await other.close();
    }
    expect(ticks).toBeGreaterThan(0);
  });

  it('answers the same without waiting as when waited for, and a clear error once closed', async () => {
    const fields300 = payload('thread', 300);
    const waited = kzg.checkpointBlobs(fields300);
    expect((await kzg.checkpointBlobsAsync(fields300)).commitments.map(hex)).toEqual(waited.commitments.map(hex));
    const closed = BlobKzg.create();
    await closed.close();
    expect(() => closed.checkpointBlobs(fields300)).toThrow(/the KZG thread is closed/);
    await expect(closed.checkpointBlobsAsync(fields300)).rejects.toThrow(/the KZG thread is closed/);
  });
});
