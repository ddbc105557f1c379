import { createReadStream, createWriteStream, lstatSync } from 'node:fs';
import { lstat, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { byteCounter as counter } from './byte-counter.js';
import { isObjectStoreUrl, ObjectStore, type ObjectStoreEndpoints, parseObjectUrl } from './object-store.js';

// node:http and node:https through process.getBuiltinModule when a download needs them, not as `import`s: every
// start loads this file, an ESM import of node:http reads every export of the module (its lazy `WebSocket` getter
// loads undici, Node's fetch), and node:https (TLS) is tens of ms of a start that downloads nothing.

/** A snapshot location that cannot be read or written; the message says which URL and why. */
export class SnapshotStoreError extends Error {
  override name = 'SnapshotStoreError';
}

/**
 * A snapshot location (file://, http(s)://, s3:// or gs://): files are named by paths relative to it. Writes to a
 * file:// location go to a temporary name first and are renamed, so a reader never sees half a file; an
 * http(s):// location takes each file by HTTP PUT (a web server that accepts uploads); s3:// and gs:// are
 * buckets reached through the S3 API (src/daemon/snapshots/object-store.ts), where an object appears whole.
 */
export interface SnapshotStore {
  readonly location: string;
  /**
   * What can be checked before an upload starts: a file:// destination directory, an object store's
   * credentials. Throws SnapshotStoreError or ObjectStoreError saying what is wrong.
   */
  check(): Promise<void>;
  /** Lets go of connections; the store is not used after. */
  close(): void;
  /** The absolute URL of a file of the location. */
  urlOf(name: string): string;
  /** A file's text, or undefined when it does not exist. */
  readText(name: string, signal?: AbortSignal): Promise<string | undefined>;
  writeText(name: string, text: string, contentType: string, signal?: AbortSignal): Promise<void>;
  /** Sends a local file; `onProgress` gets the bytes sent so far. */
  upload(name: string, localPath: string, onProgress: (bytes: number) => void, signal?: AbortSignal): Promise<void>;
}

export function openSnapshotStore(location: string, endpoints: ObjectStoreEndpoints): SnapshotStore {
  const base = location.replace(/\/+$/, '');
  const urlOf = (name: string) => `${base}/${name.split('/').map(encodeURIComponent).join('/')}`;
  if (isObjectStoreUrl(base)) {
    const store = new ObjectStore(parseObjectUrl(base).scheme, endpoints);
    return {
      location: base,
      urlOf,
      check: () => store.checkCredentials(),
      close: () => store.close(),
      readText: (name, signal) => store.readText(urlOf(name), signal),
      writeText: (name, text, contentType, signal) => store.writeText(urlOf(name), text, contentType, signal),
      upload: (name, localPath, onProgress, signal) => store.upload(urlOf(name), localPath, onProgress, signal),
    };
  }
  if (base.startsWith('file:')) {
    const root = fileURLToPath(base);
    const pathOf = (name: string) => fileURLToPath(urlOf(name));
    // Every directory under the location is made here, one level at a time, and none may be a symlink: a link
    // planted in the location must not carry the node's writes elsewhere.
    const prepare = async (path: string) => {
      await realDirectory(root);
      let dir = root;
      for (const part of relative(root, dirname(path)).split(sep).filter(Boolean)) {
        dir = `${dir}${sep}${part}`;
        await realDirectory(dir);
      }
      await rm(`${path}.partial`, { force: true });
      const existing = await lstat(path).catch(() => undefined);
      if (existing?.isSymbolicLink()) throw new SnapshotStoreError(`${path} is a symbolic link: refused`);
    };
    return {
      location: base,
      urlOf,
      check: async () => checkFileDestination(base),
      close: () => {},
      readText: async (name) => readLocalText(pathOf(name)),
      writeText: async (name, text) => {
        const path = pathOf(name);
        await prepare(path);
        // 0600, as the rest of the node's data: a snapshot holds the whole chain state.
        await writeFile(`${path}.partial`, text, { flag: 'wx', mode: 0o600 });
        await rename(`${path}.partial`, path);
      },
      upload: async (name, localPath, onProgress, signal) => {
        const path = pathOf(name);
        await prepare(path);
        try {
          await pipeline(
            createReadStream(localPath),
            counter(onProgress),
            createWriteStream(`${path}.partial`, { flags: 'wx', mode: 0o600 }),
            { signal },
          );
          await rename(`${path}.partial`, path);
        } catch (err) {
          await rm(`${path}.partial`, { force: true });
          throw err;
        }
      },
    };
  }
  return {
    location: base,
    urlOf,
    check: async () => {},
    close: () => {},
    readText: (name, signal) => readUrlText(urlOf(name), endpoints, signal),
    writeText: async (name, text, contentType, signal) => {
      const body = Buffer.from(text);
      await put(urlOf(name), Readable.from([body]), body.length, contentType, signal);
    },
    upload: async (name, localPath, onProgress, signal) => {
      const size = (await stat(localPath)).size;
      const body = createReadStream(localPath).pipe(counter(onProgress));
      await put(urlOf(name), body, size, 'application/gzip', signal);
    },
  };
}

/** A directory that is not a symlink; made (one level) when absent. */
async function realDirectory(path: string): Promise<void> {
  const st = await lstat(path).catch(() => undefined);
  if (st === undefined) {
    await mkdir(path, { mode: 0o700 });
    return;
  }
  if (st.isSymbolicLink()) throw new SnapshotStoreError(`${path} is a symbolic link: refused`);
  if (!st.isDirectory()) throw new SnapshotStoreError(`${path} is not a directory`);
}

/**
 * Checks a file:// snapshot destination before an upload starts: the directory exists, or its parent does (one
 * level is made); neither the directory nor the parent is a symbolic link. Throws SnapshotStoreError saying why.
 */
export function checkFileDestination(location: string): void {
  const path = fileURLToPath(location);
  const kind = (p: string) => {
    try {
      const st = lstatSync(p);
      return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'other';
    } catch {
      return 'absent';
    }
  };
  const here = kind(path);
  if (here === 'dir') return;
  if (here === 'link') throw new SnapshotStoreError(`${path} is a symbolic link: name the real directory`);
  if (here === 'other') throw new SnapshotStoreError(`${path} is not a directory`);
  const parent = dirname(path);
  const up = kind(parent);
  if (up === 'dir') return;
  if (up === 'link') throw new SnapshotStoreError(`${parent} is a symbolic link: name the real directory`);
  throw new SnapshotStoreError(
    `${path} does not exist, nor does its parent ${parent}: create the destination directory first`,
  );
}

/**
 * A file system failure in the node's words (the path and what went wrong), not Node's internal error text.
 * Other errors pass through.
 */
export function describeFileError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const what: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EROFS: 'read-only file system',
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a part of the path is not a directory',
    EEXIST: 'the file already exists (another upload may be writing it)',
    ELOOP: 'too many symbolic links',
    EISDIR: 'is a directory',
  };
  if (typeof e?.code === 'string' && e.code in what) {
    return `cannot write ${e.path ?? 'the snapshot'}: ${what[e.code]}`;
  }
  return e?.message ?? String(err);
}

/** The text at a file://, http(s)://, s3:// or gs:// URL, or undefined when there is nothing there (404, no such file). */
export async function readUrlText(
  url: string,
  endpoints: ObjectStoreEndpoints,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (url.startsWith('file:')) return readLocalText(fileURLToPath(url));
  if (isObjectStoreUrl(url)) return withObjectStore(url, endpoints, (store) => store.readText(url, signal));
  const res = await send('GET', url, undefined, {}, signal);
  const text = (await collect(res)).toString('utf8');
  if (res.statusCode === 404) return undefined;
  if (res.statusCode !== 200) throw new SnapshotStoreError(`GET ${url} answered HTTP ${res.statusCode}`);
  return text;
}

/** Copies what a file://, http(s)://, s3:// or gs:// URL holds into a local file; `onProgress` gets the bytes so far. */
export async function downloadToFile(
  url: string,
  localPath: string,
  endpoints: ObjectStoreEndpoints,
  onProgress: (bytes: number) => void = () => {},
  signal?: AbortSignal,
): Promise<void> {
  if (isObjectStoreUrl(url)) {
    return withObjectStore(url, endpoints, (store) => store.download(url, localPath, onProgress, signal));
  }
  if (url.startsWith('file:')) {
    const source = fileURLToPath(url);
    try {
      await pipeline(createReadStream(source), counter(onProgress), createWriteStream(localPath), { signal });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new SnapshotStoreError(`${url} does not exist`);
      throw err;
    }
    return;
  }
  const res = await send('GET', url, undefined, {}, signal);
  if (res.statusCode !== 200) {
    res.resume();
    throw new SnapshotStoreError(`GET ${url} answered HTTP ${res.statusCode}`);
  }
  await pipeline(res, counter(onProgress), createWriteStream(localPath), { signal });
}

/** Runs `use` with a store for the URL's scheme, its credentials checked first, and closes it after. */
async function withObjectStore<T>(
  url: string,
  endpoints: ObjectStoreEndpoints,
  use: (store: ObjectStore) => Promise<T>,
): Promise<T> {
  const store = new ObjectStore(parseObjectUrl(url).scheme, endpoints);
  try {
    await store.checkCredentials();
    return await use(store);
  } finally {
    store.close();
  }
}

async function readLocalText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function put(
  url: string,
  body: Readable,
  size: number,
  contentType: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const headers = {
    'content-type': contentType,
    'content-length': String(size),
    // The index changes with every upload: caches must not keep it (4.1.2 uploads it no-store).
    'cache-control': contentType === 'application/json' ? 'no-store' : 'public, max-age=31536000, immutable',
  };
  const res = await send('PUT', url, body, headers, signal);
  const answer = (await collect(res)).toString('utf8').slice(0, 200);
  if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) {
    throw new SnapshotStoreError(`PUT ${url} answered HTTP ${res.statusCode}${answer ? `: ${answer}` : ''}`);
  }
}

function send(
  method: 'GET' | 'PUT',
  url: string,
  body: Readable | undefined,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<IncomingMessage> {
  const { request } = process.getBuiltinModule(url.startsWith('https:') ? 'node:https' : 'node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, signal }, resolve);
    req.on('error', (err) => reject(new SnapshotStoreError(`${method} ${url} failed: ${err.message}`)));
    if (body) {
      body.on('error', (err) => req.destroy(err));
      body.pipe(req);
    } else {
      req.end();
    }
  });
}

async function collect(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
