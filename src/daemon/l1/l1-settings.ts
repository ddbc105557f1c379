import { parseEnum, parseEthAddress, parseHttpUrl, parsePort } from '../config/parsers.js';
import { SettingParseError, type SettingValues, setting } from '../config/setting.js';

/** `--l1-rpc-urls`: one or more http(s) URLs, comma-separated, tried in order. */
function parseRpcUrls(raw: string): readonly string[] {
  const urls = raw
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u.length > 0);
  if (urls.length === 0) throw new SettingParseError('expected one or more http(s) URLs separated by commas');
  return urls.map(parseHttpUrl);
}

function parsePrivateKey(raw: string): string {
  const s = raw.trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(s)) throw new SettingParseError('expected 0x and 64 hex digits');
  return s.toLowerCase();
}

/** The node's L1 (src/daemon/l1, docs/l1.md): none (the dev stand-in), anvil run by the node, or an EVM chain. */
export const L1_SETTINGS = {
  l1: setting<'anvil' | undefined>({
    key: 'l1',
    flag: 'l1',
    env: 'NODE_L1',
    defaultValue: undefined,
    parse: parseEnum(['anvil'] as const),
    kind: 'string',
    group: 'L1',
    description:
      "anvil: run anvil 1.7.1 (from npm) as the node's L1, with its state in the data directory, and deploy " +
      "Aztec's L1 contracts on it (docs/l1.md). Unset: no L1, the dev stand-in settles checkpoints instantly.",
  }),
  l1Port: setting<number>({
    key: 'l1Port',
    flag: 'l1-port',
    env: 'NODE_L1_PORT',
    defaultValue: 8545,
    parse: parsePort,
    kind: 'string',
    group: 'L1',
    description:
      "--l1 anvil: the port anvil listens on (127.0.0.1), as Aztec's local network; when another process holds " +
      'it, anvil takes a port the system picks and says so. 0: always one the system picks.',
  }),
  l1RpcUrls: setting<readonly string[] | undefined>({
    key: 'l1RpcUrls',
    flag: 'l1-rpc-urls',
    env: 'ETHEREUM_HOSTS',
    defaultValue: undefined,
    parse: parseRpcUrls,
    format: (v) => (v ? v.join(',') : ''),
    toJson: (v) => (v ? [...v] : v),
    kind: 'string',
    group: 'L1',
    description:
      'Attach to an existing EVM chain at these JSON-RPC URLs (comma-separated, tried in order); its chain id must ' +
      "be --l1-chain-id. On a follower (--sync-from): the L1 its upstream's checkpoints are checked on.",
  }),
  registryAddress: setting<string | undefined>({
    key: 'registryAddress',
    flag: 'registry-address',
    env: 'REGISTRY_CONTRACT_ADDRESS',
    defaultValue: undefined,
    parse: parseEthAddress,
    kind: 'string',
    group: 'L1',
    description:
      "Settle on the Aztec deployment of this registry (every address is read from it); unset: deploy Aztec's L1 " +
      'contracts once and keep using them. A follower with an L1 needs it (it never deploys).',
  }),
  l1DeployerPrivateKey: setting<string | undefined>({
    key: 'l1DeployerPrivateKey',
    flag: 'l1-deployer-private-key',
    env: 'L1_DEPLOYER_PRIVATE_KEY',
    defaultValue: undefined,
    parse: parsePrivateKey,
    secret: true,
    kind: 'string',
    group: 'L1',
    description: "Key of the L1 account that deploys the contracts; default: anvil's first test account.",
  }),
} as const;

export type L1Config = SettingValues<typeof L1_SETTINGS>;

/**
 * True when the node runs with an L1 (`--l1 anvil` or `--l1-rpc-urls`). Here with the settings, not with the L1
 * service: the composition root asks it before it loads the L1 stack (viem, the artifacts), which a node without
 * an L1 never loads.
 */
export function hasL1(config: L1Config): boolean {
  return config.l1 !== undefined || config.l1RpcUrls !== undefined;
}

/** L1 settings that cannot go together, or that need an L1; the message names the flags. */
export function l1SettingsConflict(config: L1Config & { readonly syncFrom: string | undefined }): string | undefined {
  if (config.l1 === 'anvil' && config.l1RpcUrls) {
    return '--l1 anvil runs its own L1: give either it or --l1-rpc-urls (ETHEREUM_HOSTS), not both';
  }
  const l1 = hasL1(config);
  if (!l1 && config.registryAddress) return '--registry-address needs an L1: add --l1-rpc-urls or --l1 anvil';
  if (!l1 && config.l1DeployerPrivateKey) {
    return '--l1-deployer-private-key needs an L1: add --l1-rpc-urls or --l1 anvil';
  }
  // A follower checks its upstream's checkpoints on the deployment the upstream settles on: it never deploys.
  if (config.syncFrom && config.l1 === 'anvil') {
    return (
      'a follower (--sync-from) never deploys, so it cannot run its own anvil: give the L1 its upstream settles ' +
      'on with --l1-rpc-urls and --registry-address'
    );
  }
  if (config.syncFrom && config.l1RpcUrls && !config.registryAddress) {
    return "a follower (--sync-from) with --l1-rpc-urls needs --registry-address: the registry of its upstream's deployment (it never deploys)";
  }
  if (config.syncFrom && config.l1DeployerPrivateKey) {
    return '--l1-deployer-private-key: a follower (--sync-from) never deploys nor publishes to L1';
  }
  return undefined;
}
