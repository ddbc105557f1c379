import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { newSha256 } from '../../core/crypto/sha256-to-field.js';
import type { GenesisPublicData } from '../world-state/genesis-state.js';
import type { SqliteDatabase } from './node-database.js';

/**
 * The identity of the bundled code (scripts/bundle-cli.mjs defines it: a hash of every compiled module and of
 * package.json). Code run from anywhere else (the compiled modules themselves, in a test) has none, and so no
 * genesis image: nothing can tell whether an image was made by the same code.
 */
declare const __L2NODE_BUILD_ID__: string | undefined;

/** Everything that decides the database of an in-memory dev node right after genesis, besides the code. */
export interface GenesisImageInputs {
  /** The public data tree's genesis leaves (the prefunded accounts and FPCs). */
  readonly genesisPublicData: readonly GenesisPublicData[];
  /** The world state's kept history (written with genesis). */
  readonly historyBlocks: number;
  /** Whether the sponsored FPC's class and instance are recorded at block 0. */
  readonly sponsoredFpc: boolean;
}

/** Images kept in the cache directory (one per set of genesis inputs used lately); older ones are removed. */
const KEPT_IMAGES = 4;

/**
 * A genesis image (issue 27): the database of an in-memory dev node once migrated and holding its genesis
 * (world state block 0 and the genesis contracts), identical on every start with the same code and settings.
 * The first start computes it and saves it to the user's cache directory ($XDG_CACHE_HOME/l2node/genesis, default
 * ~/.cache/l2node/genesis); a later start copies it into its private database file instead of migrating and
 * building genesis (about a tenth of a dev start's CPU, bench/startup). The image's name is a hash of the code's
 * identity and of every genesis input, so an image is only ever used by the code and settings that made it; a
 * start with other inputs computes its own. The cache only saves time: an image that cannot be read, written or
 * opened is computed again.
 */
export class GenesisImage {
  /** Whether the database was copied from the image (else it is computed, then saved). */
  loaded = false;

  private constructor(
    readonly key: string,
    private readonly directory: string,
  ) {}

  /** The image of these inputs, or none when the code has no identity (not run from the bundle). */
  static of(inputs: GenesisImageInputs, env: NodeJS.ProcessEnv = process.env): GenesisImage | undefined {
    const build = typeof __L2NODE_BUILD_ID__ === 'string' ? __L2NODE_BUILD_ID__ : undefined;
    if (!build) return undefined;
    let directory: string;
    try {
      directory = genesisImageDirectory(env);
    } catch {
      // No home directory to cache in (os.homedir can throw): genesis is computed, as without a cache.
      return undefined;
    }
    return new GenesisImage(genesisImageKey(build, inputs), directory);
  }

  private get file(): string {
    return join(this.directory, `${this.key}.sqlite`);
  }

  /** Copies the image into `target` (an empty database file); false when there is none or it cannot be read. */
  copyTo(target: string): boolean {
    try {
      copyFileSync(this.file, target);
      this.loaded = true;
    } catch {
      this.loaded = false;
    }
    return this.loaded;
  }

  /** The image was copied but does not open as a database: removed, so the next start saves a good one. */
  discard(): void {
    this.loaded = false;
    rmSync(this.file, { force: true });
  }

  /** Saves the database (migrated, holding genesis and nothing else) as the image; failures are ignored. */
  save(db: SqliteDatabase): void {
    try {
      mkdirSync(this.directory, { recursive: true, mode: 0o700 });
      // Written whole under another name, then renamed: a start never copies half an image.
      const partial = `${this.file}.${process.pid}.partial`;
      writeFileSync(partial, db.serialize(), { mode: 0o600 });
      renameSync(partial, this.file);
      prune(this.directory);
    } catch {
      // A cache that cannot be written costs the next start the genesis computation, nothing else.
    }
  }
}

/** The image's name: a hash of the code's identity and of every genesis input. */
export function genesisImageKey(build: string, inputs: GenesisImageInputs): string {
  const hash = newSha256();
  hash.update(`l2node genesis image 1\n${build}\n`);
  hash.update(`history ${inputs.historyBlocks}\nsponsored ${inputs.sponsoredFpc}\n`);
  for (const { slot, value } of inputs.genesisPublicData) hash.update(`${slot.toString(16)} ${value.toString(16)}\n`);
  return hash.digest().toString('hex');
}

/** Where images are kept: the user's cache directory, as for V8's compile cache (bin/run.js). */
export function genesisImageDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'l2node', 'genesis');
}

/** Keeps the KEPT_IMAGES newest images (and removes partial files left by a killed start). */
function prune(directory: string): void {
  const images = readdirSync(directory)
    .map((name) => ({ name, mtime: statSync(join(directory, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  let kept = 0;
  for (const { name, mtime } of images) {
    const stale = name.endsWith('.partial') ? Date.now() - mtime > 60_000 : ++kept > KEPT_IMAGES;
    if (stale) rmSync(join(directory, name), { force: true });
  }
}
