import { TEST_ACCOUNTS } from '../core/test-accounts.js';
import { ConfigError, resolveConfig } from '../daemon/config/resolve-config.js';
import { NodeLogger } from '../daemon/logging/logger.js';
import { L2Node } from '../daemon/node.js';
import type { StartedNode, StartNodeOptions } from './api-types.js';
import { devCheats } from './dev-cheats.js';

/** Flags startNode always sets, unless the caller names the same flag. */
const DEFAULT_FLAGS: Readonly<Record<string, string>> = {
  port: '0',
  'admin-port': '0',
  host: '127.0.0.1',
  'log-level': 'error',
  'log-format': 'json',
  // A test fixture starts as quickly as `l2node start` serves: 4.1.2's local network set-up (a minute of
  // deployments) only when asked for with `'local-network-setup': 'true'`, and then awaited.
  'local-network-setup': 'false',
};

/**
 * Starts a dev node in this process, as `l2node start` starts one (the same L2Node), on free ports of 127.0.0.1,
 * in memory; answers once it serves. In this process rather than a child: a start then costs what the node's
 * own start-up costs, without a second Node.js loading the daemon (docs/dev-chain.md measures both), and it
 * stops with the test that started it.
 */
export async function startNode(options: StartNodeOptions = {}): Promise<StartedNode> {
  const flags: Record<string, string | boolean> = {
    ...DEFAULT_FLAGS,
    ...options.flags,
    ...(options.logLevel ? { 'log-level': options.logLevel } : {}),
  };
  let resolved: ReturnType<typeof resolveConfig>;
  try {
    resolved = resolveConfig(flags, {});
  } catch (err) {
    if (err instanceof ConfigError) throw new Error(`startNode: ${err.message}`);
    throw err;
  }
  const { config, sources } = resolved;
  if (config.syncFrom) throw new Error('startNode starts a dev chain: sync-from is for `l2node start`');
  const logger = new NodeLogger({ spec: config.logLevel, format: config.logFormat, destination: 'stderr' });
  const node = await L2Node.init(config, logger, { print: () => {}, sources });
  try {
    await node.start();
    // Asked for: the test's state starts where 4.1.2's local network starts, the accounts deployed.
    await node.localNetworkSetup?.finished();
  } catch (err) {
    await node.stop();
    throw err;
  }
  const key = node.rpc.adminKey;
  const adminApiKey = key.enabled ? key.newKey : undefined;
  const keysOf = new Map(TEST_ACCOUNTS.map((a) => [a.address.value, a]));
  return {
    publicUrl: node.rpc.publicUrl,
    adminUrl: node.rpc.adminUrl,
    adminApiKey,
    accounts: node.chain.prefundedAccounts.map((a) => {
      const keys = keysOf.get(a.address.value);
      return {
        address: a.address.toString(),
        feeJuice: a.amount,
        ...(keys ? { secret: keys.secret, salt: keys.salt, signingKey: keys.signingKey } : {}),
      };
    }),
    sponsoredFpc: node.chain.sponsoredFpc?.toString(),
    l1ChainId: config.l1ChainId,
    rollupVersion: config.rollupVersion,
    cheats: devCheats(node.rpc.adminUrl, adminApiKey),
    stop: () => node.stop(),
  };
}
