import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { BlockHash } from '../../src/core/block-hash.js';
import type { Fr } from '../../src/core/fr.js';
import type { TxHash } from '../../src/core/tx-hash.js';
import { RpcError } from '../../src/rpc/errors.js';
import { RPC_METHODS, type RpcMethodName } from '../../src/rpc/method-table.js';
import type { RpcMethod } from '../../src/rpc/rpc-method.js';
import { buildParamParser, loadZod } from '../../src/rpc/server/param-parser.js';
import { aTx } from '../helpers/a-tx.js';

/** The arguments read, at once: zod is loaded before the cases (beforeAll), so no parser answers a promise. */
function parse(method: RpcMethodName, params: unknown): unknown[] {
  const args = buildParamParser(RPC_METHODS[method] as RpcMethod)(params);
  if (!Array.isArray(args)) throw new Error(`${method}: the parser answered a promise with zod loaded`);
  return args;
}

beforeAll(() => loadZod());

describe('zod, loaded with the first request that has params', () => {
  it('reads the first call after loading zod, and refuses bad counts and shapes at once', async () => {
    vi.resetModules();
    const fresh = await import('../../src/rpc/server/param-parser.js');
    const parser = fresh.buildParamParser(RPC_METHODS.node_getBlocks as RpcMethod);
    expect(() => parser([1, 2, 3])).toThrow('node_getBlocks takes at most 2 params (from, limit), got 3');
    expect(() => parser({})).toThrow(/params must be an array/);
    // Two requests while zod loads: both wait for it, and each is read or refused as it would be later.
    const first = parser([1, 5]);
    const bad = fresh.buildParamParser(RPC_METHODS.node_getBlocks as RpcMethod)([0, 5]);
    expect(first).toBeInstanceOf(Promise);
    await expect(first).resolves.toEqual([1, 5]);
    await expect(bad).rejects.toThrow(
      'Invalid param 0 (from) of node_getBlocks: expected an integer from 1 to 4294967295, got number 0',
    );
    // Once zod is in, every parser answers at once.
    expect(parser([2, 3])).toEqual([2, 3]);
  });
});

function refusal(method: RpcMethodName, params: unknown): string {
  try {
    parse(method, params);
  } catch (err) {
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).code).toBe(-32602);
    return (err as RpcError).message;
  }
  throw new Error(`${method} accepted ${JSON.stringify(params)}`);
}

const HASH = `0x0b${'ab'.repeat(31)}`;

describe('positional params', () => {
  it('treats missing params as [] and refuses extra ones', () => {
    expect(parse('node_getBlockNumber', undefined)).toEqual([]);
    expect(parse('node_getBlockNumber', [])).toEqual([]);
    expect(refusal('node_getBlockNumber', [1])).toBe('node_getBlockNumber takes no params, got 1');
    expect(refusal('node_getBlocks', [1, 2, 3])).toBe('node_getBlocks takes at most 2 params (from, limit), got 3');
  });

  it('requires an array', () => {
    expect(refusal('node_getBlock', { blockNumber: 1 })).toBe(
      'Invalid params of node_getBlock: params must be an array (positional), got an object',
    );
    expect(refusal('node_getBlock', 'latest')).toMatch(/params must be an array \(positional\), got string/);
  });

  it('names a missing or null required param with its index and type', () => {
    expect(refusal('node_getBlocks', [1])).toBe(
      'Invalid param 1 (limit) of node_getBlocks: missing (expected integer 1..100)',
    );
    expect(refusal('node_getBlock', [null])).toBe(
      'Invalid param 0 (blockNumber) of node_getBlock: expected number | "latest" | hex32, got null',
    );
  });

  it('lets trailing optional params be omitted or null, applying declared defaults', () => {
    expect(parse('node_getBlockHeader', [])).toEqual(['latest']);
    expect(parse('node_getBlockHeader', [null])).toEqual(['latest']);
    expect(parse('node_getPendingTxs', [])).toEqual([100, undefined]);
    expect(parse('node_getPendingTxs', [null, null])).toEqual([100, undefined]);
    const [limit, after] = parse('node_getPendingTxs', [5, HASH]);
    expect(limit).toBe(5);
    expect((after as TxHash).toString()).toBe(HASH);
    expect(parse('node_getLogsByTags', [[HASH]])[1]).toBe(10);
    expect(parse('nodeAdmin_rollbackTo', [5])).toEqual([5, undefined]);
    expect(parse('nodeAdmin_rollbackTo', [5, true])).toEqual([5, true]);
  });
});

describe('wire types', () => {
  it('reads a block parameter as a number, "latest" or a hash, and nothing else', () => {
    expect(parse('node_getBlock', [5])).toEqual([5]);
    expect(parse('node_getBlock', ['latest'])).toEqual(['latest']);
    expect((parse('node_getBlock', [HASH])[0] as BlockHash).toString()).toBe(HASH);
    const expected = 'expected a block number, "latest" or a block hash (0x + 64 hex digits)';
    expect(refusal('node_getBlock', ['abc'])).toBe(
      `Invalid param 0 (blockNumber) of node_getBlock: ${expected}, got string "abc"`,
    );
    // 4.1.2 would read "5" as the block hash 0x…05.
    expect(refusal('node_getBlock', ['5'])).toMatch(/got string "5"/);
    expect(refusal('node_getBlock', [-1])).toMatch(/got number -1/);
    expect(refusal('node_getBlock', [1.5])).toMatch(/got number 1.5/);
    expect(refusal('node_getBlock', [`0x${'f'.repeat(64)}`])).toMatch(/greater or equal to field modulus/);
  });

  it('checks integer ranges with the bounds in the message', () => {
    expect(refusal('node_getBlocks', [0, 5])).toBe(
      'Invalid param 0 (from) of node_getBlocks: expected an integer from 1 to 4294967295, got number 0',
    );
    expect(refusal('node_getBlocks', [1, 101])).toBe(
      'Invalid param 1 (limit) of node_getBlocks: expected an integer from 1 to 100, got number 101',
    );
    expect(refusal('node_getBlocks', [1, '5'])).toMatch(/param 1 \(limit\).*got string "5"/);
  });

  it('reads field elements, tx hashes and addresses, explaining a bad one', () => {
    expect((parse('node_getContractClass', [`0x${'0'.repeat(63)}1`])[0] as Fr).toBigInt()).toBe(1n);
    expect((parse('node_getContractClass', [`0x${'0'.repeat(62)}AB`])[0] as Fr).toBigInt()).toBe(0xabn);
    // One rule for every 32-byte param: 0x + exactly 64 hex digits (short hex and decimal are refused).
    expect(refusal('node_getContractClass', ['0x01'])).toMatch(/expected a field element \(0x \+ 64 hex digits\)/);
    expect(refusal('node_getContractClass', ['1'])).toMatch(/expected a field element \(0x \+ 64 hex digits\)/);
    expect(refusal('node_getTxReceipt', ['0x1234'])).toMatch(
      /^Invalid param 0 \(txHash\) of node_getTxReceipt: expected a tx hash \(0x \+ 64 hex digits\), got string "0x1234"/,
    );
    expect(refusal('node_getContractClass', [`0x${'f'.repeat(64)}`])).toMatch(/greater or equal to field modulus/);
    expect(refusal('node_getContract', [5])).toMatch(/expected an L2 address \(0x \+ 64 hex digits\), got number 5/);
    expect(refusal('node_getValidatorStats', ['0x12'])).toMatch(/param 0 \(validatorAddress\).*an L1 address/);
  });

  it('refuses an isValidTx option it does not know, naming the known ones', () => {
    expect(refusal('node_isValidTx', [aTx().toJSON(), { skipFeeEnforcement: true, skipProof: true }])).toMatch(
      /param 1 \(options\).*unknown TxValidationOptions key "skipProof" \(known: isSimulation, skipFeeEnforcement\)/,
    );
  });

  it('reads bigints from decimal strings', () => {
    expect(parse('node_getNullifierSiblingPath', ['latest', '18446744073709551616'])[1]).toBe(18446744073709551616n);
    expect(parse('node_getNullifierSiblingPath', ['latest', 7])[1]).toBe(7n);
    expect(refusal('node_getNullifierSiblingPath', ['latest', '-1'])).toMatch(/param 1 \(leafIndex\)/);
  });

  it('names the entry of an array that is wrong, and the length limit', () => {
    const one = `0x${'0'.repeat(63)}1`;
    expect(refusal('node_findLeavesIndexes', ['latest', 0, [one, 5]])).toMatch(
      /^Invalid param 2 \(leafValues\[1\]\) of node_findLeavesIndexes: expected a field element/,
    );
    expect(refusal('node_findLeavesIndexes', ['latest', 0, Array(1001).fill(one)])).toBe(
      'Invalid param 2 (leafValues) of node_findLeavesIndexes: expected at most 1000 entries, got 1001',
    );
    expect(refusal('node_findLeavesIndexes', ['latest', 7, []])).toMatch(/param 1 \(treeId\).*from 0 to 6/);
  });

  it('names the key of an object that is wrong; refuses unknown keys of isValidTx options and a LogFilter; refuses null fields', () => {
    // A misspelt isValidTx option would silently validate otherwise: refused, naming the key (issue 17).
    expect(parse('node_isValidTx', [aTx().toJSON(), { isSimulation: true }])[1]).toEqual({ isSimulation: true });
    expect(refusal('node_isValidTx', [aTx().toJSON(), { isSimulation: true, extra: true }])).toMatch(
      /\(options\).*unknown TxValidationOptions key "extra"/,
    );
    // A LogFilter with a misspelt key would widen the query to every log: refused, naming the key (issue 16).
    const [filter] = parse('node_getPublicLogs', [{ fromBlock: 1, toBlock: 5 }]);
    expect(filter).toEqual({ fromBlock: 1, toBlock: 5 });
    expect(refusal('node_getPublicLogs', [{ fromBlock: 1, extra: true }])).toMatch(
      /\(filter\).*unknown LogFilter key "extra"/,
    );
    expect(refusal('node_getPublicLogs', [{ fromBlock: 'x' }])).toMatch(
      /^Invalid param 0 \(filter\.fromBlock\) of node_getPublicLogs: expected an integer/,
    );
    expect(refusal('node_getPublicLogs', [{ txHash: null }])).toMatch(/\(filter\.txHash\).*got null/);
    expect(refusal('node_getPublicLogs', [{ afterLog: { blockNumber: 1 } }])).toMatch(
      /\(filter\.afterLog\.blockHash\)/,
    );
    expect(refusal('node_getPublicLogs', [[]])).toMatch(/param 0 \(filter\).*expected a LogFilter object/);
    expect(parse('node_isValidTx', [aTx().toJSON(), { isSimulation: null }])[1]).toEqual({ isSimulation: undefined });
  });

  it('reads a slash round as all, current or a number', () => {
    expect(parse('nodeAdmin_getSlashOffenses', ['all'])).toEqual(['all']);
    expect(parse('nodeAdmin_getSlashOffenses', ['12'])).toEqual([12n]);
    expect(refusal('nodeAdmin_getSlashOffenses', ['soon'])).toMatch(/"all", "current" or a round number/);
  });
});
