import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PrivateDatabaseFile } from '../../../../src/daemon/store/private-database-file.js';
import { untilTrue } from '../../../helpers/until.js';

describe('PrivateDatabaseFile', () => {
  it('removes the directory of a killed in-memory node (its pid gone) once it is made, and keeps a live one', async () => {
    // A pid that was alive a moment ago and is not any more.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const orphan = join(tmpdir(), `l2node-memory-${dead}-test${process.pid}`);
    mkdirSync(orphan);
    writeFileSync(join(orphan, 'l2node.sqlite'), '');
    // Its own parent is alive: a node of another process that still runs.
    const alive = join(tmpdir(), `l2node-memory-${process.ppid}-test${process.pid}`);
    mkdirSync(alive);
    const file = new PrivateDatabaseFile();
    try {
      expect(existsSync(file.path)).toBe(true);
      await untilTrue('the orphan directory to be removed', () => !existsSync(orphan), { intervalMs: 10 });
      expect(existsSync(alive)).toBe(true);
    } finally {
      file.remove();
      for (const dir of [orphan, alive]) rmSync(dir, { recursive: true, force: true });
    }
    expect(existsSync(file.directory)).toBe(false);
  });
});
