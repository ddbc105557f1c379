import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { L2Block } from '../../src/core/block/l2-block.js';
import { Fr } from '../../src/core/fr.js';
import { DecodeError } from '../../src/core/serialize/decode-error.js';
import { Tx } from '../../src/core/tx/tx.js';
import { TxReceipt } from '../../src/core/tx/tx-receipt.js';
import { TxHash } from '../../src/core/tx-hash.js';
import { chainRpcHandlers } from '../../src/daemon/chain/chain-rpc-handlers.js';
import { RPC_METHODS, type RpcMethodName } from '../../src/rpc/method-table.js';
import type { ResultCodec } from '../../src/rpc/rpc-method.js';
import { aTx } from '../helpers/a-tx.js';
import { type DevChain, startDevChain } from '../unit/daemon/chain/dev-chain-fixture.js';

/**
 * The method table's result codecs on real answers of a dev chain: what the server encodes decodes back to
 * an object that encodes to the same JSON, and an answer of the wrong shape is refused with its path.
 */
let dev: DevChain;
let handlers: Record<string, (...args: unknown[]) => Promise<unknown>>;

const codec = (m: RpcMethodName) => RPC_METHODS[m].result as ResultCodec<unknown>;
/** The JSON a client receives for a value. */
const wire = (m: RpcMethodName, value: unknown) => JSON.parse(JSON.stringify(codec(m).encode(value) ?? null));

beforeAll(async () => {
  dev = await startDevChain();
  dev.source.add(dev.tx());
  // Enough blocks for a published checkpoint (two blocks per slot).
  dev.advanceBlocks(4);
  await new Promise((r) => setTimeout(r, 50));
  handlers = chainRpcHandlers(dev.service, dev.config) as unknown as typeof handlers;
});
afterAll(async () => {
  await dev?.close();
});

describe('result codecs round-trip real answers', () => {
  const cases: [RpcMethodName, () => unknown[]][] = [
    ['node_getL2Tips', () => []],
    ['node_getBlock', () => [1]],
    ['node_getBlock', () => [0]],
    ['node_getBlocks', () => [1, 10]],
    ['node_getBlockHeader', () => ['latest']],
    ['node_getCheckpoints', () => [1, 10]],
    ['node_getCheckpointedBlocks', () => [1, 10]],
    ['node_getWorldStateSyncStatus', () => []],
    ['node_findLeavesIndexes', () => ['latest', 1, [new Fr(1n), new Fr(12345n)]]],
    ['node_getNoteHashSiblingPath', () => ['latest', 0n]],
    ['node_getArchiveSiblingPath', () => ['latest', 0n]],
    ['node_getLowNullifierMembershipWitness', () => ['latest', new Fr(12345n)]],
    ['node_getPublicDataWitness', () => ['latest', new Fr(1n)]],
    ['node_getL2ToL1Messages', () => [1]],
    ['node_getNodeInfo', () => []],
    ['node_getProtocolContractAddresses', () => []],
  ];
  it.each(cases)('%s', async (method, args) => {
    const value = await (handlers[method] as (...a: unknown[]) => Promise<unknown>)(...args());
    expect(value).not.toBeUndefined();
    if (Array.isArray(value)) expect(value.length, 'a real answer, not an empty one').toBeGreaterThan(0);
    const json = wire(method, value);
    const decoded = codec(method).decode(json);
    expect(wire(method, decoded)).toEqual(json);
    expect(JSON.stringify(codec(method).encode(decoded))).toBe(JSON.stringify(json));
  });

  it('decodes blocks, txs and receipts to their src/core classes', async () => {
    const block = codec('node_getBlock').decode(wire('node_getBlock', await handlers.node_getBlock?.(1)));
    expect(block).toBeInstanceOf(L2Block);
    expect((block as L2Block).number).toBe(1);
    const tx = aTx();
    const decoded = codec('node_getTxByHash').decode(wire('node_getTxByHash', tx)) as Tx;
    expect(decoded).toBeInstanceOf(Tx);
    expect(decoded.txHash.equals(tx.txHash)).toBe(true);
    const receipt = new TxReceipt({ txHash: new TxHash(7n), status: 'dropped', error: 'gone', dropReason: 'expired' });
    const back = codec('node_getTxReceipt').decode(wire('node_getTxReceipt', receipt)) as TxReceipt;
    expect(back).toBeInstanceOf(TxReceipt);
    expect(back.toJSON()).toEqual(receipt.toJSON());
  });

  it('decodes witnesses to index, preimage and sibling nodes', async () => {
    const w = await handlers.node_getLowNullifierMembershipWitness?.('latest', new Fr(12345n));
    const back = codec('node_getLowNullifierMembershipWitness').decode(
      wire('node_getLowNullifierMembershipWitness', w),
    ) as { index: bigint; leafPreimage: { key: bigint }; siblingPath: { nodes: Uint8Array[] } };
    const original = w as typeof back;
    expect(back.index).toBe(original.index);
    expect(back.leafPreimage.key).toBe(original.leafPreimage.key);
    expect(back.siblingPath.nodes.map((n) => Buffer.from(n).toString('hex'))).toEqual(
      original.siblingPath.nodes.map((n) => Buffer.from(n).toString('hex')),
    );
  });
});

describe('result codecs refuse answers of the wrong shape, naming the path', () => {
  const refusal = (m: RpcMethodName, json: unknown) => {
    try {
      codec(m).decode(json);
    } catch (err) {
      expect(err).toBeInstanceOf(DecodeError);
      return (err as Error).message;
    }
    throw new Error(`${m} decoded ${JSON.stringify(json)}`);
  };

  it('names the key of a nested object', async () => {
    const tips = wire('node_getL2Tips', await handlers.node_getL2Tips?.()) as { proven: { block: { hash: unknown } } };
    tips.proven.block.hash = 5;
    expect(refusal('node_getL2Tips', tips)).toBe('proven.block.hash: expected a 0x hex hash, got 5');
    expect(refusal('node_getWorldStateSyncStatus', { latestBlockNumber: 1 })).toMatch(/^latestBlockHash: /);
  });

  it('names the index of an array item and the field inside a class', () => {
    expect(refusal('node_getBlocks', [{}])).toMatch(/^\[0\]\.archive: expected an object/);
  });

  it('refuses binary of the wrong length, and a simulation output without its parts', () => {
    expect(refusal('node_getNoteHashMembershipWitness', Buffer.alloc(33).toString('base64'))).toMatch(
      /a membership witness is a 32-byte index and 32-byte nodes, got 33 bytes/,
    );
    expect(refusal('node_simulatePublicCalls', {})).toMatch(/^gasUsed: expected an object/);
    expect(refusal('node_isValidTx', { result: 'maybe' })).toBe(
      'result: expected "valid", "invalid" or "skipped", got string "maybe"',
    );
  });
});
