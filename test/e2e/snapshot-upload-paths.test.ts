/**
 * Where a file:// snapshot upload may write (issue 33): never into the node's own data directory nor another
 * node's, never through `..` or `%2e%2e`, only under --snapshot-upload-roots when set; the files it writes are
 * 0600 like the rest of the node's data. Two real nodes, each with a data directory.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, adminOk, pub, status } from '../helpers/operations-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

const root = mkdtempSync(join(tmpdir(), 'l2node-upload-paths-'));
const allowed = join(root, 'allowed');
const CHAIN = ['--sequencer-mode', 'interval', '--min-txs-per-block', '0', '--slot-duration', '1'];
let node: RunningNode;
let other: RunningNode;

beforeAll(async () => {
  mkdirSync(allowed);
  [node, other] = await Promise.all([
    spawnNode({ args: [...CHAIN, '--data-directory', join(root, 'node'), '--snapshot-upload-roots', allowed] }),
    spawnNode({ args: [...CHAIN, '--data-directory', join(root, 'other')] }),
  ]);
  await until('a block to snapshot', async () =>
    (await pub<number>(node, 'node_getBlockNumber')) > 0 ? true : undefined,
  );
});
afterAll(async () => {
  await Promise.all([node?.stop(), other?.stop()]);
  rmSync(root, { recursive: true, force: true });
});

async function refusal(location: string): Promise<string> {
  const answer = await admin(node, 'nodeAdmin_startSnapshotUpload', [location]);
  expect(answer.error?.code, `${location} must be refused`).toBe(-32602);
  return answer.error?.message ?? '';
}

describe('nodeAdmin_startSnapshotUpload to file:// paths', () => {
  it("refuses the node's own data directory and another node's", async () => {
    expect(await refusal(pathToFileURL(join(root, 'node', 'snaps')).href)).toMatch(
      /inside the node's own data directory/,
    );
    expect(await refusal(join(root, 'other'))).toMatch(/the data directory of an l2node node/);
    expect(await refusal(pathToFileURL(join(root, 'other', 'snaps')).href)).toMatch(
      /the data directory of an l2node node/,
    );
  });

  it('refuses traversal forms, plain or percent-encoded', async () => {
    expect(await refusal(`${pathToFileURL(allowed).href}/../node`)).toMatch(/"\.\." path segment/);
    expect(await refusal(`${pathToFileURL(allowed).href}/%2e%2e/node`)).toMatch(/"%2e%2e" path segment/);
    expect(await refusal(`${pathToFileURL(allowed).href}/%2E%2e%2Fnode`)).toMatch(/encoded path separator/);
    expect(await refusal(`${allowed}/./x`)).toMatch(/"\." path segment/);
  });

  it('writes only under --snapshot-upload-roots, files 0600', async () => {
    expect(await refusal(join(root, 'elsewhere'))).toMatch(/not under an allowed snapshot root/);
    const location = pathToFileURL(join(allowed, 'snaps')).href;
    expect(await adminOk(node, 'nodeAdmin_startSnapshotUpload', [location])).toBeNull();
    const last = await until('the upload to finish', async () => {
      const s = (await status(node)).snapshot;
      return !s.running && s.last ? s.last : undefined;
    });
    expect(last, last.error).toMatchObject({ ok: true });
    const dir = join(allowed, 'snaps', readdirSync(join(allowed, 'snaps'))[0] as string);
    const files = readdirSync(dir);
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) expect((statSync(join(dir, f)).mode & 0o777).toString(8), f).toBe('600');
  });
});
