import { sha256 } from '@noble/hashes/sha2';
import { bytesToBigInt } from '../serialize/field-bytes.js';

/** A running SHA-256: `update` with bytes or UTF-8 text, then `digest` once. */
export interface Sha256 {
  update(data: Uint8Array | string): Sha256;
  digest(): Buffer;
}

/**
 * A new SHA-256, noble's. Every input of the protocol's hashes is small (a header, a message, a blob commitment, two
 * tree nodes; the same speed as node:crypto's at these sizes), and so are the hashes a dev start makes (genesis, the
 * admin API key): node:crypto, its dozen modules, cost a start about 5 ms to load (issue 27, bench/startup). Large
 * inputs (snapshot files) hash with node:crypto, which is about ten times faster per byte.
 */
export function newSha256(): Sha256 {
  const hash = sha256.create();
  const running: Sha256 = {
    update(data) {
      hash.update(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      return running;
    },
    digest() {
      const digest = hash.digest();
      return Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength);
    },
  };
  return running;
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
