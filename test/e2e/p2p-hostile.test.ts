import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { L2Block } from '../../src/core/block/l2-block.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { encodeGossipMessageData } from '../../src/core/p2p/gossip-message.js';
import { BitVector, encodeBlockRequest, encodeBlockTxsRequest } from '../../src/core/p2p/reqresp-payloads.js';
import { snappyCompress } from '../../src/core/p2p/snappy-block.js';
import { TxBuilder } from '../../src/core/tx/tx-builder.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../src/daemon/config/published-chain-values.js';
import { type HostileAnswer, HostilePeer, type HostilePeerOptions } from '../helpers/hostile-peer.js';
import { genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { connectHostilePeer, expectDropped, P2P_FLAGS, peerView } from '../helpers/p2p-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * Hostile peers against one node (issue 28): each case connects a fresh peer that passes the status handshake,
 * then sends garbage, oversized or invalid gossip and req/resp messages, on every protocol. Each is dropped and
 * scored; the worst get the peer disconnected; the pool and the chain take none of it and the node keeps
 * answering RPC. The node follows the network (--sync-from p2p), so it also asks peers that claim to be ahead for
 * blocks, and their hostile answers are checked the same way.
 */
const PAYER = new AztecAddress(0x5001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];

let node: RunningNode;
const peers: HostilePeer[] = [];

const hostile = (options?: HostilePeerOptions) => connectHostilePeer(node, peers, options);
const disconnected = (p: HostilePeer) => expectDropped(node, p);
const peerScore = async (p: HostilePeer) => peerView(node, p.id);
/** A peer that claims block 5 as its tip: the node asks it for block 1 on. */
const AHEAD = { number: 5, hash: `0x${'ab'.repeat(32)}` };
const blockAnswer =
  (body: Uint8Array): HostileAnswer =>
  () => [Uint8Array.of(0), body];

beforeAll(async () => {
  // The libp2p stack takes seconds to load on a busy machine.
  node = await spawnNode({
    readyTimeoutMs: 60_000,
    args: [
      '--prefunded-accounts',
      prefundedFlag(FUNDED),
      '--disable-admin-api-key',
      '--sync-from',
      'p2p',
      ...P2P_FLAGS,
    ],
  });
}, 90_000);

afterAll(async () => {
  await Promise.all(peers.map((p) => p.stop()));
  await node?.stop();
});

describe('hostile peers', () => {
  it('gossip that does not decode as a tx is rejected and the sender disconnected', async () => {
    const p = await hostile();
    await p.publishTx(snappyCompress(encodeGossipMessageData(Buffer.from('not a tx at all'))));
    await disconnected(p);
    expect(await result(node.publicUrl, 'node_getPendingTxCount')).toBe(0);
  });

  it('gossip that is not snappy, or announces more than a tx may be, is dropped before decompression and scored', async () => {
    const p = await hostile();
    // A snappy preamble announcing 16 MiB, far above the 512 KiB of a tx, then junk.
    await p.publishTx(Buffer.from([0x80, 0x80, 0x80, 0x08, 0x00, 1, 2, 3]));
    await p.publishTx(Buffer.from('\xff\xff\xff\xff\xff plain junk'));
    const seen = await until('gossipsub to score the invalid deliveries', async () => {
      const v = await peerScore(p);
      return v && v.gossipScore < 0 ? v : undefined;
    });
    expect(seen.gossipScore).toBeLessThan(0);
    expect(await result(node.publicUrl, 'node_getPendingTxCount')).toBe(0);
  });

  it('a tx that decodes but is invalid (another chain id) is rejected and costs the sender', async () => {
    const p = await hostile();
    const builder = new TxBuilder({
      chainId: 999n,
      rollupVersion: 1n,
      vkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT,
      protocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
      anchorBlockHeader: genesisHeader(FUNDED),
    });
    const tx = builder.build({
      feePayer: PAYER,
      txRequestHash: new Fr(77n),
      maxFeesPerGas: new GasFees(0n, 10n ** 12n),
    });
    await p.publishTx(snappyCompress(encodeGossipMessageData(tx.toBuffer())));
    const seen = await until('the penalty', async () => {
      const v = await peerScore(p);
      return v && v.score < 0 ? v : undefined;
    });
    expect(seen.score).toBeLessThan(0);
    expect(await result(node.publicUrl, 'node_getTxByHash', [tx.txHash.toString()])).toBeNull();
  });

  it('a malformed tx request is answered BADLY_FORMED_REQUEST and the sender disconnected', async () => {
    const p = await hostile();
    const res = await p.request('tx', Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2]));
    expect(res).toEqual(Buffer.from([2]));
    await disconnected(p);
  });

  it('an oversized request is cut off and the sender disconnected', async () => {
    const p = await hostile();
    await p.request('ping', Buffer.alloc(64 * 1024, 7));
    await disconnected(p);
  });

  it('a flood of requests is rate limited, then the peer is disconnected', async () => {
    const p = await hostile();
    // In rounds below the per-connection stream limit: the burst is 10 pings, each refusal costs 2 points and
    // -50 disconnects.
    const answers: (Buffer | string)[] = [];
    for (let round = 0; round < 4 && p.connected(); round++) {
      answers.push(...(await Promise.all(Array.from({ length: 20 }, () => p.request('ping', Buffer.from([0]))))));
    }
    // RATE_LIMIT_EXCEEDED (1) once the burst is spent.
    expect(answers.some((a) => Buffer.isBuffer(a) && a.equals(Buffer.from([1])))).toBe(true);
    await disconnected(p);
  });

  it('a malformed block request is answered BADLY_FORMED_REQUEST and the sender disconnected', async () => {
    const p = await hostile();
    expect(await p.request('block', Buffer.from([1, 2, 3]))).toEqual(Buffer.from([2]));
    await disconnected(p);
  });

  it('a block the node does not have is answered SUCCESS with an empty body, as 4.1.2 answers it', async () => {
    const p = await hostile();
    expect(await p.request('block', encodeBlockRequest(1_000))).toEqual(Buffer.from([0]));
    expect((await peerScore(p))?.score).toBe(0);
  });

  it('a block request flood is refused past 2 a second, then the peer is disconnected', async () => {
    const p = await hostile();
    const answers: (Buffer | string)[] = [];
    for (let round = 0; round < 10 && p.connected(); round++) {
      answers.push(...(await Promise.all(Array.from({ length: 8 }, () => p.request('block', encodeBlockRequest(7))))));
    }
    expect(answers.some((a) => Buffer.isBuffer(a) && a.equals(Buffer.from([1])))).toBe(true);
    await disconnected(p);
  });

  it('a malformed block_txs request is answered BADLY_FORMED_REQUEST and the sender disconnected', async () => {
    const p = await hostile();
    expect(await p.request('block_txs', Buffer.alloc(40, 0xff))).toEqual(Buffer.from([2]));
    await disconnected(p);
  });

  it('block_txs for a proposal the node does not know, without tx hashes, is NOT_FOUND', async () => {
    const p = await hostile();
    const req = encodeBlockTxsRequest({ archiveRoot: new Fr(123n), txHashes: [], txIndices: BitVector.of(3, [0]) });
    expect(await p.request('block_txs', req)).toEqual(Buffer.from([4]));
    expect((await peerScore(p))?.score).toBe(0);
  });

  it('an oversized goodbye, status or tx request is cut off and the sender disconnected', async () => {
    for (const name of ['goodbye', 'status', 'tx'] as const) {
      const p = await hostile();
      await p.request(name, Buffer.alloc(64 * 1024, 7));
      await disconnected(p);
    }
  });

  it('a peer whose STATUS answer does not decode is disconnected at the handshake', async () => {
    const enr = await result<string>(node.publicUrl, 'node_getEncodedEnr');
    const p = await until(
      'a hostile peer to connect',
      () =>
        HostilePeer.connect(enr, {
          answers: { status: () => [Uint8Array.of(0), snappyCompress(Buffer.from('not a status'))] },
        }),
      { retryErrors: true, intervalMs: 300 },
    );
    peers.push(p);
    await until('the node to refuse the status', async () =>
      node.logs().some((l) => l.msg?.includes(`peer ${p.id}`) && /its status does not decode/.test(l.msg))
        ? true
        : undefined,
    );
    expect(await peerView(node, p.id)).toBeUndefined();
  });

  it('a peer ahead that answers block requests with garbage, an oversized body or the wrong block is disconnected', async () => {
    const answers: Record<string, HostileAnswer> = {
      garbage: blockAnswer(snappyCompress(Buffer.from('not a block'))),
      // A snappy preamble announcing 16 MiB, past the 3 MiB of a block: refused before it is decompressed.
      oversized: blockAnswer(Buffer.from([0x80, 0x80, 0x80, 0x08, 0x00, 1, 2, 3])),
      // A well-formed block, but block 0 when block 1 was asked for.
      'the wrong block': blockAnswer(snappyCompress(L2Block.empty().toBuffer())),
    };
    for (const [what, answer] of Object.entries(answers)) {
      const p = await hostile({ tip: AHEAD, answers: { block: answer } });
      await disconnected(p);
      expect(
        node.logs().some((l) => l.msg?.includes(`peer ${p.id}`) && /block/.test(l.msg)),
        what,
      ).toBe(true);
    }
    expect(await result(node.publicUrl, 'node_getBlockNumber')).toBe(0);
  });

  it('keeps serving RPC after all of it', async () => {
    expect(await result(node.publicUrl, 'node_getBlockNumber')).toBe(0);
    expect(await result(node.publicUrl, 'node_isReady')).toBe(true);
  });
});
