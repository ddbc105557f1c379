import { describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import { SETTINGS } from '../../../../src/daemon/config/settings.js';

describe('resolveConfig: flag > env > default', () => {
  it('uses defaults when nothing is given', () => {
    const { config, sources } = resolveConfig({}, {});
    expect(config.port).toBe(8080);
    expect(config.adminPort).toBe(8880);
    expect(config.initialEthPerFeeAsset).toBe(10_000_000n);
    expect(config.botMinFeePadding).toBe(3);
    expect(config.dataDirectory).toBeUndefined();
    expect(sources.port).toBe('default');
    expect(sources.dataDirectory).toBe('unset');
  });
  it('env overrides the default, the flag overrides env', () => {
    expect(resolveConfig({}, { NODE_PORT: '9000' }).config.port).toBe(9000);
    const r = resolveConfig({ port: '9100' }, { NODE_PORT: '9000' });
    expect(r.config.port).toBe(9100);
    expect(r.sources.port).toBe('flag');
  });
  it('spec names: --initialEthPerFeeAsset / NODE_INITIAL_ETH_PER_FEE_ASSET, --bot.minFeePadding / BOT_MIN_FEE_PADDING', () => {
    expect(resolveConfig({}, { NODE_INITIAL_ETH_PER_FEE_ASSET: '5' }).config.initialEthPerFeeAsset).toBe(5n);
    expect(resolveConfig({ initialEthPerFeeAsset: '7' }, {}).config.initialEthPerFeeAsset).toBe(7n);
    expect(resolveConfig({}, { BOT_MIN_FEE_PADDING: '9' }).config.botMinFeePadding).toBe(9);
    expect(resolveConfig({ 'bot.minFeePadding': '1' }, {}).config.botMinFeePadding).toBe(1);
  });
  it('admin key settings by their spec names', () => {
    const hash = 'a'.repeat(64);
    expect(resolveConfig({}, { NODE_ADMIN_API_KEY_HASH: hash }).config.adminApiKeyHash).toBe(hash);
    expect(resolveConfig({ 'disable-admin-api-key': true }, {}).config.disableAdminApiKey).toBe(true);
    expect(resolveConfig({}, { NODE_RESET_ADMIN_API_KEY: 'true' }).config.resetAdminApiKey).toBe(true);
    expect(resolveConfig({}, { NODE_DISABLE_ADMIN_API_KEY: '0' }).config.disableAdminApiKey).toBe(false);
  });
  it('a bad value is one line naming the flag or the env var', () => {
    expect(() => resolveConfig({ port: '70000' }, {})).toThrow(
      new ConfigError('invalid value for --port: expected an integer from 0 to 65535, got 70000'),
    );
    expect(() => resolveConfig({}, { NODE_ADMIN_PORT: 'x' })).toThrow(/NODE_ADMIN_PORT \(--admin-port\)/);
    expect(() => resolveConfig({ 'admin-api-key-hash': 'ABC' }, {})).toThrow(
      /--admin-api-key-hash: .*64 lowercase hex/,
    );
    expect(() => resolveConfig({}, { NODE_DISABLE_ADMIN_API_KEY: 'maybe' })).toThrow(/expected true or false/);
    expect(() => resolveConfig({ initialEthPerFeeAsset: '-1' }, {})).toThrow(/--initialEthPerFeeAsset/);
    for (const msg of ['invalid value for --port', 'x']) expect(msg.includes('\n')).toBe(false);
  });
  it('the removed --bot.baseFeePadding / BOT_BASE_FEE_PADDING name the new flag', () => {
    expect(() => resolveConfig({ 'bot.baseFeePadding': '3' }, {})).toThrow(
      /--bot.baseFeePadding was removed in v4.0.0: use --bot.minFeePadding \(BOT_MIN_FEE_PADDING\)/,
    );
    expect(() => resolveConfig({}, { BOT_BASE_FEE_PADDING: '3' })).toThrow(/BOT_BASE_FEE_PADDING was removed/);
  });
  it('sizes accept units', () => {
    expect(resolveConfig({ 'rpc-max-body-size': '2mb' }, {}).config.rpcMaxBodySize).toBe(2 * 1024 * 1024);
    expect(resolveConfig({ 'rpc-max-body-size': '512kb' }, {}).config.rpcMaxBodySize).toBe(512 * 1024);
  });
});

describe('settings table', () => {
  it('flags and env vars are unique', () => {
    const rows = Object.values(SETTINGS);
    expect(new Set(rows.map((s) => s.flag)).size).toBe(rows.length);
    expect(new Set(rows.map((s) => s.env)).size).toBe(rows.length);
    expect(new Set(rows.map((s) => s.key)).size).toBe(rows.length);
  });
  it('every default parses back to itself through its own parser (defaults are valid values)', () => {
    for (const s of Object.values(SETTINGS)) {
      if (s.defaultValue === undefined || typeof s.defaultValue === 'object') continue;
      expect(s.parse(String(s.defaultValue)), s.key).toEqual(s.defaultValue);
    }
  });
  it('describeConfig redacts secrets and reports sources', () => {
    const rows = describeConfig(resolveConfig({ port: '1234' }, {}));
    const port = rows.find((r) => r.key === 'port');
    expect(port).toMatchObject({ value: '1234', source: 'flag', flag: '--port', env: 'NODE_PORT' });
    for (const r of rows) if (r.secret) expect(r.value === null || r.value === '<redacted>').toBe(true);
  });
});
