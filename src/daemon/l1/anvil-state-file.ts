import { existsSync, renameSync, statSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const gunzipAsync = promisify(gunzip);

/** Where anvil's state is kept, under the node's data directory. */
export function anvilStatePath(dataDirectory: string): string {
  return join(dataDirectory, 'l1', 'anvil-state.json');
}

/** The last good state before the current one: a damaged current state falls back to it. */
export function previousAnvilStatePath(dataDirectory: string): string {
  return join(dataDirectory, 'l1', 'anvil-state.previous.json');
}

/** Calls one of anvil's JSON-RPC methods. */
export async function anvilRpc<T>(url: string, method: string, params: readonly unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`anvil refused ${method}: ${body.error.message}`);
  return body.result as T;
}

/** Writes `data` to `path` (0600, as the rest of the data) and flushes it to disk. */
async function writeFlushed(path: string, data: Buffer): Promise<void> {
  const file = await open(path, 'w', 0o600);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * anvil's chain as the node keeps it (docs/l1.md, "What survives a crash"): the node, not anvil, writes it, so there
 * is one writer however many processes came and went. Each save asks anvil for its state (`anvil_dumpState`),
 * writes it to a temporary file, flushes it and renames it over the current one, after moving the current one
 * aside as the previous good state: a crash at any moment leaves a complete current state, or a complete previous
 * one. Saves run one at a time, in the order asked.
 */
export class AnvilStateFile {
  private queue: Promise<void> = Promise.resolve();
  private lastSavedAt: Date | undefined;

  constructor(private readonly dataDirectory: string) {}

  get path(): string {
    return anvilStatePath(this.dataDirectory);
  }

  get previousPath(): string {
    return previousAnvilStatePath(this.dataDirectory);
  }

  /** When the last save completed (undefined before the first). */
  get savedAt(): Date | undefined {
    return this.lastSavedAt;
  }

  /** The states to start anvil from, best first: the current one, then the previous good one (those that exist). */
  candidates(): string[] {
    return [this.path, this.previousPath].filter((p) => existsSync(p) && statSync(p).size > 0);
  }

  /**
   * Moves a state anvil could not load out of the way (kept beside, for inspection), so the next save does not
   * turn it into the previous good state. Returns where it went.
   */
  setAsideDamaged(path: string): string {
    const aside = join(this.dataDirectory, 'l1', `anvil-state.damaged-${Date.now()}.json`);
    renameSync(path, aside);
    return aside;
  }

  /** Saves anvil's state now (after the saves already asked for). */
  save(rpcUrl: string): Promise<void> {
    const next = this.queue.then(() => this.saveNow(rpcUrl));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async saveNow(rpcUrl: string): Promise<void> {
    const dumped = await anvilRpc<string>(rpcUrl, 'anvil_dumpState');
    // anvil answers its state gzipped; --load-state reads the JSON.
    const json = await gunzipAsync(Buffer.from(dumped.replace(/^0x/, ''), 'hex'));
    const current = this.path;
    const tmp = `${current}.new`;
    await writeFlushed(tmp, json);
    if (existsSync(current)) await rename(current, this.previousPath);
    await rename(tmp, current);
    await syncDirectory(join(this.dataDirectory, 'l1'));
    this.lastSavedAt = new Date();
  }
}
