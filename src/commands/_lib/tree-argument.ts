import { CliError } from './cli-error.js';

/** Trees by the names the CLI takes, with their ids (spec part 2, tree identifiers). */
export const TREES = {
  nullifier: 0,
  'note-hash': 1,
  'public-data': 2,
  'l1-to-l2': 3,
  archive: 4,
} as const;

export type TreeName = keyof typeof TREES;

/** A tree by name (`note-hash`) or id (`1`). */
export function parseTreeArgument(raw: string): TreeName {
  const s = raw.trim().toLowerCase();
  if (s in TREES) return s as TreeName;
  const byId = (Object.keys(TREES) as TreeName[]).find((name) => String(TREES[name]) === s);
  if (byId) return byId;
  throw CliError.usage(
    `tree "${raw}" is not one of ${Object.entries(TREES)
      .map(([n, id]) => `${n} (${id})`)
      .join(', ')}`,
  );
}
