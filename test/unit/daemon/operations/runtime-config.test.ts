import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import { SETTINGS, type SettingKey } from '../../../../src/daemon/config/settings.js';
import { ConfigUpdateError, RuntimeConfig, runtimeSettings } from '../../../../src/daemon/operations/runtime-config.js';

const HASH = 'a'.repeat(64);

function fresh() {
  const { config } = resolveConfig({ 'admin-api-key-hash': HASH }, {});
  const applied: SettingKey[][] = [];
  return { config, applied, runtime: new RuntimeConfig(config, (keys) => applied.push([...keys])) };
}

describe('nodeAdmin_getConfig', () => {
  it('returns the runtime rows of the settings table as JSON, under the reference key names', () => {
    const { runtime } = fresh();
    const got = runtime.get();
    expect(got).toMatchObject({
      maxPendingTxCount: 1000,
      archiverPollingIntervalMS: 500,
      maxTxsPerBlock: 64,
      minTxsPerBlock: 1,
      maxL2BlockGas: 100_000_000,
      coinbase: '0x0000000000000000000000000000000000000000',
      feeRecipient: `0x${'0'.repeat(64)}`,
      txPublicSetupAllowListExtend: [],
      slotDuration: 4,
      blocksPerSlot: 2,
    });
    // Survives JSON as is: no bigint, no class instance.
    expect(JSON.parse(JSON.stringify(got))).toEqual(got);
    expect(Object.keys(got).sort()).toEqual(
      runtimeSettings()
        .map(([k]) => k)
        .sort(),
    );
  });

  it('never returns a secret nor a setting that only a restart changes', () => {
    const { runtime } = fresh();
    const got = runtime.get();
    expect(got).not.toHaveProperty('adminApiKeyHash');
    expect(JSON.stringify(got)).not.toContain(HASH);
    for (const [key, s] of Object.entries(SETTINGS)) {
      if (s.secret || !(s as { runtime?: boolean }).runtime) expect(got).not.toHaveProperty(key);
    }
  });
});

describe('nodeAdmin_setConfig', () => {
  it('applies every key at once on the config object itself and reports what changed', () => {
    const { config, runtime, applied } = fresh();
    const changed = runtime.set({
      maxPendingTxCount: 5,
      archiverPollingIntervalMS: '250',
      coinbase: '0x00000000000000000000000000000000000000aa',
      txPublicSetupAllowListExtend: [{ address: `0x${'0'.repeat(63)}5`, selector: '0x12345678', onlySelf: true }],
    });
    expect(config.maxPendingTxCount).toBe(5);
    expect(config.archiverPollingIntervalMS).toBe(250);
    expect(config.coinbase.toString()).toBe('0x00000000000000000000000000000000000000aa');
    expect(changed).toEqual({
      maxPendingTxCount: 5,
      archiverPollingIntervalMS: 250,
      coinbase: '0x00000000000000000000000000000000000000aa',
      txPublicSetupAllowListExtend: [{ address: `0x${'0'.repeat(63)}5`, selector: '0x12345678', onlySelf: true }],
    });
    expect(applied).toEqual([
      ['maxPendingTxCount', 'archiverPollingIntervalMS', 'coinbase', 'txPublicSetupAllowListExtend'],
    ]);
    expect(runtime.get().maxPendingTxCount).toBe(5);
  });

  it('with one bad key among good ones changes nothing and names the bad key', () => {
    const { config, runtime, applied } = fresh();
    const before = runtime.get();
    let err: unknown;
    try {
      runtime.set({ maxPendingTxCount: 5, slotDuration: 0, minTxsPerBlock: 0 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigUpdateError);
    expect((err as ConfigUpdateError).problems).toEqual(['slotDuration: expected an integer from 1 to 3600, got 0']);
    expect(runtime.get()).toEqual(before);
    expect(config.maxPendingTxCount).toBe(1000);
    expect(applied).toEqual([]);
  });

  it('names unknown keys, keys a restart changes, nulls and wrong types, all in one error', () => {
    const { runtime } = fresh();
    let err: ConfigUpdateError | undefined;
    try {
      runtime.set({
        maxTxPoolSize: 10,
        port: 1234,
        maxPendingTxCount: null,
        coinbase: 12,
        feeRecipient: '0x12',
        txPublicSetupAllowListExtend: [{ selector: '0x12345678' }],
      });
    } catch (e) {
      err = e as ConfigUpdateError;
    }
    expect(err?.problems).toEqual([
      'unknown key maxTxPoolSize',
      'port cannot be changed at runtime (restart with --port)',
      'maxPendingTxCount: expected a value, got null',
      'coinbase: expected a string, got number 12',
      expect.stringMatching(/^feeRecipient: expected an L2 address \(0x \+ 64 hex digits\), got "0x12"/),
      'txPublicSetupAllowListExtend: entry 0: give exactly one of address and classId',
    ]);
    expect(err?.message).toMatch(/^setConfig changed nothing: unknown key maxTxPoolSize; port cannot/);
  });

  it('an empty object changes nothing', () => {
    const { runtime, applied } = fresh();
    expect(runtime.set({})).toEqual({});
    expect(applied).toEqual([]);
  });
});
