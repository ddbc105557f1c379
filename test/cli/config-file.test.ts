import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { envelopeOf, l2node } from '../helpers/cli.js';
import { result } from '../helpers/mempool-e2e.js';
import { spawnNode } from '../helpers/spawn-node.js';

/**
 * `--config FILE` over the real binary: `l2node config` shows each value's source (file below flags and env),
 * `--dump` writes a file that starts the same node, and a node started with a file runs with its values.
 */
const dir = mkdtempSync(join(tmpdir(), 'l2node-config-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Row = { key: string; value: unknown; source: string };
const rows = (run: Awaited<ReturnType<typeof l2node>>) =>
  new Map(((envelopeOf(run).result as { settings: Row[] }).settings ?? []).map((r) => [r.key, r]));

describe('l2node config --config / --dump', () => {
  it('shows where each value came from: flag > env > file > default', async () => {
    const file = join(dir, 'node.toml');
    writeFileSync(file, 'rollupVersion = 77\nslotDuration = 8\nmaxPendingTxCount = 5\n');
    const run = await l2node(['config', '--config', file, '--slot-duration', '6', '--json'], {
      env: { NODE_MAX_PENDING_TX_COUNT: '9' },
    });
    expect(run.code, run.stderr).toBe(0);
    const settings = rows(run);
    expect(settings.get('rollupVersion')).toMatchObject({ value: 77, source: 'file' });
    expect(settings.get('slotDuration')).toMatchObject({ value: 6, source: 'flag' });
    expect(settings.get('maxPendingTxCount')).toMatchObject({ value: 9, source: 'env' });
    expect(settings.get('epochDuration')).toMatchObject({ source: 'default' });
  });

  it('a dumped file gives the same settings, and an unknown key is one line with the closest key', async () => {
    const dump = await l2node(['config', '--rollup-version', '5', '--slot-duration', '12', '--dump']);
    expect(dump.code, dump.stderr).toBe(0);
    expect(dump.stdout).toMatch(/^rollupVersion = "5"$/m);
    const file = join(dir, 'dumped.toml');
    writeFileSync(file, dump.stdout);
    const back = rows(await l2node(['config', '--config', file, '--json']));
    expect(back.get('rollupVersion')).toMatchObject({ value: 5, source: 'file' });
    expect(back.get('slotDuration')).toMatchObject({ value: 12, source: 'file' });

    const typo = join(dir, 'typo.json');
    writeFileSync(typo, '{"rollupVersoin": 3}');
    const refused = await l2node(['start', '--config', typo]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${typo}: unknown setting "rollupVersoin", did you mean "rollupVersion"?`);
  });

  it('a node started with a config file runs with its values', async () => {
    const file = join(dir, 'start.toml');
    writeFileSync(file, 'rollupVersion = 42\nl1ChainId = 4242\n');
    const node = await spawnNode({ args: ['--config', file] });
    try {
      const info = await result<{ rollupVersion: number; l1ChainId: number }>(node.publicUrl, 'node_getNodeInfo');
      expect(info).toMatchObject({ rollupVersion: 42, l1ChainId: 4242 });
    } finally {
      await node.stop();
    }
  });
});
