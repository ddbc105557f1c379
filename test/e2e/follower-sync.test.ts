import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { TxBuilder, TxBuildOptions } from '../../src/core/tx/tx-builder.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { rpcResult } from '../helpers/rpc-result.js';
import { QUICK_EPOCH_FLAGS, type RunningNode, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * Follower mode end to end (issue 7): one dev node (on-demand, two txs per block) and two followers on
 * loopback. Follower A follows it directly; follower B through a proxy that serves small batches and then
 * holds its answers, so B is killed with SIGKILL in the middle of its sync and restarted on the same data
 * directory. Both end with the dev node's tips, blocks and state; txs sent to a follower are mined; a
 * refusal of the dev node reaches the follower's caller unchanged.
 */
const PAYER = new AztecAddress(0x5001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const COMMON = ['--prefunded-accounts', prefundedFlag(FUNDED), '--disable-admin-api-key'];
const FOLLOWER = [...COMMON, '--archiver-polling-interval-ms', '100'];

let dev: RunningNode;
let a: RunningNode;
let b: RunningNode;
let proxy: RpcProxy;
let builder: TxBuilder;
let maxFee: bigint;
let dirB: string;

let nonce = 0n;
const build = (o: Partial<TxBuildOptions> = {}) =>
  builder.build({
    feePayer: PAYER,
    txRequestHash: new Fr(++nonce + 7_000_000n),
    maxFeesPerGas: new GasFees(0n, maxFee),
    ...o,
  });

const blockNumber = (url: string) => rpcResult(url, 'node_getBlockNumber');

async function mined(url: string, txHash: string): Promise<Record<string, unknown>> {
  return until(`tx ${txHash} mined on ${url}`, async () => {
    const r = await result<Record<string, unknown>>(url, 'node_getTxReceipt', [txHash]);
    return r.status !== 'pending' && r.status !== 'dropped' ? r : undefined;
  });
}

/** Two txs to `url`: the dev node builds a block of them. */
async function blockOfTwo(url: string): Promise<void> {
  const txs = [build(), build()];
  for (const tx of txs) expect((await call(url, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
  for (const tx of txs) await mined(url, tx.txHash.toString());
}

beforeAll(async () => {
  dev = await spawnNode({
    args: [
      ...COMMON,
      '--sequencer-mode',
      'on-demand',
      '--slot-duration',
      '1',
      '--blocks-per-slot',
      '16',
      '--min-txs-per-block',
      '2',
      ...QUICK_EPOCH_FLAGS,
    ],
  });
  builder = devTxBuilder(genesisHeader(FUNDED));
  const fees = await result<{ feePerL2Gas: string }>(dev.publicUrl, 'node_getCurrentMinFees');
  maxFee = 2n * BigInt(fees.feePerL2Gas);
  // An L1-to-L2 message enters the tree with the first checkpoint: the followers fetch it (node_getL1ToL2Messages).
  await result(dev.adminUrl, 'nodeDev_sendL1ToL2Message', [new Fr(0x4242n).toString()]);
  for (let i = 0; i < 12; i++) await blockOfTwo(dev.publicUrl);

  dirB = mkdtempSync(join(tmpdir(), 'l2node-follower-b-'));
  proxy = await startRpcProxy(dev.publicUrl);
  // B sees no checkpoint yet (so it fetches plain blocks), gets 3 blocks per call, and the third call is held:
  // B stops in the middle of its sync.
  proxy.rewriteResult = (method, r) => {
    if (method !== 'node_getL2Tips') return r;
    const tips = r as Record<string, { block: { number: number }; checkpoint: { number: number } }>;
    for (const k of ['checkpointed', 'proven', 'finalized']) {
      (tips[k] as { block: { number: number }; checkpoint: { number: number } }).block.number = 0;
      (tips[k] as { block: { number: number }; checkpoint: { number: number } }).checkpoint.number = 0;
    }
    return tips;
  };
  proxy.rewriteRequest = (c) => {
    if (c.method === 'node_getBlocks') c.params[1] = 3;
    if (c.method === 'node_getBlocks' && proxy.count('node_getBlocks') >= 3) proxy.hold(c.method);
  };
  [a, b] = await Promise.all([
    spawnNode({ args: [...FOLLOWER, '--sync-from', dev.publicUrl] }),
    spawnNode({ args: [...FOLLOWER, '--sync-from', proxy.url, '--data-directory', dirB] }),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await dev?.stop();
  if (dirB) rmSync(dirB, { recursive: true, force: true });
});

describe('two followers of a dev node', () => {
  it('logs one info line per block: built on the dev node, imported on the follower (txs, mana, time)', async () => {
    await until('A to import block 2', async () => ((await blockNumber(a.publicUrl)) >= 2 ? true : undefined));
    const built = dev
      .logs()
      .find((l) =>
        /^built block \d+: \d+ txs?( \(0x[0-9a-f]{4}…[0-9a-f]{4}[^)]*\))?, \d+ mana, \d+ ms \(.*tips \d+\/\d+\/\d+\/\d+/.test(
          l.msg ?? '',
        ),
      );
    expect(built).toMatchObject({
      level: 30,
      txs: expect.any(Number),
      mana: expect.any(String),
      ms: expect.any(Number),
    });
    const imported = a
      .logs()
      .find((l) =>
        /^imported block \d+: \d+ txs?( \(0x[0-9a-f]{4}…[0-9a-f]{4}[^)]*\))?, \d+ mana, \d+ ms$/.test(l.msg ?? ''),
      );
    expect(imported).toMatchObject({ level: 30, blockNumber: expect.any(Number), ms: expect.any(Number) });
    // The per-block object (hash, archive...) is at debug: not in an info log.
    expect(a.logs().some((l) => /^block \d+ applied$/.test(l.msg ?? ''))).toBe(false);
  });

  it('a follower killed with SIGKILL in the middle of its sync restarts on its data directory and converges', async () => {
    const tip = await blockNumber(dev.publicUrl);
    const at = await until('B to be part way', async () => {
      const n = await blockNumber(b.publicUrl);
      return n >= 6 ? n : undefined;
    });
    expect(at).toBeLessThan(tip);
    b.signal('SIGKILL');
    expect((await b.exited).signal).toBe('SIGKILL');
    proxy.rewriteRequest = undefined;
    proxy.rewriteResult = undefined;
    proxy.release();
    b = await spawnNode({ args: [...FOLLOWER, '--sync-from', proxy.url, '--data-directory', dirB] });
    // It starts from what it had committed, not from genesis.
    expect(await blockNumber(b.publicUrl)).toBeGreaterThanOrEqual(at);
    await until('B to catch up', async () => ((await blockNumber(b.publicUrl)) >= tip ? true : undefined));
  });

  it('mines txs sent to a follower; a refusal of the dev node reaches the caller unchanged', async () => {
    // Sent to A, forwarded, built by the dev node, synced back: mined on both with the same receipt.
    const txs = [build(), build()];
    for (const tx of txs) expect((await call(a.publicUrl, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
    for (const tx of txs) {
      const onA = await mined(a.publicUrl, tx.txHash.toString());
      expect(onA).toMatchObject({ executionResult: 'success', blockNumber: expect.any(Number) });
      const onDev = await result<Record<string, unknown>>(dev.publicUrl, 'node_getTxReceipt', [tx.txHash.toString()]);
      expect(onA.blockHash).toBe(onDev.blockHash);
    }

    // X waits in the dev node's pool (a block needs two txs). Y spends the same nullifier: A does not know X,
    // takes Y, and the dev node refuses it with NULLIFIER_CONFLICT, which A's caller gets as the dev node sent it.
    const nullifier = new Fr(0xabcdefn);
    const x = build({ nullifiers: [nullifier] });
    expect((await call(dev.publicUrl, 'node_sendTx', [x.toJSON()])).error).toBeUndefined();
    const y = build({ nullifiers: [nullifier] });
    const viaFollower = await call(a.publicUrl, 'node_sendTx', [y.toJSON()]);
    const direct = await call(dev.publicUrl, 'node_sendTx', [y.toJSON()]);
    expect(direct.error?.data?.code).toBe('NULLIFIER_CONFLICT');
    expect(direct.error?.data?.conflictingTxHash).toBe(x.txHash.toString());
    expect(viaFollower.error).toEqual(direct.error);
    const receipt = await result<Record<string, unknown>>(a.publicUrl, 'node_getTxReceipt', [y.txHash.toString()]);
    expect(receipt).toMatchObject({ status: 'dropped', dropReason: 'rejected_upstream' });

    // A second tx lets the dev node build X's block; the followers sync it.
    const z = build();
    expect((await call(dev.publicUrl, 'node_sendTx', [z.toJSON()])).error).toBeUndefined();
    await mined(a.publicUrl, x.txHash.toString());
    await mined(a.publicUrl, z.txHash.toString());
  });

  it('both followers end with the tips, blocks and state of the dev node', async () => {
    const nodes = [dev, a, b];
    // Finality settles a few seconds after the last block; then every node shows the same tips.
    const tips = await until('the same tips everywhere', async () => {
      const all = await Promise.all(nodes.map((n) => result<Record<string, unknown>>(n.publicUrl, 'node_getL2Tips')));
      const [first, ...rest] = all.map((t) => JSON.stringify(t));
      const finalized = (all[0] as { finalized: { block: { number: number } } }).finalized.block.number;
      const proposed = (all[0] as { proposed: { number: number } }).proposed.number;
      return finalized === proposed && rest.every((t) => t === first) ? all[0] : undefined;
    });
    const n = (tips as { proposed: { number: number } }).proposed.number;
    expect(n).toBeGreaterThanOrEqual(14);
    const blocks = await Promise.all(
      nodes.map((node) => result<unknown[]>(node.publicUrl, 'node_getBlocks', [1, 100])),
    );
    expect(blocks[0]).toHaveLength(n);
    expect(blocks[1]).toEqual(blocks[0]);
    expect(blocks[2]).toEqual(blocks[0]);
    const checkpoints = await Promise.all(
      nodes.map((node) => result<unknown[]>(node.publicUrl, 'node_getCheckpoints', [1, 50])),
    );
    const headers = checkpoints.map((cs) =>
      cs.map((c) => (c as { checkpoint: { header: unknown } }).checkpoint.header),
    );
    expect(headers[1]).toEqual(headers[0]);
    expect(headers[2]).toEqual(headers[0]);
    for (const node of nodes) {
      expect(await result(node.publicUrl, 'node_getL1ToL2MessageCheckpoint', [new Fr(0x4242n).toString()])).toBe(1);
    }
    // A follower has no dev L1: messages go to the dev node.
    const message = await call(a.adminUrl, 'nodeDev_sendL1ToL2Message', [new Fr(0x99n).toString()]);
    expect(message.error?.data?.code).toBe('UNSUPPORTED');
    expect(message.error?.message).toMatch(/This node follows http:\/\/127\.0\.0\.1:\d+: it has no dev L1 stand-in/);
    const status = (await (await fetch(`${a.publicUrl}/status`)).json()) as { follower: Record<string, unknown> };
    expect(status.follower).toMatchObject({ state: 'synced', upstream: dev.publicUrl, blockNumber: n, behind: 0 });
    expect(status.follower.problem).toBeUndefined();
    expect(JSON.stringify(status)).not.toMatch(/unknown/i);
  });

  it('refuses to start against an upstream of another chain id or another genesis, saying what to pass', async () => {
    const [otherChain, otherGenesis] = [
      spawnNodeProcess({ args: [...FOLLOWER, '--sync-from', dev.publicUrl, '--l1-chain-id', '5'] }),
      spawnNodeProcess({ args: ['--disable-admin-api-key', '--sync-from', dev.publicUrl] }),
    ];
    const [chainExit, genesisExit] = await Promise.all([otherChain.exited, otherGenesis.exited]);
    expect([chainExit.code, genesisExit.code]).toEqual([1, 1]);
    expect(otherChain.stdout()).toMatch(
      /node failed to start: --l1-chain-id \(NODE_L1_CHAIN_ID\) is 5 but the upstream http:\/\/127\.0\.0\.1:\d+ has L1 chain id 31337/,
    );
    expect(otherGenesis.stdout()).toMatch(
      /node failed to start: the upstream .* has genesis block 0x[0-9a-f]{64}, this node 0x[0-9a-f]{64}: .*same --prefunded-accounts as the upstream/,
    );
  });
});
