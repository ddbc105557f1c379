/**
 * Loads single modules of the published `@aztec/p2p@4.1.2` package as test oracles.
 *
 * The package's entry point cannot be loaded here: it pulls in its mempools and message validators, whose
 * LMDB store and C++ simulator load `@aztec/native`, a binary that needs a newer glibc than these machines
 * have. Its wire code does not: the snappy transform and message id (services/encoding.js), the req/resp
 * engine (services/reqresp/reqresp.js), the req/resp payloads (STATUS, goodbye, block_txs) and the ENR helpers
 * load on their own, so they are imported by file, past the package's exports map. `NODE_BACKEND=js` makes
 * bcrypto (pulled in by the discv5 package) use its JavaScript backend instead of a native addon npm did not
 * build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

process.env.NODE_BACKEND ??= 'js';

/** node_modules/@aztec/p2p (its exports map hides package.json, so go from the entry point). */
const packageRoot = dirname(dirname(createRequire(import.meta.url).resolve('@aztec/p2p')));

/** Imports `dest/<path>` of @aztec/p2p@4.1.2. */
export function importAztecP2p<T = Record<string, unknown>>(path: string): Promise<T> {
  return import(pathToFileURL(join(packageRoot, 'dest', path)).href) as Promise<T>;
}

type ExportTarget = string | { import?: ExportTarget; default?: ExportTarget; node?: ExportTarget } | null;

/**
 * Imports a dependency as @aztec/p2p itself sees it: its pinned libp2p line, whether npm hoisted it or nested it
 * under the package (it nests it once the node's own, newer libp2p takes the top-level name). With `via`, as that
 * dependency of @aztec/p2p sees it (libp2p only accepts multiaddrs of its own copy of @multiformats/multiaddr).
 */
export function importAztecP2pDependency<T = Record<string, unknown>>(specifier: string, via?: string): Promise<T> {
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameLength).join('/');
  const subpath = parts.length > nameLength ? `./${parts.slice(nameLength).join('/')}` : '.';
  const from = via === undefined ? packageRoot : findPackage(via, packageRoot);
  return importFromPackage<T>(findPackage(name, from), subpath);
}

/** Node's lookup: `node_modules/<name>` in `dir`, then in each parent. */
function findPackage(name: string, start: string): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${name} is not installed beside ${start}`);
    dir = parent;
  }
}

function importFromPackage<T>(dir: string, subpath: string): Promise<T> {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    exports?: Record<string, ExportTarget> | string;
    main?: string;
  };
  const pick = (t: ExportTarget | undefined): string | undefined =>
    t === undefined || t === null ? undefined : typeof t === 'string' ? t : pick(t.import ?? t.node ?? t.default);
  const exportsMap = typeof pkg.exports === 'string' ? { '.': pkg.exports } : pkg.exports;
  const target = pick(exportsMap?.[subpath]) ?? (subpath === '.' ? pkg.main : undefined);
  if (!target) throw new Error(`${dir} exports no ${subpath}`);
  return import(pathToFileURL(join(dir, target)).href) as Promise<T>;
}
