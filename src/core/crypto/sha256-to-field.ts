import { createHash } from 'node:crypto';
import { bytesToBigInt } from '../serialize/field-bytes.js';

/**
 * sha256 truncated to a field element: the first 31 bytes of the digest with a zero byte in front,
 * as Aztec's sha256ToField does (used for checkpoint header hashes and L2-to-L1 message hashes).
 */
export function sha256ToField(data: Uint8Array | readonly Uint8Array[]): bigint {
  const h = createHash('sha256');
  if (data instanceof Uint8Array) h.update(data);
  else for (const d of data) h.update(d);
  const digest = h.digest();
  return bytesToBigInt(digest, 0, 31);
}
