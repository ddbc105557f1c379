import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { CliError } from './cli-error.js';

/** One saved admin API key. */
export interface SavedAdminKey {
  readonly apiKey: string;
  /** ISO time it was saved. */
  readonly savedAt: string;
  /** `start` saved a key it generated; `login` saved one an operator typed or piped in. */
  readonly savedBy: 'start' | 'login';
}

interface CredentialsFile {
  version: 1;
  /** By normalized admin URL. */
  adminKeys: Record<string, SavedAdminKey>;
}

/**
 * The CLI's credentials file: `$XDG_CONFIG_HOME/l2node/credentials.json` (default `~/.config/l2node/`), a
 * relative XDG_CONFIG_HOME being ignored as the XDG spec says. Only the CLI reads it; the node keeps just the
 * key's hash in its data directory (spec part 5).
 */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.config');
  return join(base, 'l2node', 'credentials.json');
}

/**
 * The form of an admin URL keys are saved under, so `http://localhost:8880/` and `http://127.0.0.1:8880`
 * find the same key. A listener bound to every interface (0.0.0.0) is reached from this machine on loopback.
 */
export function normalizeAdminUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw CliError.usage(`the admin URL "${url}" is not a URL: expected e.g. http://127.0.0.1:8880`);
  }
  let host = u.hostname.toLowerCase();
  if (host === 'localhost' || host === '0.0.0.0') host = '127.0.0.1';
  if (host === '[::]') host = '[::1]';
  const port = u.port ? `:${u.port}` : '';
  return `${u.protocol}//${host}${port}${u.pathname.replace(/\/+$/, '')}`;
}

/**
 * Admin API keys saved per admin URL, in a 0600 file of a 0700 folder, written through a temporary file so
 * a crash never leaves half a file. Admin commands take a key from --api-key, then NODE_ADMIN_API_KEY, then
 * from here.
 */
export class CredentialsStore {
  constructor(readonly file: string = credentialsPath()) {}

  get(adminUrl: string): SavedAdminKey | undefined {
    return this.read().adminKeys[normalizeAdminUrl(adminUrl)];
  }

  save(adminUrl: string, apiKey: string, savedBy: SavedAdminKey['savedBy']): void {
    const data = this.read();
    data.adminKeys[normalizeAdminUrl(adminUrl)] = { apiKey, savedAt: new Date().toISOString(), savedBy };
    this.write(data);
  }

  /** True when a key was saved for the URL (and is now gone). */
  remove(adminUrl: string): boolean {
    const data = this.read();
    const url = normalizeAdminUrl(adminUrl);
    if (!(url in data.adminKeys)) return false;
    delete data.adminKeys[url];
    if (Object.keys(data.adminKeys).length === 0) rmSync(this.file, { force: true });
    else this.write(data);
    return true;
  }

  private read(): CredentialsFile {
    if (!existsSync(this.file)) return { version: 1, adminKeys: {} };
    let parsed: unknown;
    try {
      if ((statSync(this.file).mode & 0o077) !== 0) chmodSync(this.file, 0o600);
      parsed = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch (err) {
      throw CliError.failed(
        `cannot read the credentials file ${this.file}: ${(err as Error).message}`,
        'CREDENTIALS_UNREADABLE',
        [`fix it, or delete it and log in again: rm ${this.file} && l2node admin login`],
      );
    }
    const keys = (parsed as Partial<CredentialsFile> | null)?.adminKeys;
    if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) {
      throw CliError.failed(`the credentials file ${this.file} has no "adminKeys" object`, 'CREDENTIALS_UNREADABLE', [
        `delete it and log in again: rm ${this.file} && l2node admin login`,
      ]);
    }
    return { version: 1, adminKeys: keys as Record<string, SavedAdminKey> };
  }

  private write(data: CredentialsFile): void {
    const dir = dirname(this.file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }
}
