import { FR_MODULUS } from '../../core/fr.js';
import { readField32, writeField32 } from '../../core/serialize/buffer-writer.js';
import { InvalidWorldStateArgumentError } from './world-state-errors.js';

/**
 * Field elements cross the world-state API as bigints and live inside it as 32-byte big-endian buffers
 * (the form SQLite compares in numeric order and the hasher consumes).
 */
export function fieldBuffer(v: bigint): Buffer {
  const b = Buffer.allocUnsafe(32);
  writeField32(new DataView(b.buffer, b.byteOffset, 32), 0, v);
  return b;
}

/** As fieldBuffer, after checking the value is a field element; `what` names it in the error. */
export function checkedFieldBuffer(v: bigint, what: string): Buffer {
  if (typeof v !== 'bigint' || v < 0n || v >= FR_MODULUS) {
    throw new InvalidWorldStateArgumentError(`${what} must be a field element (0 <= v < p), got ${String(v)}`);
  }
  return fieldBuffer(v);
}

export function bufferField(b: Uint8Array): bigint {
  return readField32(b);
}
