/**
 * A node started with no flags but its data directory: the instant sequencer (a tx is checkpointed as soon as it
 * arrives, proven and finalized shortly after) and nodeDev_mineBlocks / `l2node dev mine`. One node for the file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { TEST_ACCOUNTS } from '../../src/core/test-accounts.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { envelopeOf, l2node } from '../helpers/cli.js';
import { defaultGenesisHeader, devTxBuilder } from '../helpers/mempool-e2e.js';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

let node: RunningNode;

beforeAll(async () => {
  node = await spawnNode({ args: ['--data-directory', mkdtempSync(join(tmpdir(), 'l2node-instant-'))] });
}, 60_000);

async function pub<T>(method: string, params: unknown[] = []): Promise<T> {
  const r = await postJson(node.publicUrl, rpc(method, params));
  return (r.body as { result: T }).result;
}
async function admin(method: string, params: unknown[] = []) {
  return postJson(node.adminUrl, { jsonrpc: '2.0', id: 1, method, params }, { 'x-api-key': node.adminKey as string });
}
interface Tips {
  proposed: { number: number };
  checkpointed: { block: { number: number } };
  proven: { block: { number: number } };
  finalized: { block: { number: number } };
}

describe('instant sequencer (the default)', () => {
  it('checkpoints a tx as soon as it arrives, then proves and finalizes it', async () => {
    const builder: TxBuilder = devTxBuilder(defaultGenesisHeader());
    const minFees = await pub<{ feePerDaGas: string; feePerL2Gas: string }>('node_getCurrentMinFees');
    const tx = builder.build({
      feePayer: TEST_ACCOUNTS[0].address,
      maxFeesPerGas: new GasFees(2n * BigInt(minFees.feePerDaGas), 2n * BigInt(minFees.feePerL2Gas)),
    });
    await pub('node_sendTx', [tx.toJSON()]);
    // Nothing else moves the chain: no slot boundary is waited for before the receipt is checkpointed.
    await until(
      'the tx checkpointed',
      async () =>
        (await pub<{ status: string }>('node_getTxReceipt', [tx.txHash.toString()])).status === 'checkpointed' ||
        undefined,
      3_000,
    );
    const tips = await pub<Tips>('node_getL2Tips');
    expect(tips.checkpointed.block.number).toBe(1);
    await until(
      'block 1 finalized',
      async () => (await pub<Tips>('node_getL2Tips')).finalized.block.number >= 1 || undefined,
      15_000,
    );
  }, 30_000);
});

describe('nodeDev_mineBlocks and l2node dev mine', () => {
  it('builds that many empty blocks now, each checkpointed', async () => {
    const before = await pub<number>('node_getBlockNumber');
    const r = await admin('nodeDev_mineBlocks', [2]);
    expect(r.body).toMatchObject({ result: [before + 1, before + 2] });
    const tips = await pub<Tips>('node_getL2Tips');
    expect(tips.checkpointed.block.number).toBe(before + 2);
    const one = await admin('nodeDev_mineBlocks', []);
    expect(one.body).toMatchObject({ result: [before + 3] });
  });

  it('refuses a bad count naming it', async () => {
    const r = await admin('nodeDev_mineBlocks', [0]);
    expect(JSON.stringify(r.body)).toMatch(/count/);
  });

  it('l2node dev mine COUNT --json prints the blocks built', async () => {
    const before = await pub<number>('node_getBlockNumber');
    const run = await l2node([
      'dev',
      'mine',
      '2',
      '--json',
      '--admin-url',
      node.adminUrl,
      '--api-key',
      node.adminKey as string,
    ]);
    expect(envelopeOf(run)).toMatchObject({ status: 0, result: { blocks: [before + 1, before + 2] } });
    const human = await l2node(['dev', 'mine', '--admin-url', node.adminUrl, '--api-key', node.adminKey as string]);
    expect(human.stdout).toContain(`built blocks ${before + 3}`);
    const bad = await l2node(['dev', 'mine', '0', '--admin-url', node.adminUrl, '--api-key', node.adminKey as string]);
    expect(bad.code).toBe(2);
  }, 30_000);
});
