import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLogLevelSpec } from '../../src/daemon/logging/log-levels.js';
import { NodeLogger } from '../../src/daemon/logging/logger.js';
import { adminOk } from '../helpers/operations-e2e.js';
import { QUICK_EPOCH_FLAGS, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * What an operator reads in the log: one line per block with its txs, one line per move of the proven and
 * finalized tips, a periodic status line, one line per record on a terminal, and --log-file.
 */
const dir = mkdtempSync(join(tmpdir(), 'l2node-log-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('log lines', () => {
  it('a line per proven and finalized tip move, and a status line every --log-status-interval seconds', async () => {
    const node = await spawnNode({
      args: [...QUICK_EPOCH_FLAGS, '--log-status-interval', '1', '--disable-admin-api-key'],
    });
    try {
      await adminOk(node, 'nodeDev_mineBlocks', [2]);
      const proven = await node.waitForLog(
        (l) => /^proven tip moved to block \d+ \(checkpoint \d+; was block \d+\)$/.test(l.msg ?? ''),
        30_000,
      );
      expect(proven).toMatchObject({ level: 30, tip: 'proven', blockNumber: expect.any(Number) });
      await node.waitForLog((l) => /^finalized tip moved to block \d+/.test(l.msg ?? ''), 30_000);
      const status = await node.waitForLog(
        (l) =>
          /^status: block \d+, checkpointed \d+, proven \d+, finalized \d+; \d+ pending txs; synced$/.test(l.msg ?? ''),
        10_000,
      );
      expect(status).toMatchObject({ proposed: expect.any(Number), pendingTxs: 0, sync: 'synced' });
      const built = node.logs().find((l) => String(l.msg).startsWith('built block'));
      expect(built?.msg).toMatch(
        /^built block \d+: 0 txs, 0 mana, \d+ ms \(checkpoint \d+, slot \d+; tips \d+\/\d+\/\d+\/\d+ proposed\/checkpointed\/proven\/finalized\)$/,
      );
    } finally {
      await node.stop();
    }
  }, 90_000);

  it('on a terminal each record is one line: the fields stay in JSON and logfmt', () => {
    const path = join(dir, 'human.log');
    const log = new NodeLogger({
      spec: parseLogLevelSpec('info'),
      format: 'human',
      file: { path, maxBytes: 1e6, maxFiles: 1 },
    }).module('chain');
    log.info(
      { blockNumber: 7, txHashes: ['0x01'], mana: '465200' },
      'built block 7: 1 tx (0x01…0001), 465200 mana, 22 ms',
    );
    log.warn({ err: { message: 'disk full' } }, 'a listener failed');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: chain: built block 7: 1 tx \(0x01…0001\), 465200 mana, 22 ms$/,
    );
    expect(lines[1]).toMatch(/WARN: chain: a listener failed \(disk full\)$/);
  });

  it('--log-file: the log goes to the file (0600), the banner to stdout', async () => {
    const file = join(dir, 'node.log');
    const proc = spawnNodeProcess({ args: ['--log-file', file, '--disable-admin-api-key'] });
    try {
      await until('the log file to say the node runs', async () =>
        existsSync(file) && readFileSync(file, 'utf8').includes('"msg":"node running"') ? true : undefined,
      );
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(proc.stdout()).toMatch(/l2node/);
      expect(proc.stdout()).not.toContain('"msg":');
    } finally {
      await proc.stop();
    }
    const missing = spawnNodeProcess({ args: ['--log-file', join(dir, 'no', 'such', 'dir.log')] });
    expect((await missing.exited).code).toBe(2);
    expect(missing.stderr()).toMatch(/^l2node start: cannot open the log file .*no such file or directory/m);
  }, 60_000);
});
