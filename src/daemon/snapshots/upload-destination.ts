import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SettingParseError } from '../config/setting.js';
import { LOCK_FILE } from '../store/data-directory-lock.js';

/** What a file:// snapshot upload may write to (docs/operations.md, Snapshots). */
export interface UploadDestinationRules {
  /** The node's own data directory: never written to by an upload. */
  readonly dataDirectory: string | undefined;
  /** --snapshot-upload-roots: when set, file:// uploads go under one of these directories only. */
  readonly allowedRoots: readonly string[] | undefined;
}

/**
 * Refuses a path written with traversal: a `.` or `..` segment, plain or percent-encoded (`%2e%2e`), or an
 * encoded separator (`%2f`, `%5c`). A URL parser would quietly resolve them; a location that needs them is one
 * an operator did not mean, or one a caller uses to escape a root.
 */
function refuseTraversal(raw: string): void {
  if (/%(2f|5c)/i.test(raw)) {
    throw new SettingParseError(`"${raw}" holds an encoded path separator (%2f or %5c): name the directory plainly`);
  }
  const path = raw.replace(/^file:\/\/(localhost)?/i, '');
  for (const segment of path.split(/[/\\]/)) {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new SettingParseError(`"${raw}" holds a malformed percent-encoding`);
    }
    if (decoded === '..' || decoded === '.') {
      throw new SettingParseError(
        `"${raw}" holds a "${segment}" path segment: name the destination directory without . or .. in it`,
      );
    }
  }
}

/** `path` with its symbolic links resolved as far as it exists (the rest appended as written). */
function realPath(path: string): string {
  let existing = path;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const up = dirname(existing);
    if (up === existing) break;
    rest.unshift(basename(existing));
    existing = up;
  }
  return join(realpathSync(existing), ...rest);
}

function isInside(path: string, dir: string): boolean {
  const r = relative(dir, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/**
 * Checks where a file:// snapshot upload (`raw` as given, `url` as parsed) would write, before anything is
 * written: no traversal forms; not inside the node's own data directory, nor inside any l2node data directory
 * (one holding a node's lock file: another node's, running or not); and under an allowed root when
 * --snapshot-upload-roots is set. Throws SettingParseError naming what is wrong. Other schemes pass.
 */
export function checkUploadDestination(raw: string, url: string, rules: UploadDestinationRules): void {
  if (!url.startsWith('file:')) return;
  refuseTraversal(raw.trim());
  const path = realPath(fileURLToPath(url));
  if (rules.dataDirectory) {
    const own = realPath(resolve(rules.dataDirectory));
    if (isInside(path, own)) {
      throw new SettingParseError(`${path} is inside the node's own data directory ${own}: upload snapshots elsewhere`);
    }
  }
  for (let dir = path; ; dir = dirname(dir)) {
    if (existsSync(join(dir, LOCK_FILE))) {
      throw new SettingParseError(
        `${path} is inside ${dir}, the data directory of an l2node node (it holds ${LOCK_FILE}): upload snapshots elsewhere`,
      );
    }
    if (dirname(dir) === dir) break;
  }
  if (rules.allowedRoots && !rules.allowedRoots.some((root) => isInside(path, realPath(resolve(root))))) {
    throw new SettingParseError(
      `${path} is not under an allowed snapshot root (--snapshot-upload-roots: ${rules.allowedRoots.join(', ')})`,
    );
  }
}
