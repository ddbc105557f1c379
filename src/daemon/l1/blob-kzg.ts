import type { Kzg } from 'viem';
import { blobsHashOf, kzgVersionedHash } from '../../core/blob/blob-hashes.js';
import { MAX_BLOB_FIELDS_PER_CHECKPOINT } from '../../core/blob/sponge-blob.js';
import { FIELDS_PER_BLOB } from '../../core/constants.js';
import { FR_MODULUS } from '../../core/fr.js';
import { bigIntToBuffer32, writeField32 } from '../../core/serialize/field-bytes.js';
import {
  type BlobOpening,
  type CommittedCheckpoint,
  checkEpochCheckpointCount,
  combineEpochOpenings,
  type EpochBlobBatch,
  epochChallenge,
} from './epoch-blob-batch.js';
import { KzgThread } from './kzg-thread.js';

/** EIP-4844 sizes: a blob is 4096 words of 32 bytes; commitments and proofs are compressed BLS12-381 G1 points. */
export const BYTES_PER_BLOB = FIELDS_PER_BLOB * 32;
export const BYTES_PER_COMMITMENT = 48;
/** The point-evaluation precompile's input: versionedHash ‖ z ‖ y ‖ commitment ‖ proof. */
export const BYTES_PER_POINT_EVALUATION_INPUT = 32 + 32 + 32 + BYTES_PER_COMMITMENT + BYTES_PER_COMMITMENT;

/** What L1 needs to see of one checkpoint's blob payload (the blob tx's sidecar and `propose`'s arguments). */
export interface CheckpointBlobs {
  /** 131072 bytes each: 4096 fields as 32-byte big-endian words, the last blob zero padded. */
  readonly blobs: readonly Uint8Array[];
  /** The 48-byte KZG commitment of each blob. */
  readonly commitments: readonly Uint8Array[];
  /** sha256(commitment) with byte 0 = 0x01: what `blobhash(i)` returns on L1. */
  readonly versionedHashes: readonly `0x${string}`[];
  /** sha256ToField of the versioned hashes: the checkpoint header's `blobsHash`. */
  readonly blobsHash: bigint;
  /** `propose`'s `_blobInput`: one byte blob count, then the commitments in blob order. */
  readonly blobInput: `0x${string}`;
}

function hex(bytes: Uint8Array): `0x${string}` {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

/** Checks a checkpoint's blob payload the way 4.1.2 would fail on it, with a message naming what is wrong. */
function checkBlobFields(fields: readonly bigint[]): void {
  if (fields.length === 0) throw new RangeError('A checkpoint blob payload needs at least one field (its end marker)');
  if (fields.length > MAX_BLOB_FIELDS_PER_CHECKPOINT) {
    throw new RangeError(
      `A checkpoint's blobs hold at most ${MAX_BLOB_FIELDS_PER_CHECKPOINT} fields; the payload has ${fields.length}`,
    );
  }
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (typeof f !== 'bigint' || f < 0n || f >= FR_MODULUS) {
      throw new RangeError(`Blob field ${i} is not a BN254 field element: ${String(f)}`);
    }
  }
}

/** The payload as blobs: 4096 fields per blob as 32-byte big-endian words, the last blob zero padded. */
function blobsOf(fields: readonly bigint[]): Uint8Array[] {
  checkBlobFields(fields);
  const blobs: Uint8Array[] = [];
  for (let start = 0; start < fields.length; start += FIELDS_PER_BLOB) {
    const blob = new Uint8Array(BYTES_PER_BLOB);
    const view = new DataView(blob.buffer);
    const end = Math.min(start + FIELDS_PER_BLOB, fields.length);
    for (let i = start; i < end; i++) writeField32(view, (i - start) * 32, fields[i] as bigint);
    blobs.push(blob);
  }
  return blobs;
}

/** Everything L1 sees of the blobs, from the blobs and their commitments. */
function publishedForm(blobs: Uint8Array[], commitments: Uint8Array[]): CheckpointBlobs {
  const versioned = commitments.map(kzgVersionedHash);
  const blobInput = new Uint8Array(1 + commitments.length * BYTES_PER_COMMITMENT);
  blobInput[0] = commitments.length;
  commitments.forEach((c, i) => {
    blobInput.set(c, 1 + i * BYTES_PER_COMMITMENT);
  });
  return {
    blobs,
    commitments,
    versionedHashes: versioned.map(hex),
    blobsHash: blobsHashOf(versioned),
    blobInput: hex(blobInput),
  };
}

/** node-eth-kzg's computeKzgProof answer, [proof, y], as an opening. */
function openingOf([proof, y]: Uint8Array[]): BlobOpening {
  if (proof === undefined || y === undefined) throw new Error('node-eth-kzg computeKzgProof returned no proof');
  return { y: BigInt(hex(y)), proof };
}

/** The error of a bad payload, naming which checkpoint of the epoch it is in. */
function inCheckpoint(n: number, err: unknown): RangeError {
  return new RangeError(`Checkpoint ${n} of the epoch batch: ${(err as Error).message}`);
}

/** The payloads beside their commitments, as epochChallenge takes them. */
function withFields(checkpoints: readonly (readonly bigint[])[], published: readonly CheckpointBlobs[]) {
  return checkpoints.map(
    (fields, n): CommittedCheckpoint => ({
      fields,
      commitments: (published[n] as CheckpointBlobs).commitments,
    }),
  );
}

/**
 * Blobs and KZG for checkpoints published to L1, bit-exact with Aztec 4.1.2's @aztec/blob-lib. The KZG backend is
 * @crate-crypto/node-eth-kzg, as 4.1.2 uses it, with the Ethereum mainnet trusted setup it embeds, on a thread of
 * its own (kzg-thread.ts): its set-up never runs on the event loop.
 */
export class BlobKzg {
  private constructor(private readonly kzg: KzgThread) {}

  /** A BlobKzg whose thread starts at its first use or at `start()`: creating it costs nothing. */
  static create(): BlobKzg {
    return new BlobKzg(new KzgThread());
  }

  /**
   * Builds the KZG set-up now, on its thread (about 1.2 s of CPU there); resolves to the ms it took. Synchronous
   * calls made before it is built wait for it, so a node starts it as soon as it serves.
   */
  start(): Promise<number> {
    return this.kzg.start();
  }

  /** Ends the KZG thread. */
  close(): Promise<void> {
    return this.kzg.close();
  }

  private commitment(blob: Uint8Array): Uint8Array {
    return this.kzg.callSync('blobToKzgCommitment', [blob]) as Uint8Array;
  }

  /**
   * Splits a checkpoint's whole blob payload (end marker included) into blobs of 4096 fields and commits to each.
   * About 40 ms of CPU per blob (one KZG commitment, a 4096-point multi-scalar multiplication), which this thread
   * waits for; checkpointBlobsAsync does not wait.
   */
  checkpointBlobs(fields: readonly bigint[]): CheckpointBlobs {
    const blobs = blobsOf(fields);
    return publishedForm(
      blobs,
      blobs.map((b) => this.commitment(b)),
    );
  }

  /** checkpointBlobs without waiting for the KZG thread. */
  async checkpointBlobsAsync(fields: readonly bigint[]): Promise<CheckpointBlobs> {
    const blobs = blobsOf(fields);
    const commitments: Uint8Array[] = [];
    for (const b of blobs) commitments.push((await this.kzg.call('blobToKzgCommitment', [b])) as Uint8Array);
    return publishedForm(blobs, commitments);
  }

  /**
   * The KZG viem needs to send a blob tx (`kzg` of sendTransaction / prepareTransactionRequest). viem 2.57.1
   * builds EIP-4844 sidecars (blob, commitment, blob proof) and asks for nothing else; anvil 1.7.1 accepts them
   * on its default Osaka-era hardfork. With `known` (the checkpoint's blobs as checkpointBlobs made them), viem
   * gets their commitments back instead of having them computed again (viem passes the same blob arrays).
   */
  viemKzg(known?: CheckpointBlobs, proofs?: readonly Uint8Array[]): Kzg {
    const computed = new Map(known?.blobs.map((b, i) => [b, known.commitments[i] as Uint8Array]));
    const proven = new Map(proofs && known?.blobs.map((b, i) => [b, proofs[i] as Uint8Array]));
    return {
      blobToKzgCommitment: (blob) => computed.get(blob) ?? this.commitment(blob),
      computeBlobKzgProof: (blob, commitment) =>
        proven.get(blob) ?? (this.kzg.callSync('computeBlobKzgProof', [blob, commitment]) as Uint8Array),
    };
  }

  /**
   * The EIP-4844 blob proof of each of a checkpoint's blobs (what viemKzg's computeBlobKzgProof answers), on the
   * KZG thread without waiting for it: a proposal has them ready instead of blocking on them while it is sent.
   */
  async blobProofsAsync(known: CheckpointBlobs): Promise<Uint8Array[]> {
    const proofs: Uint8Array[] = [];
    for (const [i, b] of known.blobs.entries()) {
      proofs.push((await this.kzg.call('computeBlobKzgProof', [b, known.commitments[i]])) as Uint8Array);
    }
    return proofs;
  }

  /**
   * Opens a blob at `z` (a BN254 field element, so also a valid BLS12-381 scalar): y = p(z) as a BLS12-381
   * scalar and the 48-byte KZG proof (the commitment to the quotient (p(X) - y) / (X - z)).
   */
  openBlob(blob: Uint8Array, z: bigint): BlobOpening {
    return openingOf(this.kzg.callSync('computeKzgProof', [blob, bigIntToBuffer32(z)]) as Uint8Array[]);
  }

  /** openBlob without waiting for the KZG thread. */
  async openBlobAsync(blob: Uint8Array, z: bigint): Promise<BlobOpening> {
    return openingOf((await this.kzg.call('computeKzgProof', [blob, bigIntToBuffer32(z)])) as Uint8Array[]);
  }

  /**
   * The check L1's point-evaluation precompile (0x0a) makes on 192 bytes of input: the versioned hash matches the
   * commitment and the KZG proof opens the commitment at z to y. Lets a publisher refuse to send an epoch proof
   * L1 would revert.
   */
  verifyPointEvaluation(input: `0x${string}` | Uint8Array): boolean {
    const bytes = typeof input === 'string' ? Buffer.from(input.slice(2), 'hex') : input;
    if (bytes.length !== BYTES_PER_POINT_EVALUATION_INPUT) return false;
    const commitment = bytes.subarray(96, 144);
    if (!Buffer.from(kzgVersionedHash(commitment)).equals(bytes.subarray(0, 32))) return false;
    try {
      return this.kzg.callSync('verifyKzgProof', [
        commitment,
        bytes.subarray(32, 64),
        bytes.subarray(64, 96),
        bytes.subarray(144),
      ]) as boolean;
    } catch {
      // Not a point on the curve, or a scalar above the BLS12-381 modulus: the precompile fails the same way.
      return false;
    }
  }

  /**
   * The epoch's blobs batched into one KZG opening, as 4.1.2's BatchedBlob computes it (see epoch-blob-batch.ts).
   * `checkpoints` holds each checkpoint's whole blob payload, in checkpoint order. About 80 ms of CPU per blob,
   * which this thread waits for; epochBlobBatchAsync does not wait.
   */
  epochBlobBatch(checkpoints: readonly (readonly bigint[])[]): EpochBlobBatch {
    checkEpochCheckpointCount(checkpoints.length);
    const published = checkpoints.map((fields, n) => {
      try {
        return this.checkpointBlobs(fields);
      } catch (err) {
        throw inCheckpoint(n, err);
      }
    });
    const z = epochChallenge(withFields(checkpoints, published));
    const openings = published.flatMap((p) => p.blobs).map((b) => this.openBlob(b, z));
    return combineEpochOpenings(
      z,
      published.flatMap((p) => p.commitments),
      openings,
    );
  }

  /**
   * epochBlobBatch without waiting for the KZG thread: its work goes there blob by blob, so other KZG calls (a
   * proposal's) are not held behind the whole batch.
   */
  async epochBlobBatchAsync(checkpoints: readonly (readonly bigint[])[]): Promise<EpochBlobBatch> {
    checkEpochCheckpointCount(checkpoints.length);
    const published: CheckpointBlobs[] = [];
    for (const [n, fields] of checkpoints.entries()) {
      try {
        published.push(await this.checkpointBlobsAsync(fields));
      } catch (err) {
        throw inCheckpoint(n, err);
      }
    }
    const z = epochChallenge(withFields(checkpoints, published));
    const openings: BlobOpening[] = [];
    for (const b of published.flatMap((p) => p.blobs)) openings.push(await this.openBlobAsync(b, z));
    return combineEpochOpenings(
      z,
      published.flatMap((p) => p.commitments),
      openings,
    );
  }

  /** `submitEpochRootProof`'s 192-byte `blobInputs`: versionedHash(C) ‖ z ‖ y ‖ C ‖ Q of the epoch's batch. */
  epochBlobInputs(checkpoints: readonly (readonly bigint[])[]): `0x${string}` {
    return this.epochBlobBatch(checkpoints).blobInputs;
  }
}
