import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AdminApiKeyOptions, resolveAdminApiKey } from '../../src/rpc/server/admin-api-key.js';
import { AdminAuthenticator } from '../../src/rpc/server/admin-authenticator.js';

const log = pino({ level: 'silent' });
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
let dir: string;
const opts = (o: Partial<AdminApiKeyOptions>): AdminApiKeyOptions => ({
  dataDirectory: dir,
  adminApiKeyHash: undefined,
  disableAdminApiKey: false,
  resetAdminApiKey: false,
  ...o,
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'l2node-key-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('resolveAdminApiKey (spec part 5)', () => {
  it('generates 32 random bytes as 64 lowercase hex, storing only the SHA-256 of that text', () => {
    const key = resolveAdminApiKey(opts({}), log);
    if (!key.enabled || !key.newKey) throw new Error('expected a new key');
    expect(key.newKey).toMatch(/^[0-9a-f]{64}$/);
    expect(key.source).toBe('generated');
    expect(readFileSync(join(dir, 'admin', 'api_key_hash'), 'utf8')).toBe(sha256(key.newKey));
    expect(key.hash.toString('hex')).toBe(sha256(key.newKey));
  });

  it('reuses the stored hash and forgets nothing: no new key on the next start', () => {
    const first = resolveAdminApiKey(opts({}), log);
    const second = resolveAdminApiKey(opts({}), log);
    if (!first.enabled || !second.enabled) throw new Error('expected auth');
    expect(second.source).toBe('file');
    expect(second.newKey).toBeUndefined();
    expect(second.hash.equals(first.hash)).toBe(true);
  });

  it('puts a stored hash readable by others back to 0600', () => {
    resolveAdminApiKey(opts({}), log);
    const file = join(dir, 'admin', 'api_key_hash');
    chmodSync(file, 0o644);
    resolveAdminApiKey(opts({}), log);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('--reset-admin-api-key replaces the stored hash', () => {
    const first = resolveAdminApiKey(opts({}), log);
    const reset = resolveAdminApiKey(opts({ resetAdminApiKey: true }), log);
    if (!first.enabled || !reset.enabled) throw new Error('expected auth');
    expect(reset.newKey).toBeDefined();
    expect(reset.hash.equals(first.hash)).toBe(false);
  });

  it('a given hash wins over the file and reset; disabled wins over everything', () => {
    const given = resolveAdminApiKey(opts({ adminApiKeyHash: sha256('k'), resetAdminApiKey: true }), log);
    expect(given).toMatchObject({ enabled: true, source: 'flag' });
    expect(resolveAdminApiKey(opts({ adminApiKeyHash: sha256('k'), disableAdminApiKey: true }), log)).toEqual({
      enabled: false,
    });
  });

  it('without a data directory the key is for this run only', () => {
    const key = resolveAdminApiKey(opts({ dataDirectory: undefined }), log);
    expect(key).toMatchObject({ enabled: true, source: 'ephemeral' });
  });

  it('refuses a malformed stored hash, naming the file and the way out', () => {
    resolveAdminApiKey(opts({}), log);
    writeFileSync(join(dir, 'admin', 'api_key_hash'), 'ABC');
    expect(() => resolveAdminApiKey(opts({}), log)).toThrow(
      /api_key_hash is not 64 lowercase hex digits.*--reset-admin-api-key/,
    );
  });
});

describe('AdminAuthenticator', () => {
  const auth = new AdminAuthenticator(Buffer.from(sha256('secret'), 'hex'));

  it('accepts x-api-key or Authorization: Bearer (any case, extra spaces), x-api-key first', () => {
    expect(auth.accepts({ 'x-api-key': 'secret' })).toBe(true);
    expect(auth.accepts({ authorization: 'Bearer secret' })).toBe(true);
    expect(auth.accepts({ authorization: 'bearer   secret ' })).toBe(true);
    expect(auth.accepts({ 'x-api-key': 'nope', authorization: 'Bearer secret' })).toBe(false);
    expect(auth.accepts({ 'x-api-key': '', authorization: 'Bearer secret' })).toBe(true);
  });

  it('refuses a missing, wrong or malformed key', () => {
    expect(auth.accepts({})).toBe(false);
    expect(auth.accepts({ 'x-api-key': 'secrets' })).toBe(false);
    expect(auth.accepts({ authorization: 'secret' })).toBe(false);
    expect(auth.accepts({ authorization: 'Basic secret' })).toBe(false);
  });
});
