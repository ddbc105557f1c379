/**
 * The dev chain's cheat codes over the real binary, with the official 4.1.2 wallet where a user's tx matters: one
 * node (started with --dump-state) and one wallet shared by the file's cases, which run in order. Time warps
 * make an expired tx fail as it should; a snapshot and a revert put the whole node back; the state dumped on exit
 * starts another node at the same tips and roots; the CLI commands and a follower's refusal.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { TEST_ACCOUNTS } from '../../src/core/test-accounts.js';
import { envelopeOf, l2node } from '../helpers/cli.js';
import { defaultGenesisHeader, devTxBuilder } from '../helpers/mempool-e2e.js';
import { deployAccount, openOfficialWallet, type WalletSession } from '../helpers/official-wallet.js';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

const DAY = 86_400;
const dir = mkdtempSync(join(tmpdir(), 'l2node-cheat-codes-'));
const dumpFile = join(dir, 'state.sqlite');
let node: RunningNode;
let session: WalletSession;

beforeAll(async () => {
  node = await spawnNode({ args: ['--data-directory', join(dir, 'data'), '--dump-state', dumpFile] });
  session = await openOfficialWallet(node.publicUrl);
  await deployAccount(session, session.accounts[0]);
}, 180_000);

afterAll(async () => {
  await session?.stop();
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function pub<T>(method: string, params: unknown[] = [], on: RunningNode = node): Promise<T> {
  const r = await postJson(on.publicUrl, rpc(method, params));
  const body = r.body as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

async function dev<T>(method: string, params: unknown[] = [], on: RunningNode = node): Promise<T> {
  const r = await postJson(
    on.adminUrl,
    { jsonrpc: '2.0', id: 1, method, params },
    { 'x-api-key': on.adminKey as string },
  );
  const body = r.body as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result as T;
}

const cli = (...args: string[]) =>
  l2node([...args, '--admin-url', node.adminUrl, '--api-key', node.adminKey as string]);

async function feeJuice(owner: AztecAddress): Promise<bigint> {
  const { getFeeJuiceBalance } = await import('@aztec/aztec.js/utils');
  return getFeeJuiceBalance(owner, session.node);
}

async function latestTimestamp(): Promise<bigint> {
  const header = await session.node.getBlockHeader('latest');
  return header?.globalVariables.timestamp ?? 0n;
}

interface Tips {
  proposed: { number: number };
  finalized: { block: { number: number } };
}

/** The tips once the dev L1 has finalized the latest block (so they stay put). */
function settledTips(): Promise<Tips> {
  return until(
    'the latest block finalized',
    async () => {
      const tips = await pub<Tips>('node_getL2Tips');
      return tips.finalized.block.number === tips.proposed.number ? tips : undefined;
    },
    20_000,
  );
}

/** The hash of the last tx of the latest block. */
async function lastTxHash() {
  const block = await session.node.getBlock('latest');
  const effects = block?.body.txEffects ?? [];
  const last = effects[effects.length - 1];
  if (!last) throw new Error('the latest block has no tx');
  return last.txHash;
}

describe('time warp', () => {
  it('a tx anchored before a two-day warp has expired: the node refuses it; after a block it goes through', async () => {
    const before = await latestTimestamp();
    const now = await dev<number>('nodeDev_increaseTime', [2 * DAY]);
    expect(now).toBeGreaterThanOrEqual(Number(before) + 2 * DAY);
    // The wallet anchors to the latest block, so the tx expires a day after it: two days ago for the chain.
    await expect(deployAccount(session, session.accounts[1])).rejects.toThrow(/expiration/i);
    // A block at the warped time is a new anchor: the same deployment is now in time.
    const [mined] = await dev<number[]>('nodeDev_mineBlocks', [1]);
    expect(await latestTimestamp()).toBeGreaterThanOrEqual(before + BigInt(2 * DAY));
    const balance = await feeJuice(session.accounts[1].address);
    await deployAccount(session, session.accounts[1]);
    expect(await session.node.getBlockNumber()).toBeGreaterThan(mined as number);
    expect(await feeJuice(session.accounts[1].address)).toBeLessThan(balance);
  }, 180_000);

  it('increaseTime is relative to the latest block when blocks run ahead of the clock (warpL2TimeAtLeastBy)', async () => {
    // Mined blocks take a slot each, ahead of the clock; a revert leaves the clock warp where it was.
    await dev('nodeDev_mineBlocks', [2]);
    const id = await dev<string>('nodeDev_snapshot');
    await dev('nodeDev_mineBlocks', [3]);
    await dev('nodeDev_revert', [id]);
    const before = await latestTimestamp();
    const now = await dev<number>('nodeDev_increaseTime', [3600]);
    expect(now).toBeGreaterThanOrEqual(Number(before) + 3600);
    await dev('nodeDev_mineBlocks', [1]);
    expect(await latestTimestamp()).toBeGreaterThanOrEqual(before + 3600n);
  }, 60_000);

  it('nodeDev_setNextBlockTimestamp: the next block carries it exactly; going back before the latest block is refused', async () => {
    const before = await latestTimestamp();
    const target = Number(before) + 1000;
    expect(await dev<number>('nodeDev_setNextBlockTimestamp', [target])).toBe(target);
    await dev('nodeDev_mineBlocks', [1]);
    expect(await latestTimestamp()).toBe(BigInt(target));
    await expect(dev('nodeDev_setNextBlockTimestamp', [target - 1])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/cannot go back to \d+, before block \d+'s timestamp/),
    });
    await expect(dev('nodeDev_increaseTime', [-10 * DAY])).rejects.toMatchObject({ code: -32602 });
  }, 30_000);
});

describe('snapshot and revert', () => {
  it('puts the whole node back: balances, txs, tips; the wallet goes on from there', async () => {
    const payer = session.accounts[2].address;
    // Tips compared whole: the dev L1 has proven and finalized everything first.
    const tips = await settledTips();
    const id = await dev<number>('nodeDev_snapshot');
    const balance = await feeJuice(payer);
    await deployAccount(session, session.accounts[2]);
    expect(await feeJuice(payer)).toBeLessThan(balance);
    const deployment = await lastTxHash();
    expect(await session.node.getTxEffect(deployment)).toBeDefined();

    const back = await dev<number>('nodeDev_revert', [id]);
    expect(await pub('node_getL2Tips')).toEqual(tips);
    expect(back).toBe(tips.proposed.number);
    expect(await feeJuice(payer)).toBe(balance);
    expect(await session.node.getTxEffect(deployment)).toBeUndefined();
    // The revert consumed the snapshot.
    await expect(dev('nodeDev_revert', [id])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(`No live snapshot ${id}`),
    });

    // The chain goes on from the restored state, through the same wallet.
    await deployAccount(session, session.accounts[2]);
    expect(await feeJuice(payer)).toBeLessThan(balance);
  }, 240_000);

  it('the pool comes back too: a tx pending at the snapshot is pending again after the revert', async () => {
    const minFees = await pub<{ feePerDaGas: string; feePerL2Gas: string }>('node_getCurrentMinFees');
    const tx = devTxBuilder(defaultGenesisHeader()).build({
      feePayer: TEST_ACCOUNTS[0].address,
      maxFeesPerGas: new GasFees(2n * BigInt(minFees.feePerDaGas), 2n * BigInt(minFees.feePerL2Gas)),
      // L2 time is days ahead of the wall clock by now: the tx expires a day after it.
      now: await latestTimestamp(),
    });
    const receipt = () => pub<{ status: string; blockNumber?: number }>('node_getTxReceipt', [tx.txHash.toString()]);
    await dev('nodeAdmin_pauseSync');
    await pub('node_sendTx', [tx.toJSON()]);
    const tip = await pub<number>('node_getBlockNumber');
    const id = await dev<number>('nodeDev_snapshot');
    await dev('nodeAdmin_resumeSync');
    const mined = await until(
      'the tx mined',
      async () => ((await receipt()).status === 'pending' ? undefined : receipt()),
      10_000,
    );
    expect(mined.blockNumber).toBe(tip + 1);

    // Reverted with production held: the tx is in the pool again, not in a block.
    await dev('nodeAdmin_pauseSync');
    expect(await dev<number>('nodeDev_revert', [id])).toBe(tip);
    expect(await receipt()).toMatchObject({ status: 'pending' });
    expect(await pub<number>('node_getPendingTxCount')).toBe(1);
    await dev('nodeAdmin_resumeSync');
    const again = await until(
      'the tx mined again',
      async () => ((await receipt()).status === 'pending' ? undefined : receipt()),
      10_000,
    );
    expect(again.blockNumber).toBe(tip + 1);
  }, 60_000);

  it('a revert consumes that snapshot and every later one, not the earlier ones', async () => {
    const a = await dev<number>('nodeDev_snapshot');
    await dev('nodeDev_mineBlocks', [1]);
    const b = await dev<number>('nodeDev_snapshot');
    const atB = await pub<number>('node_getBlockNumber');
    await dev('nodeDev_mineBlocks', [2]);
    const c = await dev<number>('nodeDev_snapshot');
    expect(await dev<number>('nodeDev_revert', [b])).toBe(atB);
    await expect(dev('nodeDev_revert', [c])).rejects.toMatchObject({ code: -32602 });
    expect(await dev<number>('nodeDev_revert', [a])).toBe(atB - 1);
  }, 30_000);
});

describe('l2node dev time|snapshot|revert', () => {
  it('drive the same methods, with --json results and refusals as exit codes', async () => {
    const snap = envelopeOf(await cli('dev', 'snapshot', '--json'));
    expect(snap).toMatchObject({ status: 0, result: { id: expect.any(Number) } });
    const id = (snap.result as { id: number }).id;
    const tip = await pub<number>('node_getBlockNumber');

    const increased = envelopeOf(await cli('dev', 'time', 'increase', '3600', '--json'));
    expect(increased).toMatchObject({ status: 0, result: { time: expect.any(Number) } });
    const target = (increased.result as { time: number }).time + 100;
    const set = await cli('dev', 'time', 'set', String(target));
    expect(set.stdout).toContain(`the next block carries timestamp ${target}`);
    await cli('dev', 'mine');
    expect(await latestTimestamp()).toBe(BigInt(target));

    const reverted = await cli('dev', 'revert', String(id));
    expect(reverted.stdout).toContain(`reverted to snapshot ${id}: the chain is back at block ${tip}`);
    expect(await pub<number>('node_getBlockNumber')).toBe(tip);
    const refused = await cli('dev', 'revert', String(id));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`No live snapshot ${id}`);
  }, 60_000);

  it('a follower has none of them', async () => {
    const follower = await spawnNode({ args: ['--sync-from', node.publicUrl] });
    try {
      await expect(dev('nodeDev_snapshot', [], follower)).rejects.toThrow(/dev mode only/);
      await expect(dev('nodeDev_increaseTime', [1], follower)).rejects.toThrow(/dev mode only/);
    } finally {
      await follower.stop();
    }
  }, 60_000);
});

describe("4.1.2's CheatCodes", () => {
  it('CheatCodes.create needs only getNodeInfo of the node; the rest of its calls go to L1', async () => {
    // What CheatCodes.create (@aztec/aztec/testing) does, with the same official classes: the node's one part is
    // the L1 contract addresses. Building them sends nothing; every method after that is an L1 JSON-RPC call.
    const { EthCheatCodes, RollupCheatCodes } = await import('@aztec/ethereum/test');
    const { DateProvider } = await import('@aztec/foundation/timer');
    const info = await session.node.getNodeInfo();
    const eth = new EthCheatCodes(['http://127.0.0.1:8545'], new DateProvider());
    const rollup = new RollupCheatCodes(eth, info.l1ContractAddresses) as unknown as { rollup: { address: string } };
    expect(rollup.rollup.address.toLowerCase()).toBe(info.l1ContractAddresses.rollupAddress.toString().toLowerCase());
    // The node-only reads the older AztecCheatCodes made (block number, timestamp, public storage) answer too.
    const { BlockNumber } = await import('@aztec/foundation/branded-types');
    const block = await session.node.getBlock(BlockNumber(await session.node.getBlockNumber()));
    expect(block?.header.globalVariables.timestamp).toBe(await latestTimestamp());
  }, 30_000);
});

describe('--dump-state and --load-state', () => {
  it('the state dumped on exit starts another node at the same tips, roots and balances', async () => {
    const tips = await settledTips();
    const header = await pub<unknown>('node_getBlockHeader', ['latest']);
    const status = await pub<unknown>('node_getWorldStateSyncStatus');
    const balance = await feeJuice(session.accounts[0].address);
    await session.stop();
    expect((await node.stop()).code).toBe(0);
    expect(existsSync(dumpFile)).toBe(true);

    const loaded = await spawnNode({ args: ['--load-state', dumpFile] });
    try {
      expect(await pub('node_getL2Tips', [], loaded)).toEqual(tips);
      expect(await pub('node_getBlockHeader', ['latest'], loaded)).toEqual(header);
      expect(await pub('node_getWorldStateSyncStatus', [], loaded)).toEqual(status);
      const { getFeeJuiceBalance } = await import('@aztec/aztec.js/utils');
      const { createAztecNodeClient } = await import('@aztec/aztec.js/node');
      expect(await getFeeJuiceBalance(session.accounts[0].address, createAztecNodeClient(loaded.publicUrl))).toBe(
        balance,
      );
      // It builds on from there.
      const [next] = await dev<number[]>('nodeDev_mineBlocks', [1], loaded);
      expect(next).toBe(tips.proposed.number + 1);
    } finally {
      await loaded.stop();
    }
  }, 60_000);
});
