import { describe, expect, it } from 'vitest';
import { type L1Config, l1SettingsConflict } from '../../../../src/daemon/l1/l1-settings.js';

const NONE: L1Config & { syncFrom: string | undefined } = {
  l1: undefined,
  l1Port: 8545,
  l1RpcUrls: undefined,
  registryAddress: undefined,
  l1DeployerPrivateKey: undefined,
  syncFrom: undefined,
};
const conflict = (over: Partial<typeof NONE>) => l1SettingsConflict({ ...NONE, ...over });
const URLS = ['http://127.0.0.1:8545'];
const REGISTRY = `0x${'12'.repeat(20)}`;
const FOLLOWER = { syncFrom: 'http://127.0.0.1:8080' };

describe('L1 settings on a follower', () => {
  it('takes --l1-rpc-urls with --registry-address', () => {
    expect(conflict({ ...FOLLOWER, l1RpcUrls: URLS, registryAddress: REGISTRY })).toBeUndefined();
    expect(conflict(FOLLOWER)).toBeUndefined();
  });

  it('refuses what would deploy: --l1 anvil, --l1-rpc-urls alone, a deployer key', () => {
    expect(conflict({ ...FOLLOWER, l1: 'anvil' })).toMatch(
      /^a follower \(--sync-from\) never deploys, so it cannot run its own anvil/,
    );
    expect(conflict({ ...FOLLOWER, l1: 'anvil', registryAddress: REGISTRY })).toMatch(/cannot run its own anvil/);
    expect(conflict({ ...FOLLOWER, l1RpcUrls: URLS })).toMatch(/with --l1-rpc-urls needs --registry-address/);
    expect(
      conflict({
        ...FOLLOWER,
        l1RpcUrls: URLS,
        registryAddress: REGISTRY,
        l1DeployerPrivateKey: `0x${'1'.repeat(64)}`,
      }),
    ).toBe('--l1-deployer-private-key: a follower (--sync-from) never deploys nor publishes to L1');
  });

  it('keeps the rules of a node without --sync-from', () => {
    expect(conflict({ l1RpcUrls: URLS })).toBeUndefined();
    expect(conflict({ l1: 'anvil' })).toBeUndefined();
    expect(conflict({ registryAddress: REGISTRY })).toMatch(/needs an L1/);
    expect(conflict({ l1: 'anvil', l1RpcUrls: URLS })).toMatch(/not both/);
  });
});
