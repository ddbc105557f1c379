import { FR_MODULUS } from '../../core/fr.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import { InvalidWorldStateArgumentError } from './world-state-errors.js';

/**
 * Field elements cross the world-state API as bigints and live inside it as 32-byte big-endian buffers (the
 * form SQLite compares in numeric order and the hasher consumes): this one checks a caller's value first;
 * `what` names it in the error.
 */
export function checkedFieldBuffer(v: bigint, what: string): Buffer {
  if (typeof v !== 'bigint' || v < 0n || v >= FR_MODULUS) {
    throw new InvalidWorldStateArgumentError(`${what} must be a field element (0 <= v < p), got ${String(v)}`);
  }
  return bigIntToBuffer32(v);
}
