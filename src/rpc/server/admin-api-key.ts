import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { secureRandomBytes } from '../../core/crypto/secure-random-bytes.js';
import { newSha256 } from '../../core/crypto/sha256-to-field.js';

/** Where the hash lives under the data directory (spec part 5). */
export const ADMIN_KEY_HASH_FILE = join('admin', 'api_key_hash');

const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface AdminApiKeyOptions {
  readonly dataDirectory: string | undefined;
  /** --admin-api-key-hash: already checked to be 64 hex digits and lower-cased by the settings table. */
  readonly adminApiKeyHash: string | undefined;
  readonly disableAdminApiKey: boolean;
  readonly resetAdminApiKey: boolean;
}

/**
 * How the admin listener authenticates: off, or against a SHA-256 digest. `newKey` is set only when the
 * key was generated in this start-up; it is printed once and then forgotten.
 */
export type AdminApiKey =
  | { readonly enabled: false }
  | {
      readonly enabled: true;
      readonly hash: Buffer;
      readonly source: 'flag' | 'file' | 'generated' | 'ephemeral';
      readonly newKey?: string;
      /** The hash file, when the key is kept across restarts. */
      readonly file?: string;
    };

export class AdminApiKeyError extends Error {
  override name = 'AdminApiKeyError';
}

/** SHA-256 over the UTF-8 text of the key (the 64 hex characters), as Aztec and spec part 5 do. */
export function hashAdminApiKey(key: string): Buffer {
  return newSha256().update(key).digest();
}

/**
 * Resolves the admin API key at start-up (spec part 5), first rule that applies:
 * 1. --disable-admin-api-key: no authentication, with a loud warning;
 * 2. --admin-api-key-hash: that hash;
 * 3. with a data directory: the stored hash, unless absent or --reset-admin-api-key, then a new key
 *    whose hash is written to <dataDirectory>/admin/api_key_hash (0600, folder 0700);
 * 4. without one: a new key for this run only.
 */
export function resolveAdminApiKey(options: AdminApiKeyOptions, log: Logger): AdminApiKey {
  if (options.disableAdminApiKey) {
    log.warn(
      'ADMIN API AUTHENTICATION IS DISABLED (--disable-admin-api-key): anyone who can reach the admin port can ' +
        'pause sync, roll back the chain and change the configuration. Do not use this in production.',
    );
    if (options.adminApiKeyHash) log.warn('--admin-api-key-hash is ignored because admin authentication is disabled');
    return { enabled: false };
  }
  if (options.adminApiKeyHash) {
    if (options.resetAdminApiKey) log.warn('--reset-admin-api-key is ignored because --admin-api-key-hash is given');
    log.info('admin API key: using the hash given by --admin-api-key-hash');
    return { enabled: true, hash: Buffer.from(options.adminApiKeyHash, 'hex'), source: 'flag' };
  }
  if (!options.dataDirectory) {
    const key = generateKey();
    log.warn(
      'admin API key: generated for this run only (no --data-directory, so it cannot be kept); a restart makes a new one',
    );
    return { enabled: true, hash: hashAdminApiKey(key), source: 'ephemeral', newKey: key };
  }
  const file = join(options.dataDirectory, ADMIN_KEY_HASH_FILE);
  if (!options.resetAdminApiKey && existsSync(file)) {
    return { enabled: true, hash: readStoredHash(file, log), source: 'file', file };
  }
  const key = generateKey();
  writeStoredHash(file, hashAdminApiKey(key).toString('hex'));
  log.info(
    { file },
    options.resetAdminApiKey
      ? `admin API key: reset; new hash stored in ${file}`
      : `admin API key: hash stored in ${file}`,
  );
  return { enabled: true, hash: hashAdminApiKey(key), source: 'generated', newKey: key, file };
}

/** 32 random bytes as 64 lowercase hex characters: that text is the key. */
function generateKey(): string {
  return secureRandomBytes(32).toString('hex');
}

function readStoredHash(file: string, log: Logger): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new AdminApiKeyError(`cannot read the admin API key hash ${file}: ${(err as Error).message}`);
  }
  if (!SHA256_HEX.test(text)) {
    // Regenerating silently (as 4.1.2 does) would lock out whoever holds the key; say what to do instead.
    throw new AdminApiKeyError(
      `the admin API key hash ${file} is not 64 lowercase hex digits: restore it, or start with --reset-admin-api-key for a new key`,
    );
  }
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    chmodSync(file, 0o600);
    log.warn({ file }, `admin API key hash ${file} was readable by others (mode ${mode.toString(8)}); set it to 600`);
  }
  return Buffer.from(text, 'hex');
}

/** Written to a temporary file first, so a crash never leaves a half-written hash behind. */
function writeStoredHash(file: string, hex: string): void {
  const dir = join(file, '..');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, hex, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (err) {
    throw new AdminApiKeyError(`cannot store the admin API key hash in ${file}: ${(err as Error).message}`);
  }
}

/** The once-only banner for a newly generated key (printed on stdout after the admin listener starts). */
export function adminKeyBanner(key: string, adminUrl: string, file: string | undefined): string {
  const rule = '='.repeat(88);
  const kept = file
    ? `Only its SHA-256 hash is kept (${file}); it is never shown again.`
    : 'No --data-directory: this key lasts for this run only; the next start makes a new one.';
  return [
    '',
    rule,
    '  ADMIN API KEY (shown once)',
    '',
    `    ${key}`,
    '',
    `  ${kept}`,
    `  Send it with every admin request to ${adminUrl}, in either header:`,
    `    x-api-key: ${key}`,
    `    Authorization: Bearer ${key}`,
    '  Lost it? Restart with --reset-admin-api-key to make a new one.',
    '  To turn admin authentication off (not for production): --disable-admin-api-key',
    rule,
    '',
    '',
  ].join('\n');
}
