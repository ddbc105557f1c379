import { IndexWithinCheckpoint } from '@aztec/foundation/branded-types';
import { Buffer32 } from '@aztec/foundation/buffer';
import { Secp256k1Signer } from '@aztec/foundation/crypto/secp256k1-signer';
import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { EthAddress as StdEthAddress } from '@aztec/foundation/eth-address';
import { getVKTreeRoot } from '@aztec/noir-protocol-circuits-types/vk-tree';
import { protocolContractsHash } from '@aztec/protocol-contracts';
import { BlockProposal as StdBlockProposal, TopicType } from '@aztec/stdlib/p2p';
import { mockTx } from '@aztec/stdlib/testing';
import { BlockHeader as StdBlockHeader, Tx as StdTx, TxHash as StdTxHash } from '@aztec/stdlib/tx';
import { compressComponentVersions } from '@aztec/stdlib/versioning';
import { ENR } from '@chainsafe/enr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { BlockProposal } from '../../src/core/p2p/block-proposal.js';
import { Tx } from '../../src/core/tx/tx.js';
import { initAztecOracle } from '../helpers/aztec-oracle.js';
import { AztecP2pOracle } from '../helpers/aztec-p2p-oracle/aztec-p2p-oracle.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { P2P_FLAGS, peersOf } from '../helpers/p2p-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';
import { keystoreDir, keystoreV1, testAddress } from '../unit/daemon/validators/validator-fixtures.js';

const VERSION = '00-31337-5fbdb231-1-00b5f2a1-00a1b2c3';
const status = (n: number) => () => ({
  latestBlockNumber: n,
  latestBlockHash: `0x${'ab'.repeat(32)}`,
  finalizedBlockNumber: 0,
});

/**
 * The oracle peer (4.1.2's libp2p line, gossipsub settings, ReqResp engine and stdlib codecs) against a second
 * copy of itself: shows the oracle speaks 4.1.2's wire before it is pointed at l2node, and that our codecs read
 * what it sends.
 */
describe('the 4.1.2 oracle peer, against itself', () => {
  let a: AztecP2pOracle;
  let b: AztecP2pOracle;

  beforeAll(async () => {
    await initAztecOracle();
    a = await AztecP2pOracle.start(VERSION, status(5));
    b = await AztecP2pOracle.start(VERSION, status(7));
  }, 60_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('connects over TCP + noise + yamux and runs the STATUS handshake both ways', async () => {
    expect(a.multiaddr).toMatch(/^\/ip4\/127\.0\.0\.1\/tcp\/\d+\/p2p\/16Uiu2/);
    const remote = await a.connect(b.multiaddr);
    expect(remote).toBe(b.peerId);
    const bStatus = await a.requestStatus(b.peerId);
    expect(bStatus.compressedComponentsVersion).toBe(VERSION);
    expect(bStatus.latestBlockNumber).toBe(7);
    const aStatus = await b.requestStatus(a.peerId);
    expect(aStatus.latestBlockNumber).toBe(5);
    expect(b.statusRequests.get(a.peerId)?.latestBlockNumber).toBe(5);
    expect(await a.ping(b.peerId)).toBe('pong');
  });

  it('gossips a tx and a block proposal that stdlib and our codecs decode', async () => {
    a.subscribe(TopicType.tx, TopicType.block_proposal);
    b.subscribe(TopicType.tx, TopicType.block_proposal);
    await until('b to see a subscribed', () =>
      b.subscribers(TopicType.block_proposal).includes(a.peerId) ? true : undefined,
    );
    const tx = await mockTx(21);
    const signer = new Secp256k1Signer(Buffer32.fromBuffer(Buffer.alloc(32, 0x31)));
    const proposal = await StdBlockProposal.createProposalFromSigner(
      StdBlockHeader.random(),
      IndexWithinCheckpoint(0),
      StdFr.random(),
      StdFr.random(),
      [tx.getTxHash(), StdTxHash.random()],
      undefined,
      (h) => Promise.resolve(signer.signMessage(h)),
    );
    expect(await b.publish(TopicType.tx, tx)).toBe(1);
    expect(await b.publish(TopicType.block_proposal, proposal)).toBe(1);
    const got = await until('a to receive both', () => (a.received.length >= 2 ? a.received : undefined));
    expect(a.undecodable).toEqual([]);
    const gotTx = got.find((g) => g.topic === TopicType.tx)?.message;
    const gotProposal = got.find((g) => g.topic === TopicType.block_proposal)?.message;
    expect(gotTx.toBuffer()).toEqual(tx.toBuffer());
    expect(Tx.fromBuffer(gotTx.toBuffer()).txHash.toString()).toBe(tx.getTxHash().toString());
    expect(BlockProposal.fromBuffer(gotProposal.toBuffer()).sender()?.toString()).toBe(signer.address.toString());
  });
});

/**
 * The oracle against a spawned l2node with P2P on (issue 28, "Interop with 4.1.2's own implementation"): the
 * node's version string is the one 4.1.2 computes for its chain, both sides run the STATUS handshake, a tx sent
 * to the node over RPC reaches the oracle by gossip and decodes with stdlib, and a tx the oracle gossips enters
 * the node's pool.
 */
describe('an l2node peer, seen from the 4.1.2 oracle', () => {
  const PAYER = new AztecAddress(0x6001n);
  const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
  let node: RunningNode;
  let oracle: AztecP2pOracle;
  let nodePeerId: string;
  let nodeAddress: string;
  let version: string;
  let nonce = 0n;
  let maxFee: bigint;
  const builder = devTxBuilder(genesisHeader(FUNDED));
  const build = () =>
    builder.build({
      feePayer: PAYER,
      txRequestHash: new Fr(++nonce + 7_000_000n),
      maxFeesPerGas: new GasFees(0n, maxFee),
    });

  beforeAll(async () => {
    await initAztecOracle();
    node = await spawnNode({
      args: [
        '--prefunded-accounts',
        prefundedFlag(FUNDED),
        '--disable-admin-api-key',
        '--sequencer-mode',
        'off',
        ...P2P_FLAGS,
      ],
    });
    const enr = ENR.decodeTxt(await result<string>(node.publicUrl, 'node_getEncodedEnr'));
    version = new TextDecoder().decode(enr.kvs.get('aztec'));
    nodePeerId = enr.peerId.toString();
    nodeAddress = `/ip4/${enr.ip}/tcp/${enr.tcp}/p2p/${nodePeerId}`;
    const fees = await result<{ feePerL2Gas: string }>(node.publicUrl, 'node_getCurrentMinFees');
    maxFee = 2n * BigInt(fees.feePerL2Gas);
    oracle = await AztecP2pOracle.start(version, status(0));
  }, 120_000);

  afterAll(async () => {
    await oracle?.stop();
    await node?.stop();
  });

  it("announces the version string 4.1.2 computes for the node's chain", async () => {
    const info = await result<{
      l1ChainId: number;
      rollupVersion: number;
      l1ContractAddresses: { rollupAddress: string };
    }>(node.publicUrl, 'node_getNodeInfo');
    expect(version).toBe(
      compressComponentVersions({
        l1ChainId: info.l1ChainId,
        l1RollupAddress: StdEthAddress.fromString(info.l1ContractAddresses.rollupAddress),
        rollupVersion: info.rollupVersion,
        l2ProtocolContractsHash: protocolContractsHash.toString(),
        l2CircuitsVkTreeRoot: getVKTreeRoot().toString(),
      }),
    );
  });

  it('connects and passes the STATUS handshake both ways', async () => {
    expect(await oracle.connect(nodeAddress)).toBe(nodePeerId);
    const theirs = await oracle.requestStatus(nodePeerId);
    expect(theirs.compressedComponentsVersion).toBe(version);
    const tips = await result<{ proposed: { number: number } }>(node.publicUrl, 'node_getL2Tips');
    expect(theirs.latestBlockNumber).toBe(tips.proposed.number);
    // The node runs its own side of the handshake on the new connection, through 4.1.2's ReqResp handler.
    await until('the node to ask the oracle for its STATUS', () => oracle.statusRequests.get(nodePeerId));
    expect(oracle.statusRequests.get(nodePeerId).compressedComponentsVersion).toBe(version);
    expect(await oracle.ping(nodePeerId)).toBe('pong');
  });

  it('receives a tx the node gossips and decodes it with stdlib', async () => {
    oracle.subscribe(TopicType.tx);
    await until('the node to see the oracle subscribed', () =>
      oracle.subscribers(TopicType.tx).includes(nodePeerId) ? true : undefined,
    );
    // Give the node's gossipsub a heartbeat to learn the oracle's subscription.
    await new Promise((r) => setTimeout(r, 1500));
    const tx = build();
    expect((await call(node.publicUrl, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
    const got = await until('the tx to reach the oracle', () =>
      oracle.received.find(
        (g) => g.topic === TopicType.tx && g.message.getTxHash().toString() === tx.txHash.toString(),
      ),
    );
    expect(oracle.undecodable).toEqual([]);
    expect(got.message.toBuffer()).toEqual(tx.toBuffer());
  });

  it('accepts a valid tx the oracle gossips into its pool', async () => {
    const tx = StdTx.fromBuffer(build().toBuffer());
    expect(await oracle.publish(TopicType.tx, tx)).toBeGreaterThan(0);
    await until('the tx in the node', async () =>
      (await result(node.publicUrl, 'node_getTxByHash', [tx.getTxHash().toString()])) ? true : undefined,
    );
    const peers = await peersOf(node);
    expect(peers.find((p) => p.id === oracle.peerId)?.score).toBe(0);
  });

  it("serves a block by req/resp that 4.1.2's L2Block decodes, the node's own block byte for byte", async () => {
    await result(node.adminUrl, 'nodeDev_mineBlocks', [1]);
    const n = await result<number>(node.publicUrl, 'node_getBlockNumber');
    expect(n).toBeGreaterThan(0);
    const body = await oracle.requestBlock(nodePeerId, n);
    const { L2Block: StdL2Block } = await import('@aztec/stdlib/block');
    const block = StdL2Block.fromBuffer(body);
    expect(block.number).toBe(n);
    const ours = await result<{ archive: { root: string } }>(node.publicUrl, 'node_getBlock', [n]);
    expect(block.archive.root.toString()).toBe(ours.archive.root);
    expect(block.toBuffer()).toEqual(body);
    // A block it does not have: SUCCESS with an empty body, as 4.1.2 answers.
    expect(await oracle.requestBlock(nodePeerId, n + 1000)).toHaveLength(0);
  });

  it('disconnects a 4.1.2 peer on another network after the handshake, naming the component that differs', async () => {
    const parts = version.split('-');
    parts[3] = String(Number(parts[3]) + 1);
    const stranger = await AztecP2pOracle.start(parts.join('-'), status(0));
    try {
      await stranger.connect(nodeAddress);
      await until(
        'the node to drop the stranger',
        () => (stranger.connectedPeers().length === 0 ? true : undefined),
        20_000,
      );
      expect(node.logs().some((l) => /rollup version differs/.test(l.msg ?? ''))).toBe(true);
      // The oracle on the right network is still connected.
      expect(oracle.connectedPeers()).toContain(nodePeerId);
    } finally {
      await stranger.stop();
    }
  });

  it('disconnects a peer that gossips undecodable txs, and keeps serving RPC', async () => {
    const hostile = await AztecP2pOracle.start(version, status(0));
    try {
      await hostile.connect(nodeAddress);
      await until('the node to answer the hostile peer STATUS', () => hostile.statusRequests.get(nodePeerId));
      hostile.subscribe(TopicType.tx);
      await until('the hostile peer to see the node on the tx topic', () =>
        hostile.subscribers(TopicType.tx).includes(nodePeerId) ? true : undefined,
      );
      // Each costs a LowTolerance penalty (50 points); two cross the disconnect threshold whatever decay runs first.
      expect(await hostile.publishPayload(TopicType.tx, Buffer.from('not a tx at all'))).toBe(1);
      expect(await hostile.publishPayload(TopicType.tx, Buffer.from('still not a tx'))).toBe(1);
      await until(
        'the node to drop the hostile peer',
        () => (hostile.connectedPeers().length === 0 ? true : undefined),
        20_000,
      );
      expect(typeof (await result<number>(node.publicUrl, 'node_getBlockNumber'))).toBe('number');
      expect(oracle.connectedPeers()).toContain(nodePeerId);
    } finally {
      await hostile.stop();
    }
  });
});

/**
 * A block proposal an l2node proposer gossips (issue 28, "receives and decodes a tx and a block proposal gossiped
 * by l2node"): a node holding the one attester of its committee builds a block a slot; the 4.1.2 oracle, subscribed
 * to the proposal topic, decodes its proposals with stdlib: the node's block (its archive), signed by that attester.
 */
describe('a block proposal an l2node proposer gossips, seen from the 4.1.2 oracle', () => {
  const FUNDED = [{ address: new AztecAddress(0x6002n), amount: 10n ** 24n }];
  const keystore = keystoreDir();
  let node: RunningNode;
  let oracle: AztecP2pOracle;

  beforeAll(async () => {
    await initAztecOracle();
    keystore.write('v.json', keystoreV1([0]));
    node = await spawnNode({
      args: [
        ...['--prefunded-accounts', prefundedFlag(FUNDED), '--disable-admin-api-key'],
        ...['--sequencer-mode', 'interval', '--min-txs-per-block', '0'],
        ...['--keystore-directory', keystore.dir],
        ...P2P_FLAGS,
      ],
    });
    const enr = ENR.decodeTxt(await result<string>(node.publicUrl, 'node_getEncodedEnr'));
    oracle = await AztecP2pOracle.start(new TextDecoder().decode(enr.kvs.get('aztec')), status(0));
    oracle.subscribe(TopicType.block_proposal);
    expect(await oracle.connect(`/ip4/${enr.ip}/tcp/${enr.tcp}/p2p/${enr.peerId.toString()}`)).toBe(
      enr.peerId.toString(),
    );
  }, 120_000);

  afterAll(async () => {
    await oracle?.stop();
    await node?.stop();
    keystore.cleanup();
  });

  it("decodes it with stdlib: the node's block, signed by its proposer", async () => {
    const got = await until(
      'a block proposal at the oracle',
      () => oracle.received.find((g) => g.topic === TopicType.block_proposal),
      { timeoutMs: 60_000 },
    );
    expect(oracle.undecodable).toEqual([]);
    const proposal = got.message as StdBlockProposal;
    expect(proposal.getSender()?.toString().toLowerCase()).toBe(testAddress(0));
    const block = await result<{ archive: { root: string } }>(node.publicUrl, 'node_getBlock', [
      Number(proposal.blockNumber),
    ]);
    expect(proposal.archiveRoot.toString()).toBe(block.archive.root);
    expect(BlockProposal.fromBuffer(proposal.toBuffer()).sender()?.toString().toLowerCase()).toBe(testAddress(0));
  });
});
