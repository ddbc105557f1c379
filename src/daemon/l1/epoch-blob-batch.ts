import { createRequire } from 'node:module';
import { kzgVersionedHash } from '../../core/blob/blob-hashes.js';
import { SpongeBlob } from '../../core/blob/sponge-blob.js';
import { MAX_CHECKPOINTS_PER_EPOCH } from '../../core/constants.js';
import { poseidon2Hash } from '../../core/crypto/poseidon2.js';
import { sha256ToField } from '../../core/crypto/sha256-to-field.js';
import { bigIntToBuffer32, bytesToBigInt } from '../../core/serialize/field-bytes.js';

/**
 * All blobs of an epoch opened at one point with one KZG proof, as the root rollup proves it and L1 checks it
 * (4.1.2 @aztec/blob-lib BatchedBlobAccumulator / BatchedBlob, after the circuits' blob_accumulator.nr):
 *  - z_i = poseidon2(blobFieldsHash, C_i split into 31 + 17 bytes), blobFieldsHash being the blob sponge over the
 *    checkpoint's whole payload; z = z_0, then z = poseidon2(z, z_i) for each further blob of the epoch;
 *  - every blob is opened at z: y_i = p_i(z) and its proof Q_i;
 *  - gamma = poseidon2(poseidon2(...poseidon2(h(y_0), h(y_1))..., h(y_n)), z), h hashing y_i's three 120-bit limbs;
 *  - y = sum gamma^i y_i, C = sum gamma^i C_i, Q = sum gamma^i Q_i over BLS12-381.
 * Because KZG commitments and proofs are linear, (C, z, y, Q) is a valid opening of the combined polynomial.
 */
export interface EpochBlobBatch {
  /** sha256ToField(C_0), then sha256ToField(previous ‖ C_i) per further blob: what L1 accumulates at propose. */
  readonly blobCommitmentsHash: bigint;
  /** The shared challenge (a BN254 field element). */
  readonly z: bigint;
  /** The linear-combination challenge (a BN254 field element used as a BLS12-381 scalar). */
  readonly gamma: bigint;
  /** The batched evaluation (a BLS12-381 scalar). */
  readonly y: bigint;
  /** The batched commitment C, 48 bytes compressed. */
  readonly commitment: Uint8Array;
  /** The batched proof Q, 48 bytes compressed. */
  readonly proof: Uint8Array;
  /** `submitEpochRootProof`'s blobInputs: versionedHash(C) ‖ z ‖ y ‖ C ‖ Q (192 bytes). */
  readonly blobInputs: `0x${string}`;
}

/** One checkpoint of the epoch: its whole blob payload and the commitments of its blobs, in blob order. */
export interface CommittedCheckpoint {
  readonly fields: readonly bigint[];
  readonly commitments: readonly Uint8Array[];
}

/** A blob opened at z: y = p(z) (a BLS12-381 scalar) and the 48-byte KZG proof. */
export interface BlobOpening {
  readonly y: bigint;
  readonly proof: Uint8Array;
}

type Bls12381 = typeof import('@noble/curves/bls12-381').bls12_381;
let bls: Bls12381 | undefined;

/**
 * noble's BLS12-381, loaded at the first epoch batch (its module takes 0.2 s to load, a second on a busy machine):
 * a node needs it only to prove an epoch, not to start. Through require, so that a synchronous caller can load it.
 */
function bls12381(): Bls12381 {
  bls ??= (createRequire(import.meta.url)('@noble/curves/bls12-381') as { bls12_381: Bls12381 }).bls12_381;
  return bls;
}
const LIMB_MASK = (1n << 120n) - 1n;

/** A BLS12-381 scalar hashed as its noir bignum limbs (120 bits each, least significant first). */
function hashScalarLimbs(v: bigint): bigint {
  return poseidon2Hash([v & LIMB_MASK, (v >> 120n) & LIMB_MASK, v >> 240n]);
}

/** A commitment as the two fields the circuits absorb: its first 31 bytes and its last 17. */
function commitmentFields(commitment: Uint8Array): [bigint, bigint] {
  return [bytesToBigInt(commitment, 0, 31), bytesToBigInt(commitment, 31, 17)];
}

function blobFieldsHash(fields: readonly bigint[]): bigint {
  const sponge = SpongeBlob.init();
  sponge.absorb(fields);
  return sponge.squeeze();
}

/** Refuses an epoch the root rollup could not prove. */
export function checkEpochCheckpointCount(count: number): void {
  if (count === 0) throw new RangeError('An epoch blob batch needs at least one checkpoint');
  if (count > MAX_CHECKPOINTS_PER_EPOCH) {
    throw new RangeError(`An epoch proof covers at most ${MAX_CHECKPOINTS_PER_EPOCH} checkpoints; ${count} were given`);
  }
}

/**
 * The shared challenge z of an epoch's blobs. Every blob is then opened at z (the KZG work, left to the caller so
 * it can run synchronously or on the KZG library's worker threads) and the openings go to combineEpochOpenings.
 */
export function epochChallenge(checkpoints: readonly CommittedCheckpoint[]): bigint {
  checkEpochCheckpointCount(checkpoints.length);
  let z: bigint | undefined;
  for (const { fields, commitments } of checkpoints) {
    const fieldsHash = blobFieldsHash(fields);
    for (const c of commitments) {
      const zi = poseidon2Hash([fieldsHash, ...commitmentFields(c)]);
      z = z === undefined ? zi : poseidon2Hash([z, zi]);
    }
  }
  if (z === undefined) throw new RangeError('An epoch blob batch needs at least one blob');
  return z;
}

/**
 * The batch from every blob's commitment and its opening at z = epochChallenge(...), both in epoch order
 * (checkpoint by checkpoint, blob by blob).
 */
export function combineEpochOpenings(
  z: bigint,
  commitments: readonly Uint8Array[],
  openings: readonly BlobOpening[],
): EpochBlobBatch {
  if (commitments.length === 0 || commitments.length !== openings.length) {
    throw new RangeError(`Epoch blob batch: ${commitments.length} commitments but ${openings.length} openings`);
  }
  let gamma: bigint | undefined;
  for (const { y } of openings) {
    gamma = gamma === undefined ? hashScalarLimbs(y) : poseidon2Hash([gamma, hashScalarLimbs(y)]);
  }
  gamma = poseidon2Hash([gamma as bigint, z]);

  let commitmentsHash = 0n;
  let y = 0n;
  const { fields, G1: g1 } = bls12381();
  const BLS_R = fields.Fr.ORDER;
  const G1 = g1.ProjectivePoint;
  let c = G1.ZERO;
  let q = G1.ZERO;
  let gammaPow = 1n;
  openings.forEach((opening, i) => {
    const ci = commitments[i] as Uint8Array;
    commitmentsHash = i === 0 ? sha256ToField(ci) : sha256ToField([bigIntToBuffer32(commitmentsHash), ci]);
    y = (y + opening.y * gammaPow) % BLS_R;
    // multiplyUnsafe: nothing here is secret, so the variable-time multiplication is fine (and it accepts 0).
    c = c.add(G1.fromHex(ci).multiplyUnsafe(gammaPow));
    q = q.add(G1.fromHex(opening.proof).multiplyUnsafe(gammaPow));
    gammaPow = (gammaPow * gamma) % BLS_R;
  });

  const commitment = c.toRawBytes(true);
  const proof = q.toRawBytes(true);
  const inputs = Buffer.concat([
    kzgVersionedHash(commitment),
    bigIntToBuffer32(z),
    bigIntToBuffer32(y),
    commitment,
    proof,
  ]);
  return {
    blobCommitmentsHash: commitmentsHash,
    z,
    gamma,
    y,
    commitment,
    proof,
    blobInputs: `0x${inputs.toString('hex')}`,
  };
}
