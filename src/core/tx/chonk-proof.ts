import { CHONK_PROOF_LENGTH } from '../constants.js';
import { FR_MODULUS } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { DecodeError } from '../serialize/decode-error.js';
import { readField32 } from '../serialize/field-bytes.js';

/** First byte of the field modulus: a 32-byte word starting lower is below it without a bigint compare. */
const MODULUS_TOP_BYTE = Number(FR_MODULUS >> 248n);

/**
 * The client-side proof of a tx: a u32 count (always 1,935) then 1,935 fields, 61,924 bytes. The node runs
 * with fake proofs and never looks inside, so it is kept as its exact bytes; decoding checks the count
 * and that every word is a field element, as 4.1.2 does.
 */
export class ChonkProof {
  static readonly SIZE_IN_BYTES = 4 + CHONK_PROOF_LENGTH * 32;

  private constructor(readonly bytes: Buffer) {}

  /** The all-zero proof the tx builder attaches (valid with fake proofs). */
  static empty(): ChonkProof {
    const b = Buffer.alloc(ChonkProof.SIZE_IN_BYTES);
    b.writeUInt32BE(CHONK_PROOF_LENGTH, 0);
    return new ChonkProof(b);
  }

  /** Checks a serialised proof and wraps it (the buffer is not copied). */
  static fromBuffer(buf: Uint8Array, name = 'chonkProof'): ChonkProof {
    const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    if (b.length < 4) throw new DecodeError(name, `needs at least 4 bytes, got ${b.length}`);
    const count = b.readUInt32BE(0);
    if (count !== CHONK_PROOF_LENGTH) {
      throw new DecodeError(name, `a proof has ${CHONK_PROOF_LENGTH} fields, this one claims ${count}`);
    }
    if (b.length !== ChonkProof.SIZE_IN_BYTES) {
      throw new DecodeError(name, `expected ${ChonkProof.SIZE_IN_BYTES} bytes, got ${b.length}`);
    }
    for (let off = 4; off < b.length; off += 32) {
      if ((b[off] as number) >= MODULUS_TOP_BYTE && readField32(b, off) >= FR_MODULUS) {
        throw new DecodeError(`${name}[${(off - 4) / 32}]`, 'value is not below the field modulus');
      }
    }
    return new ChonkProof(b);
  }

  static read(r: BufferReader, name = 'chonkProof'): ChonkProof {
    const count = r.readU32(name);
    if (count !== CHONK_PROOF_LENGTH) {
      throw r.error(name, undefined, `a proof has ${CHONK_PROOF_LENGTH} fields, this one claims ${count}`);
    }
    const start = r.offset - 4;
    r.readBytes(CHONK_PROOF_LENGTH * 32, name);
    // Copied, so a stored proof does not keep the whole input buffer alive.
    return ChonkProof.fromBuffer(Buffer.from(r.buffer.subarray(start, start + ChonkProof.SIZE_IN_BYTES)), name);
  }

  write(w: BufferWriter): void {
    w.writeBytes(this.bytes);
  }

  isEmpty(): boolean {
    for (let i = 4; i < this.bytes.length; i++) if (this.bytes[i] !== 0) return false;
    return true;
  }

  toBuffer(): Buffer {
    return this.bytes;
  }

  toJSON(): string {
    return this.bytes.toString('base64');
  }
}
