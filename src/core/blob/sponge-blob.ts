import { BLOBS_PER_CHECKPOINT, FIELDS_PER_BLOB } from '../constants.js';
import { poseidon2Permutation } from '../crypto/poseidon2.js';
import { FR_MODULUS } from '../fr.js';

/** Fields a checkpoint's blobs hold. */
export const MAX_BLOB_FIELDS_PER_CHECKPOINT = BLOBS_PER_CHECKPOINT * FIELDS_PER_BLOB;

const RATE = 3;

/**
 * The Poseidon2 sponge that absorbs a checkpoint's blob fields (4.1.2 @aztec/blob-lib SpongeBlob, after noir's
 * stdlib sponge): rate 3, the capacity lane starts at MAX_FIELDS * 2^64, fields are cached three at a time and
 * added into the state before each permutation. A block header's spongeBlobHash is a squeeze of a copy of the
 * checkpoint's sponge after that block's fields; the checkpoint's sponge itself keeps absorbing.
 */
export class SpongeBlob {
  private constructor(
    private state: bigint[],
    private cache: bigint[],
    private absorbed: number,
  ) {}

  /** A sponge for a new checkpoint. */
  static init(): SpongeBlob {
    return new SpongeBlob([0n, 0n, 0n, BigInt(MAX_BLOB_FIELDS_PER_CHECKPOINT) << 64n], [], 0);
  }

  /** Fields absorbed so far. */
  get numAbsorbedFields(): number {
    return this.absorbed;
  }

  clone(): SpongeBlob {
    return new SpongeBlob([...this.state], [...this.cache], this.absorbed);
  }

  absorb(fields: readonly bigint[]): void {
    if (this.absorbed + fields.length > MAX_BLOB_FIELDS_PER_CHECKPOINT) {
      throw new RangeError(
        `A checkpoint's blobs hold ${MAX_BLOB_FIELDS_PER_CHECKPOINT} fields; ${this.absorbed} are used and ${fields.length} more do not fit`,
      );
    }
    for (const f of fields) {
      if (this.cache.length === RATE) {
        this.duplex();
        this.cache = [f];
      } else {
        this.cache.push(f);
      }
    }
    this.absorbed += fields.length;
  }

  /** The hash of everything absorbed so far; the sponge itself is left as it was. */
  squeeze(): bigint {
    const copy = this.clone();
    copy.duplex();
    return copy.state[0] as bigint;
  }

  private duplex(): void {
    const s = this.state;
    for (let i = 0; i < this.cache.length; i++) s[i] = ((s[i] as bigint) + (this.cache[i] as bigint)) % FR_MODULUS;
    this.state = poseidon2Permutation(s);
  }
}
