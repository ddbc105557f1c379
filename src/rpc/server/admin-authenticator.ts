import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { hashAdminApiKey } from './admin-api-key.js';

const BEARER = /^bearer\s+(\S.*)$/i;

/**
 * Checks the admin API key of a request (spec part 5): `x-api-key: <key>` or `Authorization: Bearer <key>`,
 * x-api-key first. The presented key is hashed and compared with the stored digest in constant time, so
 * neither the key nor the hash leaks through timing.
 */
export class AdminAuthenticator {
  constructor(private readonly hash: Buffer) {
    if (hash.length !== 32) throw new Error('The admin API key hash must be a 32-byte SHA-256 digest');
  }

  accepts(headers: IncomingHttpHeaders): boolean {
    const key = presentedKey(headers);
    // A missing key still costs one hash, so "missing" and "wrong" look alike from outside.
    return timingSafeEqual(hashAdminApiKey(key ?? ''), this.hash) && key !== undefined;
  }
}

function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.trim().length > 0) return apiKey.trim();
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const m = BEARER.exec(authorization.trim());
    if (m) return (m[1] as string).trim();
  }
  return undefined;
}
