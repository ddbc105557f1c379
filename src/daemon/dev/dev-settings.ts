import { parseBoolean, parseInteger, parseNonEmpty } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';

/** The dev chain's state files and snapshots (docs/cheat-codes.md). */
export const DEV_SETTINGS = {
  dumpState: setting<string | undefined>({
    key: 'dumpState',
    flag: 'dump-state',
    env: 'NODE_DUMP_STATE',
    defaultValue: undefined,
    parse: parseNonEmpty,
    kind: 'string',
    group: 'Dev chain',
    description:
      "Dev mode: when the node stops, write its whole state (chain, world state, pool) to this file, as anvil's " +
      '--dump-state; --load-state starts a node from it.',
  }),
  loadState: setting<string | undefined>({
    key: 'loadState',
    flag: 'load-state',
    env: 'NODE_LOAD_STATE',
    defaultValue: undefined,
    parse: parseNonEmpty,
    kind: 'string',
    group: 'Dev chain',
    description:
      'Dev mode: start from the state a --dump-state wrote (same tips, roots and pool), in memory or into a data ' +
      "directory that holds no blocks yet. A lazy fork's dump needs its upstream: give --fork-url too.",
  }),
  localNetworkSetup: setting<boolean>({
    key: 'localNetworkSetup',
    flag: 'local-network-setup',
    env: 'NODE_LOCAL_NETWORK_SETUP',
    defaultValue: true,
    parse: parseBoolean,
    format: (v) => (v ? 'on' : 'off'),
    kind: 'string',
    group: 'Dev chain',
    description:
      "Dev mode: at the first start of a fresh chain with the default accounts, do what 4.1.2's local network does " +
      '(its testAccounts setting): deploy the three test accounts and the BananaCoin token with its BananaFPC, in ' +
      'the background (GET /status `localNetworkSetup` says when it is done), through the official wallet ' +
      'packages: true or false. The genesis block is the same either way.',
  }),
  devSnapshotLimit: setting<number>({
    key: 'devSnapshotLimit',
    flag: 'dev-snapshot-limit',
    env: 'NODE_DEV_SNAPSHOT_LIMIT',
    defaultValue: 16,
    parse: parseInteger(1, 1000),
    kind: 'string',
    group: 'Dev chain',
    description:
      'Dev mode: most nodeDev_snapshot snapshots alive at once (each is a copy of the database on disk); one more ' +
      'is refused until a nodeDev_revert consumes some.',
  }),
} as const;

export type DevConfig = SettingValues<typeof DEV_SETTINGS>;
