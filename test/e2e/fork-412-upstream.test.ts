/**
 * A lazy fork (`l2node start --fork-url`) of an upstream that serves only 4.1.2's AztecNode methods: an l2node
 * dev node with a Token, behind a proxy that refuses every method 4.1.2's AztecNode does not have (l2node's
 * sibling paths by index among them). The official 4.1.2 wallet transfers the Token on the fork, publicly and
 * privately (a note the upstream made, proved by its witness), and the fork's new blocks have bit for bit the
 * roots of a full world state holding the upstream's state. Then an upstream that prunes its world-state history:
 * a fork below what it keeps is refused naming the oldest block it can fork (the one after the oldest it keeps: the
 * archive's witness at block N is read from N-1's state).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dev,
  expectForkRootsBitExact,
  openForkWallet,
  pub,
  publicBalances,
  startTokenUpstream,
  type TokenUpstream,
} from '../helpers/fork-e2e.js';
import type { WalletSession } from '../helpers/official-wallet.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type RunningNode, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * The methods of 4.1.2's AztecNode (the keys of AztecNodeApiSchema in @aztec/stdlib 4.1.2's
 * interfaces/aztec-node.ts, each served as node_<name>): all a 4.1.2 node answers on its public port.
 */
const AZTEC_NODE_412_METHODS = new Set(
  [
    'getL2Tips',
    'getWorldStateSyncStatus',
    'findLeavesIndexes',
    'getNullifierMembershipWitness',
    'getLowNullifierMembershipWitness',
    'getPublicDataWitness',
    'getBlockHashMembershipWitness',
    'getNoteHashMembershipWitness',
    'getL1ToL2MessageMembershipWitness',
    'getL1ToL2MessageCheckpoint',
    'isL1ToL2MessageSynced',
    'getL2ToL1Messages',
    'getBlock',
    'getBlockByHash',
    'getBlockByArchive',
    'getBlockNumber',
    'getCheckpointNumber',
    'getProvenBlockNumber',
    'getCheckpointedBlockNumber',
    'isReady',
    'getNodeInfo',
    'getBlocks',
    'getCheckpoints',
    'getCheckpointedBlocks',
    'getCheckpointsDataForEpoch',
    'getCurrentMinFees',
    'getMaxPriorityFees',
    'getNodeVersion',
    'getVersion',
    'getChainId',
    'getL1ContractAddresses',
    'getProtocolContractAddresses',
    'registerContractFunctionSignatures',
    'getPublicLogs',
    'getContractClassLogs',
    'getPrivateLogsByTags',
    'getPublicLogsByTagsFromContract',
    'sendTx',
    'getTxReceipt',
    'getTxEffect',
    'getPendingTxs',
    'getPendingTxCount',
    'getTxByHash',
    'getTxsByHash',
    'getPublicStorageAt',
    'getBlockHeader',
    'getBlockHeaderByArchive',
    'getValidatorsStats',
    'getValidatorStats',
    'simulatePublicCalls',
    'isValidTx',
    'getContractClass',
    'getContract',
    'getEncodedEnr',
    'getAllowedPublicSetup',
  ].map((m) => `node_${m}`),
);

let up: TokenUpstream;
/** The upstream as a 4.1.2 node: l2node's extensions answer "method not found". */
let as412: RpcProxy;
/** Methods the fork asked that a 4.1.2 node does not have. */
const refused = new Set<string>();
let fork: RunningNode;
let forkSession: WalletSession;

beforeAll(async () => {
  up = await startTokenUpstream();
  // A private balance too: alice's notes, made on the upstream, are spent on the fork.
  const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
  const token = TokenContract.at(up.tokenAddress, up.session.wallet);
  await token.methods.mint_to_private(up.alice, 500n).send({ from: up.alice });
  as412 = await startRpcProxy(up.node.publicUrl);
  as412.rewriteRequest = (call) => {
    if (AZTEC_NODE_412_METHODS.has(call.method)) return;
    refused.add(call.method);
    call.method = `not_in_4_1_2_${call.method}`;
  };
  const n = await pub<number>(up.node, 'node_getBlockNumber');
  fork = await spawnNode({ args: ['--fork-url', as412.url, '--fork-block', String(n)] });
  forkSession = await openForkWallet(up, fork);
}, 360_000);

afterAll(async () => {
  await forkSession?.stop();
  await fork?.stop();
  await up?.stop();
});

describe('a lazy fork of an upstream serving only 4.1.2 methods', () => {
  it("starts at its latest block without a sibling path by index; serves the upstream's logs below it", async () => {
    const n = await pub<number>(up.node, 'node_getBlockNumber');
    expect(fork.logs().find((l) => String(l.msg).includes('lazy mode'))?.msg).toContain(`at block ${n} (lazy mode`);
    expect([...refused].filter((m) => /SiblingPath/.test(m))).toEqual([]);
    // The Token's class log, emitted upstream below the fork, through 4.1.2's methods alone (its blocks, checked
    // against the archive by their witnesses), as the 4.1.2 client reads it from the upstream.
    const span = { fromBlock: 1, toBlock: n + 1 };
    const theirs = await up.session.node.getContractClassLogs(span);
    expect(theirs.logs.length).toBeGreaterThan(0);
    expect(await forkSession.node.getContractClassLogs(span)).toEqual(theirs);
  });

  it('the official 4.1.2 wallet transfers publicly and privately on the fork; the upstream is unchanged', async () => {
    const n = await pub<number>(up.node, 'node_getBlockNumber');
    const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
    const token = TokenContract.at(up.tokenAddress, forkSession.wallet);
    expect(await publicBalances(up, forkSession)).toEqual([900n, 100n]);
    await token.methods.transfer_in_public(up.alice, up.bob, 250n, 0n).send({ from: up.alice });
    expect(await publicBalances(up, forkSession)).toEqual([650n, 350n]);
    // Spends a note the upstream made: its membership witness comes from the upstream's by value.
    await token.methods.transfer(up.bob, 40n).send({ from: up.alice });
    const privateOf = async (who: typeof up.alice) =>
      (await token.methods.balance_of_private(who).simulate({ from: who })).result as bigint;
    expect(await privateOf(up.alice)).toBe(460n);
    expect(await publicBalances(up, up.session)).toEqual([900n, 100n]);
    expect(await pub<number>(up.node, 'node_getBlockNumber')).toBe(n);
    expect([...refused].filter((m) => /SiblingPath/.test(m))).toEqual([]);
  }, 180_000);

  it("a world state holding the upstream's whole state computes exactly the fork's roots for its new blocks", async () => {
    // One block more that writes to the upstream's public state (an update of one of its leaves).
    await dev(fork, 'nodeDev_setPublicStorage', [up.tokenAddress.toString(), `0x${'5'.padStart(64, '0')}`, '0x7']);
    await dev(fork, 'nodeDev_mineBlocks', [1]);
    await expectForkRootsBitExact(up.node, fork, await pub<number>(up.node, 'node_getBlockNumber'));
  }, 120_000);
});

describe('an upstream that prunes its world-state history', () => {
  it('a fork below the oldest block it keeps is refused naming that block', async () => {
    // History is pruned below the finalized block: one-slot epochs, proved and finalized at once.
    const pruning = await spawnNode({
      args: [
        '--world-state-history-blocks',
        '2',
        '--epoch-duration',
        '1',
        '--proof-delay',
        '0',
        '--finality-delay',
        '0',
      ],
    });
    try {
      await dev(pruning, 'nodeDev_mineBlocks', [6]);
      const oldest = await until('the upstream pruning its world-state history', async () => {
        const status = await pub<{ oldestHistoricBlockNumber: number }>(pruning, 'node_getWorldStateSyncStatus');
        return status.oldestHistoricBlockNumber > 1 ? status.oldestHistoricBlockNumber : undefined;
      });
      const child = spawnNodeProcess({ args: ['--fork-url', pruning.publicUrl, '--fork-block', '1'] });
      const status = await child.exited;
      expect(status.code).toBe(1);
      expect(child.stdout() + child.stderr()).toContain(`the oldest block it can fork is ${oldest + 1}`);
      // And that block forks (its archive witness is read at the block before, the oldest kept).
      const ok = await spawnNode({ args: ['--fork-url', pruning.publicUrl, '--fork-block', String(oldest + 1)] });
      expect(await pub<number>(ok, 'node_getBlockNumber')).toBe(oldest + 1);
      await ok.stop();
    } finally {
      await pruning.stop();
    }
  }, 120_000);
});
