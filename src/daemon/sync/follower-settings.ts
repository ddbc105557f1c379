import { byteSize } from '../config/byte-size-setting.js';
import { parseHttpUrl, parseInteger } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';

/** Follower mode: the upstream and how often it is polled. */
export const FOLLOWER_SETTINGS = {
  syncFrom: setting<string | undefined>({
    key: 'syncFrom',
    flag: 'sync-from',
    env: 'NODE_SYNC_FROM',
    defaultValue: undefined,
    // `p2p`: the peers of the P2P network are the upstream (docs/network.md, catch-up over P2P).
    parse: (raw) => (raw.trim() === 'p2p' ? 'p2p' : parseHttpUrl(raw)),
    kind: 'string',
    group: 'Follower',
    description:
      "Follow this upstream node's public JSON-RPC URL instead of building blocks: every block is re-executed and " +
      'checked before it is stored, txs are forwarded upstream (docs/follower.md). `p2p` follows the P2P ' +
      'network instead: blocks come from the peers by req/resp (needs --p2p-enabled; docs/network.md).',
  }),
  syncMaxResponseSize: byteSize(
    'syncMaxResponseSize',
    'sync-max-response-size',
    'NODE_SYNC_MAX_RESPONSE_SIZE',
    64 * 1024 * 1024,
    'Follower',
    'Largest answer a follower reads from its upstream (e.g. 64mb); a larger one is cut off and reported, naming the method. Blocks are then asked for in smaller batches.',
  ),
  archiverPollingIntervalMS: setting<number>({
    key: 'archiverPollingIntervalMS',
    flag: 'archiver-polling-interval-ms',
    env: 'NODE_ARCHIVER_POLLING_INTERVAL_MS',
    defaultValue: 500,
    parse: parseInteger(10, 3_600_000),
    parseJson: (v) => parseInteger(10, 3_600_000)(typeof v === 'number' ? String(v) : String(v ?? '')),
    format: (v) => `${v} ms`,
    runtime: true,
    kind: 'string',
    group: 'Follower',
    description: "How often a follower polls its upstream's tips (milliseconds; 4.1.2's archiver default is 500).",
  }),
} as const;

export type FollowerConfig = SettingValues<typeof FOLLOWER_SETTINGS>;
