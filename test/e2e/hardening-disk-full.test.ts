import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postJson, type RunningNode, rpc, runCli, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * Disk full (issue 16, item 6), on a small tmpfs holding the data directory: writes answer the stable
 * STORAGE_FULL error naming the directory (not -32603), GET /status, node_isReady and `l2node status` say not
 * ready with the reason, the episode is logged once, and the node is ready again by itself once space returns.
 * Mounting needs privileges: where `mount -t tmpfs` is refused, the test is skipped and says why.
 */
const mountPoint = mkdtempSync(join(tmpdir(), 'l2node-tmpfs-'));
let mountRefused: string | undefined;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint], { stdio: 'pipe' });
} catch (err) {
  mountRefused = `mount -t tmpfs is not permitted here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`;
}

let node: RunningNode | undefined;
afterAll(async () => {
  await node?.stop();
  if (!mountRefused) execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

type Answer = { result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } };

describe.skipIf(mountRefused !== undefined)(
  `disk full on a small tmpfs${mountRefused ? ` (skipped: ${mountRefused})` : ''}`,
  () => {
    it('answers STORAGE_FULL, is not ready with the reason, logs it once, and recovers by itself', async () => {
      const dir = join(mountPoint, 'data');
      mkdirSync(dir);
      node = await spawnNode({
        args: [
          '--disable-admin-api-key',
          '--data-directory',
          dir,
          ...[
            '--slot-duration',
            '1',
            '--blocks-per-slot',
            '4',
            '--sequencer-mode',
            'interval',
            '--min-txs-per-block',
            '0',
          ],
        ],
      });
      const url = node.publicUrl;
      // Fill the file system.
      const filler = join(mountPoint, 'filler');
      fill(filler);
      // Writes of about 90 KB each until one finds no room (the WAL may still have some).
      let refused: Answer['error'];
      for (let call = 0; call < 200 && !refused; call++) {
        const signatures = Array.from({ length: 100 }, (_, i) => `fill_${call}_${i}(${'Field,'.repeat(150)}Field)`);
        const a = (await postJson(url, rpc('node_registerContractFunctionSignatures', [signatures]))).body as Answer;
        refused = a.error;
      }
      expect(refused).toMatchObject({ code: -32009, data: { code: 'STORAGE_FULL', dataDirectory: dir } });
      expect(refused?.message).toContain(`cannot write to its data directory ${dir}: its disk is full`);
      const status = (await (await fetch(`${url}/status`)).json()) as { ready: boolean; notReadyReason?: string };
      expect(status.ready).toBe(false);
      expect(status.notReadyReason).toContain(dir);
      expect(((await postJson(url, rpc('node_isReady'))).body as Answer).result).toBe(false);
      const cli = await runCli(['status', '--node-url', url, '--admin-url', node.adminUrl, '--json']);
      const shown = JSON.parse(cli.stdout) as { result: { node: { ready: boolean; notReadyReason?: string } } };
      expect(shown.result.node).toMatchObject({
        ready: false,
        notReadyReason: expect.stringContaining('its disk is full'),
      });
      // Space returns: the node is ready again by itself, and writes succeed.
      rmSync(filler);
      await until('ready again', async () => {
        const s = (await (await fetch(`${url}/status`)).json()) as { ready: boolean };
        return s.ready ? true : undefined;
      });
      const ok = (await postJson(url, rpc('node_registerContractFunctionSignatures', [['after_recovery(Field)']])))
        .body as Answer;
      expect(ok.error).toBeUndefined();
      const lines = node.logs().map((l) => String(l.msg));
      expect(lines.filter((m) => m.includes('cannot write to its data directory'))).toHaveLength(1);
      expect(lines.filter((m) => m.includes('is writable again'))).toHaveLength(1);
      expect(lines.some((m) => m.startsWith('sequencer step failed'))).toBe(false);
    }, 90_000);

    it('a restart while the disk is still full says STORAGE_FULL naming the directory, not a bare ENOSPC', async () => {
      const dir = join(mountPoint, 'data');
      await node?.stop();
      node = undefined;
      const filler = join(mountPoint, 'filler');
      fill(filler);
      try {
        const restart = spawnNodeProcess({ args: ['--disable-admin-api-key', '--data-directory', dir] });
        expect((await restart.exited).code).toBe(1);
        const fatal = restart.logs().find((l) => String(l.msg).startsWith('node failed to start'));
        expect(fatal?.msg).toContain(
          `node failed to start: STORAGE_FULL: the node cannot write to its data directory ${dir}: its disk is full`,
        );
      } finally {
        rmSync(filler);
      }
    }, 60_000);
  },
);

/** Writes `file` until the file system has no room left. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(256 * 1024, 7);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    closeSync(fd);
  }
}
