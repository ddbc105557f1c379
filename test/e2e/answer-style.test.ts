import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockHeader } from '../../src/core/block/block-header.js';
import { SiblingPath } from '../../src/daemon/world-state/sibling-path.js';
import { envelopeOf, l2node } from '../helpers/cli.js';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';

/**
 * `--rpc-answer-style spec` (spec parts 3 and 4): a mined tx's receipt says `mined` (never proposed,
 * checkpointed, proven or finalized) and sibling paths travel as string[] of 32-byte hex, the L1-to-L2
 * message witness as `[index, string[]]`. The default style's forms are checked by test/conformance.
 */
let node: RunningNode;

beforeAll(async () => {
  node = await spawnNode({
    args: ['--slot-duration', '1', '--blocks-per-slot', '1', '--min-txs-per-block', '0'],
    env: { NODE_RPC_ANSWER_STYLE: 'spec' },
  });
});
afterAll(async () => {
  await node?.stop();
});

async function result<T>(method: string, params: unknown[] = [], url = node.publicUrl): Promise<T> {
  const a = (await postJson(url, rpc(method, params), { 'x-api-key': node.adminKey ?? '' })).body as {
    result?: T;
    error?: { message: string };
  };
  if (a.error) throw new Error(`${method}: ${a.error.message}`);
  return a.result as T;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const HEX32 = /^0x[0-9a-f]{64}$/;

describe('the spec answer style', () => {
  it('answers status "mined" for an included tx, over RPC', async () => {
    const built = await l2node(['tx', 'build', '--note-hash', '0x0abc', '--node-url', node.publicUrl, '--json']);
    expect(built.code, built.stderr).toBe(0);
    const sent = await l2node(['tx', 'send', '-', '--node-url', node.publicUrl, '--json'], { input: built.stdout });
    const { txHash } = envelopeOf(sent).result as { txHash: string };
    const receipt = await until('the tx mined', async () => {
      const r = await result<{ status: string }>('node_getTxReceipt', [txHash]);
      return r.status !== 'pending' && r;
    });
    expect(receipt.status).toBe('mined');
  });

  it('answers sibling paths and the L1-to-L2 message witness as string[] of hex', async () => {
    const message = `0x${'5eed'.padStart(64, '0')}`;
    await result('nodeDev_sendL1ToL2Message', [message], node.adminUrl);
    const blockNumber = await until('the message in a block', () =>
      result<number | null>('node_getL1ToL2MessageBlock', [message]),
    );
    const witness = await result<[string, string[]]>('node_getL1ToL2MessageMembershipWitness', [blockNumber, message]);
    expect(typeof witness[0]).toBe('string');
    expect(Array.isArray(witness[1])).toBe(true);
    expect(witness[1]).toHaveLength(36);
    for (const node of witness[1]) expect(node).toMatch(HEX32);
    const block = await result<{ header: unknown }>('node_getBlock', [blockNumber]);
    const path = new SiblingPath(witness[1].map((h) => Buffer.from(h.slice(2), 'hex')));
    expect(path.computeRoot(BigInt(message), BigInt(witness[0]))).toBe(
      BlockHeader.fromJSON(block.header).state.l1ToL2MessageTree.root.value,
    );
    const archivePath = await result<string[]>('node_getArchiveSiblingPath', [blockNumber, '0']);
    expect(archivePath.every((h) => HEX32.test(h))).toBe(true);
  });
});
