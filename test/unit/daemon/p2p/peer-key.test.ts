import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultPeerKeyPath, loadOrCreatePeerKey } from '../../../../src/daemon/p2p/peer-key.js';

const dir = mkdtempSync(join(tmpdir(), 'l2node-peer-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the peer key', () => {
  it('is made once in the data directory with mode 0600 and read back the same', () => {
    const path = defaultPeerKeyPath(dir);
    const first = loadOrCreatePeerKey(path);
    expect(first.created).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = loadOrCreatePeerKey(path);
    expect(again.created).toBe(false);
    expect(Buffer.from(again.key).equals(Buffer.from(first.key))).toBe(true);
  });

  it('lives in memory without a path, and a file that is no key is refused with a clear error', () => {
    expect(loadOrCreatePeerKey(undefined).created).toBe(false);
    const bad = join(dir, 'bad');
    writeFileSync(bad, 'hello');
    expect(() => loadOrCreatePeerKey(bad)).toThrow(/must hold 64 hex digits/);
  });
});
