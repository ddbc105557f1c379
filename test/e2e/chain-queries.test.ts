import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockHeader } from '../../src/core/block/block-header.js';
import { GENESIS_ARCHIVE_ROOT, GENESIS_BLOCK_HEADER_HASH } from '../../src/core/constants.js';
import { toHex64 } from '../../src/core/fr.js';
import { SiblingPath } from '../../src/daemon/world-state/sibling-path.js';
import { call, result } from '../helpers/mempool-e2e.js';
import { postJson, QUICK_EPOCH_FLAGS, type RunningNode, rpc, runCli, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * The chain's queries over RPC on a spawned dev node without prefunded accounts or sponsored FPC (so its genesis
 * is the Aztec 4.1.2's) that builds an empty block every 1 s slot: genesis, tips, L1-to-L2 messages sent through the
 * admin port and the CLI, block hash witnesses, and the limits and bad params of each method.
 */
let node: RunningNode;

beforeAll(async () => {
  node = await spawnNode({
    args: [
      '--prefunded-accounts',
      'none',
      '--sponsored-fpc',
      'false',
      '--slot-duration',
      '1',
      '--blocks-per-slot',
      '1',
      '--sequencer-mode',
      'interval',
      '--min-txs-per-block',
      '0',
      ...QUICK_EPOCH_FLAGS,
    ],
  });
});
afterAll(async () => {
  await node?.stop();
});

/** The admin API key, for the admin listener (the public one ignores it). */
const adminKey = () => ({ 'x-api-key': node.adminKey ?? '' });

describe('genesis', () => {
  it("block 0's header hashes to Aztec 4.1.2's genesis block header hash", async () => {
    const header = BlockHeader.fromJSON(await result(node.publicUrl, 'node_getBlockHeader', [0]));
    expect(header.hash().value).toBe(GENESIS_BLOCK_HEADER_HASH);
    const block = await result<{ header: unknown; checkpointNumber: number; body: { txEffects: unknown[] } }>(
      node.publicUrl,
      'node_getBlock',
      [0],
    );
    expect(BlockHeader.fromJSON(block.header).hash().value).toBe(GENESIS_BLOCK_HEADER_HASH);
    expect(block.checkpointNumber).toBe(0);
    expect(block.body.txEffects).toEqual([]);
    const byHash = await result<{ header: unknown }>(node.publicUrl, 'node_getBlock', [
      toHex64(GENESIS_BLOCK_HEADER_HASH),
    ]);
    expect(byHash.header).toEqual(block.header);
  });

  it("block 0's archive is the genesis archive (one leaf, the reference root), which block 1's lastArchive repeats", async () => {
    const block0 = await result<{ archive: { root: string; nextAvailableLeafIndex: number } }>(
      node.publicUrl,
      'node_getBlock',
      [0],
    );
    expect(block0.archive).toEqual({ root: toHex64(GENESIS_ARCHIVE_ROOT), nextAvailableLeafIndex: 1 });
    await until('block 1', async () => (await result<number>(node.publicUrl, 'node_getBlockNumber')) >= 1);
    const header1 = BlockHeader.fromJSON(await result(node.publicUrl, 'node_getBlockHeader', [1]));
    expect(toHex64(header1.lastArchive.root.value)).toBe(block0.archive.root);
    expect(header1.lastArchive.nextAvailableLeafIndex).toBe(1);
  });
});

describe('blocks and tips', () => {
  it('builds blocks on the slot clock; tips reach checkpointed, proven and finalized', async () => {
    const tips = await until(
      'a finalized block',
      async () => {
        const t = await result<{ finalized: { block: { number: number } } }>(node.publicUrl, 'node_getL2Tips');
        return t.finalized.block.number >= 1 ? t : undefined;
      },
      15_000,
    );
    expect(tips).toMatchObject({ proposed: { number: expect.any(Number) } });
    const proven = await result<number>(node.publicUrl, 'node_getProvenBlockNumber');
    const checkpointed = await result<number>(node.publicUrl, 'node_getCheckpointedBlockNumber');
    const latest = await result<number>(node.publicUrl, 'node_getBlockNumber');
    expect(latest).toBeGreaterThanOrEqual(checkpointed);
    expect(checkpointed).toBeGreaterThanOrEqual(proven);
    expect(await result<number>(node.publicUrl, 'node_getCheckpointNumber')).toBeGreaterThanOrEqual(1);
    const status = await result<{ finalizedBlockNumber: number }>(node.publicUrl, 'node_getWorldStateSyncStatus');
    expect(status.finalizedBlockNumber).toBeGreaterThanOrEqual(1);
  });

  it('a block hash from getBlock is the archive leaf and verifies with getBlockHashMembershipWitness', async () => {
    await until(
      'block 3',
      async () => ((await result<number>(node.publicUrl, 'node_getBlockNumber')) >= 3 ? true : undefined),
      15_000,
    );
    const block = await result<{ header: unknown; archive: { root: string } }>(node.publicUrl, 'node_getBlock', [2]);
    const hash = BlockHeader.fromJSON(block.header).hash();
    const leaves = await result<{ data: string; l2BlockNumber: number }[]>(node.publicUrl, 'node_findLeavesIndexes', [
      2,
      4,
      [hash.toString()],
    ]);
    expect(leaves[0]).toMatchObject({ data: '2', l2BlockNumber: 2 });
    // The spec's tree 5 (BLOCKS_TREE) is the tree of block hashes: the same archive.
    expect(await result(node.publicUrl, 'node_findLeavesIndexes', [2, 5, [hash.toString()]])).toEqual(leaves);
    // The witness at block 3 is against block 3's lastArchive: the archive right after block 2.
    const witness = Buffer.from(
      await result<string>(node.publicUrl, 'node_getBlockHashMembershipWitness', [3, hash.toString()]),
      'base64',
    );
    const index = witness.readBigUInt64BE(24);
    const path = new SiblingPath(
      Array.from({ length: (witness.length - 32) / 32 }, (_, i) => witness.subarray(32 + 32 * i, 64 + 32 * i)),
    );
    const next = BlockHeader.fromJSON(await result(node.publicUrl, 'node_getBlockHeader', [3]));
    expect(index).toBe(2n);
    expect(path.computeRoot(hash.value, index)).toBe(next.lastArchive.root.value);
    expect(toHex64(next.lastArchive.root.value)).toBe(block.archive.root);
  });
});

describe('L1-to-L2 messages (dev mode)', () => {
  it('nodeDev_sendL1ToL2Message needs the admin key and is not served on the public port', async () => {
    const noKey = await postJson(node.adminUrl, rpc('nodeDev_sendL1ToL2Message', ['0x77']));
    expect(noKey.status).toBe(401);
    const onPublic = await call(node.publicUrl, 'nodeDev_sendL1ToL2Message', ['0x77'], adminKey());
    expect(onPublic.error?.code).toBe(-32601);
    expect(onPublic.error?.message).toContain('served on the admin listener');
  });

  it('a message sent with the CLI enters the tree with the next checkpoint, with its witness', async () => {
    const message = toHex64(0x2c5f9b1d2a7en);
    const sent = await runCli(['admin', 'send-l1-message', '0x2c5f9b1d2a7e', '--admin-url', node.adminUrl, '--json'], {
      NODE_ADMIN_API_KEY: node.adminKey as string,
    });
    expect(sent.code, sent.stderr).toBe(0);
    const { index, checkpoint } = (JSON.parse(sent.stdout) as { result: { index: string; checkpoint: number } }).result;
    expect(Number(index) % 1024).toBe(0);
    expect(await result<boolean>(node.publicUrl, 'node_isL1ToL2MessageSynced', [message])).toBe(true);
    expect(await result<number>(node.publicUrl, 'node_getL1ToL2MessageCheckpoint', [message])).toBe(checkpoint);
    const blockNumber = await until(
      'the message in a block',
      async () => (await result<number | null>(node.publicUrl, 'node_getL1ToL2MessageBlock', [message])) ?? undefined,
      15_000,
    );
    const block = await result<{ checkpointNumber: number; indexWithinCheckpoint: number; header: unknown }>(
      node.publicUrl,
      'node_getBlock',
      [blockNumber],
    );
    expect(block).toMatchObject({ checkpointNumber: checkpoint, indexWithinCheckpoint: 0 });
    const [leafIndex, pathB64] = await result<[string, string]>(
      node.publicUrl,
      'node_getL1ToL2MessageMembershipWitness',
      [blockNumber, message],
    );
    expect(leafIndex).toBe(index);
    const path = SiblingPath.fromBuffer(Buffer.from(pathB64, 'base64'));
    const header = BlockHeader.fromJSON(block.header);
    expect(path.computeRoot(BigInt(message), BigInt(index))).toBe(header.state.l1ToL2MessageTree.root.value);
    // Before its block the message is not in the tree.
    expect(
      await result(node.publicUrl, 'node_getL1ToL2MessageMembershipWitness', [blockNumber - 1, message]),
    ).toBeNull();
  });

  it('refuses a zero message with invalid params', async () => {
    const a = await call(node.adminUrl, 'nodeDev_sendL1ToL2Message', [toHex64(0n)], adminKey());
    expect(a.error?.code).toBe(-32602);
    expect(a.error?.message).toMatch(/non-zero field element/);
  });
});

describe('limits and bad params', () => {
  const invalid = (method: string, params: unknown[], match: RegExp) =>
    it(`${method} ${JSON.stringify(params).slice(0, 60)} -> -32602`, async () => {
      const a = await call(node.publicUrl, method, params);
      expect(a.error?.code, JSON.stringify(a)).toBe(-32602);
      expect(a.error?.message).toMatch(match);
    });
  const tags = (n: number) => Array.from({ length: n }, (_, i) => toHex64(BigInt(i + 1)));

  // One rule for every 32-byte param: 0x + 64 hex digits, either case (spec parts 3 and 4).
  invalid('node_findLeavesIndexes', ['latest', 0, ['0x01']], /param 2 \(leafValues\[0\]\).*0x \+ 64 hex digits/);
  invalid('node_getLogsByTags', [['0x01']], /param 0 \(tags\[0\]\).*0x \+ 64 hex digits/);
  invalid('node_getPublicStorageAt', ['latest', toHex64(5n), '1'], /param 2 \(slot\).*0x \+ 64 hex digits/);
  it('takes upper-case 32-byte hex', async () => {
    const upper = `0x0${'A'.repeat(63)}`;
    expect(await result(node.publicUrl, 'node_getLogsByTags', [[upper]])).toEqual([[]]);
    expect(await result(node.publicUrl, 'node_findLeavesIndexes', ['latest', 1, [upper]])).toEqual([null]);
    expect(await result(node.publicUrl, 'node_getTxEffect', [upper])).toBeNull();
  });
  it('nodeAdmin_setConfig refuses a string for a number setting', async () => {
    const a = await call(node.adminUrl, 'nodeAdmin_setConfig', [{ maxPendingTxCount: '5' }], adminKey());
    expect(a.error?.code).toBe(-32602);
    expect(a.error?.message).toMatch(/maxPendingTxCount: expected an integer from 0 to 1000000, got "5"/);
  });

  invalid('node_getBlocks', [0, 10], /from/);
  invalid('node_getBlocks', [1, 0], /limit/);
  invalid('node_getBlocks', [1, 101], /limit/);
  invalid('node_getBlock', ['5'], /block number, "latest" or a block hash/);
  invalid('node_getBlock', [-1], /blockNumber/);
  invalid('node_getBlockHeader', ['earliest'], /blockNumber/);
  invalid('node_getCheckpoints', [1, 51], /limit/);
  invalid('node_getCheckpointedBlocks', [0, 5], /from/);
  invalid('node_getPrivateLogs', [1, 1001], /limit/);
  invalid('node_getPrivateLogs', [0, 10], /from/);
  invalid('node_getLogsByTags', [tags(1001)], /at most 1000/);
  invalid('node_getLogsByTags', [tags(1), 0], /logsPerTag/);
  invalid('node_getLogsByTags', [tags(1), 11], /logsPerTag/);
  invalid('node_getPrivateLogsByTags', [tags(101)], /at most 100/);
  invalid('node_getPrivateLogsByTags', [tags(1), -1], /page/);
  invalid('node_getPublicLogsByTagsFromContract', ['0x05', tags(1)], /contractAddress/);
  invalid('node_getPublicLogs', [{ fromBlock: null }], /fromBlock/);
  invalid('node_getPublicLogs', [], /filter/);
  invalid('node_getContractClassLogs', [{ txHash: '0x12' }], /txHash/);
  invalid('node_findLeavesIndexes', ['latest', 6, [toHex64(1n)]], /treeId 6 is not a tree/);
  invalid('node_findLeavesIndexes', ['latest', 7, ['0x01']], /treeId/);
  invalid('node_findLeavesIndexes', ['latest', 0, tags(1001)], /at most 1000/);
  invalid('node_registerContractFunctionSignatures', [Array.from({ length: 101 }, () => 'f()')], /at most 100/);
  invalid('node_registerContractFunctionSignatures', [['transfer (Field)']], /not a function signature/);
  invalid('node_getNullifierSiblingPath', ['latest', '-1'], /leafIndex/);
  invalid('node_getArchiveSiblingPath', ['latest', String(2n ** 30n)], /index/i);
  invalid('node_getPublicStorageAt', ['latest', '0x05', '0x01'], /contract/);
  invalid('node_getContract', ['0x' + 'ff'.repeat(32)], /address/);

  invalid('node_getTxEffect', ['0x12'], /txHash/);
  invalid('node_getBlockByHash', [5], /blockHash/);
  invalid('node_getBlockByArchive', [{}], /archive/);
  invalid('node_getBlockHeaderByArchive', [], /archive/);
  invalid('node_getCheckpointNumber', [1], /takes no params/);
  invalid('node_getL2Tips', [1], /takes no params/);
  invalid('node_getWorldStateSyncStatus', ['latest'], /takes no params/);
  invalid('node_getBlockHashMembershipWitness', ['latest', 'zz'], /blockHash/);
  invalid('node_getNoteHashMembershipWitness', [1.5, '0x01'], /blockNumber/);
  invalid('node_getNullifierMembershipWitness', ['latest'], /nullifier/);
  invalid('node_getLowNullifierMembershipWitness', ['latest', 5], /nullifier/);
  invalid('node_getPublicDataWitness', ['latest', null], /leafSlot/);
  invalid('node_getPublicDataSiblingPath', ['latest', 'abc'], /leafIndex/);
  invalid('node_getNoteHashSiblingPath', ['latest', String(2n ** 42n)], /index/i);
  invalid('node_getL1ToL2MessageMembershipWitness', ['latest', []], /l1ToL2Message/);
  invalid('node_getL1ToL2MessageBlock', [5], /l1ToL2Message/);
  invalid('node_getL1ToL2MessageCheckpoint', [], /l1ToL2Message/);
  invalid('node_isL1ToL2MessageSynced', [null], /l1ToL2Message/);
  invalid('node_getL2ToL1Messages', ['x'], /blockNumber/);
  invalid('node_getPublicLogsByTagsFromContract', [toHex64(5n), 'notarray'], /tags/);
  invalid('node_getContractClass', [5], /id/);
  invalid('node_getNodeInfo', [1], /takes no params/);
  invalid('node_getEncodedEnr', [1], /takes no params/);
  invalid('node_registerContractFunctionSignatures', ['f()'], /functionSignatures/);

  it('nodeDev_sendL1ToL2Message refuses what is not a field element', async () => {
    const a = await call(node.adminUrl, 'nodeDev_sendL1ToL2Message', ['hello'], adminKey());
    expect(a.error?.code).toBe(-32602);
    expect(a.error?.message).toMatch(/message/);
  });

  it('a block beyond the chain: null for block reads, BLOCK_NOT_AVAILABLE for state reads', async () => {
    expect(await result(node.publicUrl, 'node_getBlock', [1_000_000])).toBeNull();
    expect(await result(node.publicUrl, 'node_getBlockHeader', [1_000_000])).toBeNull();
    const a = await call(node.publicUrl, 'node_getPublicStorageAt', [1_000_000, toHex64(5n), toHex64(1n)]);
    expect(a.error).toMatchObject({ code: -32002, data: { code: 'BLOCK_NOT_AVAILABLE' } });
    expect(a.error?.message).toMatch(/not yet synced/);
    const unknownHash = await call(node.publicUrl, 'node_getNullifierMembershipWitness', [
      toHex64(12345n),
      toHex64(1n),
    ]);
    expect(unknownHash.error).toMatchObject({ code: -32002, data: { code: 'BLOCK_NOT_AVAILABLE' } });
    const ref = await call(node.publicUrl, 'node_getPrivateLogsByTags', [tags(1), 0, toHex64(12345n)]);
    expect(ref.error?.message).toMatch(/reorg/);
  });

  it('answers null for what does not exist and [] for empty ranges', async () => {
    expect(await result(node.publicUrl, 'node_getTxEffect', [toHex64(9n)])).toBeNull();
    expect(await result(node.publicUrl, 'node_getContractClass', [toHex64(9n)])).toBeNull();
    expect(await result(node.publicUrl, 'node_getBlockByArchive', [toHex64(9n)])).toBeNull();
    expect(await result(node.publicUrl, 'node_getL1ToL2MessageBlock', [toHex64(9n)])).toBeNull();
    expect(await result(node.publicUrl, 'node_getBlocks', [1_000_000, 5])).toEqual([]);
    expect(await result(node.publicUrl, 'node_getLogsByTags', [tags(2)])).toEqual([[], []]);
    expect(await result(node.publicUrl, 'node_getPublicLogs', [{}])).toEqual({ logs: [], maxLogsHit: false });
    expect(await result(node.publicUrl, 'node_getEncodedEnr')).toBeNull();
    const info = await result<{ realProofs: boolean; l1ContractAddresses: Record<string, string> }>(
      node.publicUrl,
      'node_getNodeInfo',
    );
    expect(info.realProofs).toBe(false);
    expect(Object.keys(info.l1ContractAddresses)).toHaveLength(11);
    expect(
      await result(node.publicUrl, 'node_registerContractFunctionSignatures', [['transfer(Field,u128)']]),
    ).toBeNull();
  });
});
