import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { quickListen } from '../../src/rpc/server/quick-listen.js';

describe('quickListen', () => {
  it('binds as a plain listen does and answers what the callback answers; its failure is passed on', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    const port = await quickListen(
      () =>
        new Promise<number>((resolve) =>
          server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
        ),
    );
    try {
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
      const taken = createServer();
      await expect(
        quickListen(
          () =>
            new Promise<void>((resolve, reject) => {
              taken.once('error', reject);
              taken.listen(port, '127.0.0.1', resolve);
            }),
        ),
      ).rejects.toThrow(/EADDRINUSE/);
      // Regular expressions compiled after it (with V8's optimisation back on) answer as always.
      expect(/^(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}$/.test('fe80:0:0:0:0:0:0:1')).toBe(true);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
