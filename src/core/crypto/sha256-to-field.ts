import type { Hash } from 'node:crypto';
import { bytesToBigInt } from '../serialize/field-bytes.js';

/**
 * A new sha256 hash. node:crypto is taken with the first hash, not imported: loading it was a share of a CLI call
 * that decodes core types (which import this file) and never hashes (issue 27).
 */
export function newSha256(): Hash {
  return process.getBuiltinModule('node:crypto').createHash('sha256');
}

/**
 * sha256 truncated to a field element: the first 31 bytes of the digest with a zero byte in front,
 * as Aztec's sha256ToField does (used for checkpoint header hashes and L2-to-L1 message hashes).
 */
export function sha256ToField(data: Uint8Array | readonly Uint8Array[]): bigint {
  const h = newSha256();
  if (data instanceof Uint8Array) h.update(data);
  else for (const d of data) h.update(d);
  const digest = h.digest();
  return bytesToBigInt(digest, 0, 31);
}
