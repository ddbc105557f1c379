/**
 * L1TxSender against a real L1 (anvil 1.7.1 from npm, on loopback): two txs asked for at once both land, and a tx
 * the rollup accepted when it was simulated
 * but that reverted once mined (the state moved in between, as when a proposal lands in a later slot) is reported
 * with the L1 block, its timestamp and the rollup's own error, read back from the L1.
 */
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import {
  concatHex,
  createPublicClient,
  createWalletClient,
  encodeErrorResult,
  type Hex,
  http,
  numberToHex,
  size,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANVIL_FIRST_ACCOUNT_KEY } from '../../../../src/daemon/l1/l1-client.js';
import { L1TxError, L1TxSender } from '../../../../src/daemon/l1/l1-tx-sender.js';
import { spawnAnvil, type TestAnvil } from '../../../helpers/spawn-anvil.js';
import { scaled, untilTrue } from '../../../helpers/until.js';

const CONTRACT = '0x00000000000000000000000000000000000c0de1';
const ARCHIVES = [`0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`] as const;

/**
 * Runtime code that stops when storage slot 0 is zero and otherwise reverts with `data`:
 * PUSH0 SLOAD PUSH1 6 JUMPI STOP JUMPDEST; CODECOPY(0, 20, len); REVERT(0, len); then `data` at offset 20.
 */
function revertsOnceSlotSet(data: Hex): Hex {
  const len = numberToHex(size(data), { size: 2 }).slice(2);
  return concatHex(['0x5f5460065700', `0x5b61${len}6100145f39`, `0x61${len}5ffd`, data]);
}

const OTHER = '0x00000000000000000000000000000000000c0de2';

function clients() {
  const transport = http(anvil.url);
  const client = createPublicClient({ chain: foundry, transport });
  const account = privateKeyToAccount(ANVIL_FIRST_ACCOUNT_KEY);
  const wallet = createWalletClient({ chain: foundry, transport, account });
  const rpc = (method: string, params: unknown[]) => client.request({ method, params } as never);
  return { client, wallet, rpc };
}

let anvil: TestAnvil;
beforeAll(async () => {
  anvil = await spawnAnvil();
}, scaled(60_000));
afterAll(() => {
  anvil?.process.kill();
});

describe('L1TxSender', () => {
  it('sends two txs asked for at once (a proof and a proposal) with two nonces, and both land', async () => {
    const { client, wallet, rpc } = clients();
    await rpc('anvil_setCode', [OTHER, revertsOnceSlotSet('0x00')]); // its slot 0 stays zero: it stops
    await rpc('evm_setAutomine', [false]);
    const sender = new L1TxSender({ client, wallet, rollup: OTHER });
    const account = wallet.account.address;
    const latest = await client.getTransactionCount({ address: account, blockTag: 'latest' });
    const both = Promise.all([
      sender.send({ kind: 'proof', data: '0x01', timeoutMs: scaled(20_000) }),
      sender.send({ kind: 'propose', data: '0x02', timeoutMs: scaled(20_000) }),
    ]);
    await untilTrue(
      'both txs in the pool',
      async () => (await client.getTransactionCount({ address: account, blockTag: 'pending' })) === latest + 2,
    );
    await rpc('evm_mine', []);
    const landed = await both;
    expect(landed.map((l) => l.receipt.status)).toEqual(['success', 'success']);
    const txs = await Promise.all(landed.map((l) => client.getTransaction({ hash: l.receipt.transactionHash })));
    expect(txs.map((t) => t.nonce)).toEqual([latest, latest + 1]);
  });

  it('names the L1 block, its timestamp and the rollup error of a tx that reverted after it was simulated', async () => {
    const { client, wallet, rpc } = clients();
    const error = encodeErrorResult({ abi: RollupAbi, errorName: 'Rollup__InvalidArchive', args: ARCHIVES });
    await rpc('anvil_setCode', [CONTRACT, revertsOnceSlotSet(error)]);
    await rpc('evm_setAutomine', [false]);

    const sender = new L1TxSender({ client, wallet, rollup: CONTRACT });
    const sent = sender.send({ kind: 'propose', data: '0x', timeoutMs: scaled(20_000) }).catch((e: unknown) => e);
    // Simulated while slot 0 is zero: it passes, and waits in anvil's pool. Then the state moves and it is mined.
    const account = wallet.account.address;
    await untilTrue(
      'the tx in the pool',
      async () =>
        (await client.getTransactionCount({ address: account, blockTag: 'pending' })) >
        (await client.getTransactionCount({ address: account, blockTag: 'latest' })),
    );
    await rpc('anvil_setStorageAt', [CONTRACT, '0x0', `0x${'00'.repeat(31)}01`]);
    await rpc('evm_mine', []);

    const err = await sent;
    expect(err).toBeInstanceOf(L1TxError);
    const block = await client.getBlock();
    expect((err as L1TxError).message).toBe(
      `it reverted in L1 block ${block.number} (timestamp ${block.timestamp}; Rollup__InvalidArchive(${ARCHIVES.join(', ')}))`,
    );
    expect((err as L1TxError).txHash).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
