import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderConfigFile, settingValueText } from '../../../../src/daemon/config/config-file.js';
import { ConfigError, describeConfig, resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import type { Setting } from '../../../../src/daemon/config/setting.js';
import { SETTINGS, type SettingKey } from '../../../../src/daemon/config/settings.js';

const dir = mkdtempSync(join(tmpdir(), 'l2node-config-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const ADDRESS = `0x${'11'.repeat(32)}`;
/** Settings given a value other than their default, of every kind of value the table has. */
const GIVEN = {
  port: '9001',
  'data-directory': '/srv/l2node',
  'slot-duration': '12',
  'prefunded-accounts': `${ADDRESS}:1000`,
  'tx-public-setup-allow-list-extend': `I:${ADDRESS}:0x12345678:os`,
  'log-level': 'debug; info: rpc',
  coinbase: '0x00000000000000000000000000000000000000aa',
  'sponsored-fpc': 'false',
};

function dumpRows(resolved: ReturnType<typeof resolveConfig>) {
  return (Object.entries(SETTINGS) as [SettingKey, Setting<unknown>][])
    .filter(([key]) => key !== 'configFile')
    .map(([key, s]) => ({
      key,
      flag: s.flag,
      description: s.description,
      text: resolved.config[key] === undefined ? undefined : settingValueText(s, resolved.config[key]),
      source: resolved.sources[key],
      secret: s.secret ?? false,
    }));
}

const printed = (r: ReturnType<typeof resolveConfig>) =>
  describeConfig(r)
    .filter((row) => row.key !== 'configFile')
    .map(({ key, value }) => [key, value]);

describe('config file (--config): the same keys as the settings table, flag > env > file > default', () => {
  it.each(['toml', 'json'] as const)('a dumped %s file reads back as the same settings, from the file', (format) => {
    const given = resolveConfig(GIVEN, {});
    const path = file(`dump.${format}`, renderConfigFile(dumpRows(given), format));
    const again = resolveConfig({ config: path }, {});
    expect(printed(again)).toEqual(printed(given));
    expect(again.sources.port).toBe('file');
    expect(again.sources.slotDuration).toBe('file');
  });

  it('flags win over env, env over the file, the file over defaults', () => {
    const path = file(
      'p.toml',
      'port = 9000\nadminPort = 9100\nslotDuration = 8\nl1RpcUrls = ["http://a:1", "http://b:2"]\n',
    );
    const r = resolveConfig({ config: path, port: '9500' }, { NODE_ADMIN_PORT: '9200' });
    expect([r.config.port, r.sources.port]).toEqual([9500, 'flag']);
    expect([r.config.adminPort, r.sources.adminPort]).toEqual([9200, 'env']);
    expect([r.config.slotDuration, r.sources.slotDuration]).toEqual([8, 'file']);
    expect(r.config.l1RpcUrls).toEqual(['http://a:1', 'http://b:2']);
    expect(r.sources.epochDuration).toBe('default');
    // The env twin names the file too.
    expect(resolveConfig({}, { NODE_CONFIG_FILE: path }).config.port).toBe(9000);
  });

  it('refuses an unknown key naming the closest one, a bad value naming the key and file, and a file that does not parse', () => {
    const typo = file('typo.toml', 'prot = 9000\n');
    expect(() => resolveConfig({ config: typo }, {})).toThrow(
      new ConfigError(
        `${typo}: unknown setting "prot", did you mean "port"? (the keys are those of docs/configuration.md)`,
      ),
    );
    const flagName = file('flag.json', '{"data-directory": "./x"}');
    expect(() => resolveConfig({ config: flagName }, {})).toThrow(
      /unknown setting "data-directory", did you mean "dataDirectory"\?/,
    );
    const bad = file('bad.toml', 'port = "eighty"\n');
    expect(() => resolveConfig({ config: bad }, {})).toThrow(
      new RegExp(`^invalid value for port in ${bad} \\(--port\\): `),
    );
    const broken = file('broken.toml', 'port = = 1\n');
    expect(() => resolveConfig({ config: broken }, {})).toThrow(/is not valid TOML/);
    expect(() => resolveConfig({ config: join(dir, 'missing.toml') }, {})).toThrow(
      /cannot read the config file .*: no such file/,
    );
    const nested = file('nested.json', '{"port": {"value": 1}}');
    expect(() => resolveConfig({ config: nested }, {})).toThrow(/invalid value for port in .*expected text, a number/);
  });

  it('never writes a secret into a dumped file', () => {
    const secret = 'a'.repeat(64);
    const r = resolveConfig({ 'admin-api-key-hash': secret }, {});
    for (const format of ['toml', 'json'] as const) expect(renderConfigFile(dumpRows(r), format)).not.toContain(secret);
  });
});
