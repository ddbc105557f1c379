import { createAztecNodeClient } from '@aztec/stdlib/interfaces/client';
import { TxHash as StdTxHash } from '@aztec/stdlib/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { Tx } from '../../src/core/tx/tx.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { call, devTxBuilder, genesisHeader, simpleFeePoolFlags } from '../helpers/mempool-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';

/**
 * Two txs of one fee payer at the same priority fee (0) that the payer cannot both pay: 4.1.2's pool order
 * (priority fee, then tx hash, highest first) decides, so the one with the higher hash stays. The loser's
 * receipt says so, and the official client, whose receipt schema strips dropDetail, shows it in `error`.
 */
const PAYER = new AztecAddress(0x3003n);
const MAX_FEE = 100_000n;
const FEE_LIMIT = 6_540_000n * MAX_FEE;
const FUNDED = [{ address: PAYER, amount: FEE_LIMIT + 5n }];

let node: RunningNode;
let builder: TxBuilder;

beforeAll(async () => {
  node = await spawnNode({
    args: [...simpleFeePoolFlags(FUNDED)],
  });
  builder = devTxBuilder(genesisHeader(FUNDED));
});
afterAll(async () => {
  await node?.stop();
});

const tx = (n: bigint): Tx =>
  builder.build({
    feePayer: PAYER,
    txRequestHash: new Fr(7_000_000n + n),
    maxFeesPerGas: new GasFees(0n, MAX_FEE),
    maxPriorityFeesPerGas: new GasFees(0n, 0n),
  });

describe('eviction at equal priority', () => {
  it('keeps the higher tx hash, says so in dropDetail, and the official client sees it in error', async () => {
    const [low, high] = [tx(1n), tx(2n)].sort((a, b) => (a.txHash.value < b.txHash.value ? -1 : 1)) as [Tx, Tx];
    expect((await call(node.publicUrl, 'node_sendTx', [low.toJSON()])).error).toBeUndefined();
    expect((await call(node.publicUrl, 'node_sendTx', [high.toJSON()])).error).toBeUndefined();
    const receipt = (await call(node.publicUrl, 'node_getTxReceipt', [low.txHash.toString()])).result as {
      status: string;
      dropReason: string;
      dropDetail: string;
      error: string;
    };
    expect(receipt).toMatchObject({ status: 'dropped', dropReason: 'insufficient_balance' });
    expect(receipt.dropDetail).toBe(
      `evicted by ${high.txHash}: fee payer ${PAYER} cannot pay both, and ${high.txHash} has the same priority fee (0) and the higher tx hash, which orders first`,
    );
    expect(receipt.dropDetail).not.toMatch(/higher priority fee/);
    expect(receipt.error).toBe(`Tx dropped by P2P node: ${receipt.dropDetail}`);
    const official = await createAztecNodeClient(node.publicUrl).getTxReceipt(
      StdTxHash.fromString(low.txHash.toString()),
    );
    expect(official.status).toBe('dropped');
    expect(official.error).toContain(receipt.dropDetail);
    // The lower hash sent now is refused: the payer's balance goes to the higher one first.
    const again = await call(node.publicUrl, 'node_sendTx', [low.toJSON()]);
    expect(again.error).toMatchObject({ code: -32003, data: { code: 'INSUFFICIENT_FEE_PAYER_BALANCE' } });
  });
});
