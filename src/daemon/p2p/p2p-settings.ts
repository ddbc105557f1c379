import { parseBoolean, parseHost, parseInteger, parsePort } from '../config/parsers.js';
import { SettingParseError, type SettingValues, setting } from '../config/setting.js';

/** A comma-separated list of `enr:` records (BOOTSTRAP_NODES), each kept as its text. */
export function parseEnrList(raw: string): string[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const item of items) {
    if (!/^enr:[A-Za-z0-9_-]+$/.test(item)) {
      throw new SettingParseError(`expected comma-separated ENR texts (enr:...), got "${item.slice(0, 40)}"`);
    }
  }
  return items;
}

/**
 * A comma-separated list of peers, each an `enr:` text or a libp2p multiaddr ending in /p2p/<peer id>
 * (P2P_TRUSTED_PEERS, P2P_PREFERRED_PEERS).
 */
export function parsePeerList(raw: string): string[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const item of items) {
    if (!/^enr:[A-Za-z0-9_-]+$/.test(item) && !/^\/ip[46]\/[^/]+\/tcp\/[0-9]+\/p2p\/[A-Za-z0-9]+$/.test(item)) {
      throw new SettingParseError(
        `expected comma-separated ENR texts (enr:...) or multiaddrs (/ip4/<ip>/tcp/<port>/p2p/<peer id>), got "${item.slice(0, 60)}"`,
      );
    }
  }
  return items;
}

const list = (v: readonly string[]) => (v.length === 0 ? '(none)' : v.join(','));

/**
 * The libp2p peer of the node (docs/network.md): off by default, so a dev node and its tests talk to nobody.
 * Names follow 4.1.2's (P2P_ENABLED, P2P_PORT, ...) under the node's prefix.
 */
export const P2P_SETTINGS = {
  p2pEnabled: setting<boolean>({
    key: 'p2pEnabled',
    flag: 'p2p-enabled',
    env: 'NODE_P2P_ENABLED',
    defaultValue: false,
    parse: parseBoolean,
    kind: 'boolean',
    group: 'P2P',
    description:
      'Joins the libp2p network: gossips txs, answers status/ping/tx/block/block_txs requests, finds peers with discv5 (docs/network.md).',
  }),
  p2pPort: setting<number>({
    key: 'p2pPort',
    flag: 'p2p-port',
    env: 'NODE_P2P_PORT',
    defaultValue: 40400,
    parse: parsePort,
    kind: 'string',
    group: 'P2P',
    description: 'TCP port of libp2p and UDP port of discv5 (0 picks free ports, for tests on one machine).',
  }),
  p2pListenAddress: setting<string>({
    key: 'p2pListenAddress',
    flag: 'p2p-listen-address',
    env: 'NODE_P2P_LISTEN_ADDR',
    defaultValue: '0.0.0.0',
    parse: parseHost,
    kind: 'string',
    group: 'P2P',
    description: 'Address libp2p (TCP) and discv5 (UDP) bind.',
  }),
  p2pIp: setting<string | undefined>({
    key: 'p2pIp',
    flag: 'p2p-ip',
    env: 'NODE_P2P_IP',
    defaultValue: undefined,
    parse: parseHost,
    kind: 'string',
    group: 'P2P',
    description:
      'IPv4 address announced in the ENR (what other machines dial); unset: the listen address when it is not 0.0.0.0, else 127.0.0.1.',
  }),
  p2pBroadcastPort: setting<number | undefined>({
    key: 'p2pBroadcastPort',
    flag: 'p2p-broadcast-port',
    env: 'NODE_P2P_BROADCAST_PORT',
    defaultValue: undefined,
    parse: parseInteger(1, 65535),
    kind: 'string',
    group: 'P2P',
    description: 'Port announced in the ENR when it differs from the bound one (behind NAT or a port mapping).',
  }),
  bootstrapNodes: setting<readonly string[]>({
    key: 'bootstrapNodes',
    flag: 'bootstrap-nodes',
    env: 'NODE_BOOTSTRAP_NODES',
    defaultValue: [],
    parse: parseEnrList,
    format: list,
    kind: 'string',
    group: 'P2P',
    description: 'ENRs (enr:..., comma-separated) of the nodes to dial first and to ask discv5 for more peers.',
  }),
  trustedPeers: setting<readonly string[]>({
    key: 'trustedPeers',
    flag: 'p2p-trusted-peers',
    env: 'NODE_P2P_TRUSTED_PEERS',
    defaultValue: [],
    parse: parsePeerList,
    format: list,
    kind: 'string',
    group: 'P2P',
    description:
      'Peers (ENRs or /ip4/../tcp/../p2p/<id>) always dialled and redialled, never scored down nor banned; they count in max peers.',
  }),
  preferredPeers: setting<readonly string[]>({
    key: 'preferredPeers',
    flag: 'p2p-preferred-peers',
    env: 'NODE_P2P_PREFERRED_PEERS',
    defaultValue: [],
    parse: parsePeerList,
    format: list,
    kind: 'string',
    group: 'P2P',
    description:
      'Peers (ENRs or multiaddrs) dialled and redialled and made direct gossipsub peers (every message goes to them).',
  }),
  maxPeers: setting<number>({
    key: 'maxPeers',
    flag: 'p2p-max-peers',
    env: 'NODE_P2P_MAX_PEERS',
    defaultValue: 100,
    parse: parseInteger(1, 10_000),
    kind: 'string',
    group: 'P2P',
    description: 'Most peers kept connected; discovery stops dialling at this count (4.1.2 P2P_MAX_PEERS).',
  }),
  peerIdPrivateKeyPath: setting<string | undefined>({
    key: 'peerIdPrivateKeyPath',
    flag: 'peer-id-private-key-path',
    env: 'NODE_PEER_ID_PRIVATE_KEY_PATH',
    defaultValue: undefined,
    parse: (raw) => raw.trim(),
    kind: 'string',
    group: 'P2P',
    description:
      'File holding the secp256k1 peer key (32 bytes hex); made once with mode 0600 if absent. Unset: <data directory>/p2p/peer-key, or a new key in memory without a data directory.',
  }),
} as const;

export type P2PConfig = SettingValues<typeof P2P_SETTINGS>;
