import { CliError } from './cli-error.js';

/** Trees by the names the CLI takes, with their ids (spec part 2, tree identifiers). */
export const TREE_IDS_BY_NAME = {
  nullifier: 0,
  'note-hash': 1,
  'public-data': 2,
  'l1-to-l2': 3,
  archive: 4,
} as const;

export type TreeName = keyof typeof TREE_IDS_BY_NAME;

/** A tree by name (`note-hash`) or id (`1`). */
export function parseTreeArgument(raw: string): TreeName {
  const s = raw.trim().toLowerCase();
  if (s in TREE_IDS_BY_NAME) return s as TreeName;
  const byId = (Object.keys(TREE_IDS_BY_NAME) as TreeName[]).find((name) => String(TREE_IDS_BY_NAME[name]) === s);
  if (byId) return byId;
  throw CliError.usage(
    `tree "${raw}" is not one of ${Object.entries(TREE_IDS_BY_NAME)
      .map(([n, id]) => `${n} (${id})`)
      .join(', ')}`,
  );
}
