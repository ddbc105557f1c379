import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLogLevelSpec } from '../../../../src/daemon/logging/log-levels.js';
import { toLogfmt } from '../../../../src/daemon/logging/logfmt.js';
import { NodeLogger } from '../../../../src/daemon/logging/logger.js';

const dir = mkdtempSync(join(tmpdir(), 'l2node-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('log output: logfmt and a rotated log file', () => {
  it('logfmt puts time, level, module and msg first, quotes what needs it, and writes nested values as JSON', () => {
    const line = toLogfmt(
      JSON.stringify({
        level: 30,
        time: 0,
        module: 'rpc',
        msg: 'block 7 built',
        txs: 2,
        hash: '0xab',
        extra: { a: 'b c' },
      }),
    );
    expect(line).toBe(
      'time=1970-01-01T00:00:00.000Z level=info module=rpc msg="block 7 built" txs=2 hash=0xab extra="{\\"a\\":\\"b c\\"}"\n',
    );
  });

  it('--log-file: a 0600 file in the chosen format, rotated by size, the newest part .1, at most N parts', () => {
    const path = join(dir, 'node.log');
    const logger = new NodeLogger({
      spec: parseLogLevelSpec('info'),
      format: 'logfmt',
      file: { path, maxBytes: 2000, maxFiles: 2 },
    });
    const log = logger.module('test');
    for (let i = 0; i < 100; i++) log.info({ i }, `line ${i}`);
    const parts = readdirSync(dir)
      .filter((f) => f.startsWith('node.log'))
      .sort();
    expect(parts).toEqual(['node.log', 'node.log.1', 'node.log.2']);
    for (const part of parts) {
      expect(statSync(join(dir, part)).size).toBeLessThanOrEqual(2000);
      expect(statSync(join(dir, part)).mode & 0o777).toBe(0o600);
    }
    const current = readFileSync(path, 'utf8').trim().split('\n');
    expect(current.at(-1)).toMatch(/^time=\S+ level=info module=test msg="line 99" pid=\d+ i=99$/);
    // The parts hold consecutive lines, oldest kept in .2; older ones are gone.
    const newestRotated = readFileSync(`${path}.1`, 'utf8').trim().split('\n').at(-1);
    const firstCurrent = Number(/i=(\d+)$/.exec(current[0] as string)?.[1]);
    expect(newestRotated).toMatch(new RegExp(`i=${firstCurrent - 1}$`));
    expect(readFileSync(`${path}.2`, 'utf8')).not.toMatch(/msg="line 0"/);
  });
});
