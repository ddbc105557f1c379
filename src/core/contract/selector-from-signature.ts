import { poseidon2HashBytes } from '../crypto/poseidon2.js';
import { FunctionSelector } from './function-selector.js';

/** Bytes of the signature per field: 31 keep every chunk below the field modulus. */
const CHUNK = 31;

/**
 * The selector of a function signature such as `_increase_public_balance((Field),u128)`, as 4.1.2's
 * FunctionSelector.fromSignature computes it: the signature's bytes in 31-byte chunks, each read as a
 * little-endian field element (Noir's byte order), hashed with Poseidon2; the selector is the hash's last
 * 4 bytes. Needed for the default setup allow list and the fee payer's same-tx claim.
 */
export function selectorFromSignature(signature: string): FunctionSelector {
  if (/\s/.test(signature)) throw new Error(`A function signature has no whitespace: "${signature}"`);
  const bytes = Buffer.from(signature, 'utf8');
  const fields: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) {
    const field = new Uint8Array(32);
    // Little-endian chunk into a big-endian 32-byte word: reverse it into the low bytes.
    const chunk = bytes.subarray(i, i + CHUNK);
    for (let j = 0; j < chunk.length; j++) field[31 - j] = chunk[j] as number;
    fields.push(field);
  }
  const hash = poseidon2HashBytes(fields);
  return new FunctionSelector(Buffer.from(hash).readUInt32BE(28));
}
