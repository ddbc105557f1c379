import { parseInteger, parseNonEmpty } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';
import { parseSnapshotUrl } from '../snapshots/snapshot-url.js';

/** Where the node keeps its one database, how much world state history, and a snapshot to start from. */
export const STORAGE_SETTINGS = {
  dataDirectory: setting<string | undefined>({
    key: 'dataDirectory',
    flag: 'data-directory',
    env: 'NODE_DATA_DIRECTORY',
    defaultValue: undefined,
    parse: parseNonEmpty,
    kind: 'string',
    group: 'Storage',
    description: 'Directory of the node database and admin key hash. Unset: everything lives in memory for one run.',
  }),
  worldStateHistoryBlocks: setting<number | undefined>({
    key: 'worldStateHistoryBlocks',
    flag: 'world-state-history-blocks',
    env: 'NODE_WORLD_STATE_HISTORY_BLOCKS',
    defaultValue: undefined,
    parse: parseInteger(0, 2 ** 31 - 1),
    kind: 'string',
    group: 'Storage',
    description:
      'Blocks of world-state history kept readable (sibling paths, witnesses, storage at a block); older ones are pruned once finalized. 0 keeps all. Unset: all in dev mode, 256 for a follower.',
  }),
  snapshotUrl: setting<string | undefined>({
    key: 'snapshotUrl',
    flag: 'snapshot-url',
    env: 'NODE_SNAPSHOT_URL',
    defaultValue: undefined,
    parse: parseSnapshotUrl,
    kind: 'string',
    group: 'Storage',
    description:
      'Bootstrap an empty --data-directory from the newest compatible snapshot of this index (file:// or http(s):// ' +
      'URL of an index.json, or the location it was uploaded to), then build or sync the rest (docs/operations.md).',
  }),
} as const;

export type StorageConfig = SettingValues<typeof STORAGE_SETTINGS>;
