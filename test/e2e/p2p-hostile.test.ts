import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { encodeGossipMessageData } from '../../src/core/p2p/gossip-message.js';
import { snappyCompress } from '../../src/core/p2p/snappy-block.js';
import { TxBuilder } from '../../src/core/tx/tx-builder.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../src/daemon/config/published-chain-values.js';
import { HostilePeer } from '../helpers/hostile-peer.js';
import { genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * Hostile peers against one node (issue 28): each case connects a fresh peer that passes the status handshake,
 * then sends garbage, oversized or invalid gossip and req/resp messages. Each is dropped and scored; the worst
 * get the peer disconnected; the pool takes none of it and the node keeps answering RPC.
 */
const PAYER = new AztecAddress(0x5001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];

let node: RunningNode;
let enr: string;
const peers: HostilePeer[] = [];

interface Peer {
  id: string;
  score: number;
  gossipScore: number;
}

const peerView = async (id: string) =>
  (await result<Peer[]>(node.adminUrl, 'nodeAdmin_getPeers')).find((p) => p.id === id);

async function hostile(): Promise<HostilePeer> {
  const p = await HostilePeer.connect(enr);
  peers.push(p);
  // Kept by the node: the handshake passed.
  await until('the node to list the peer', async () => ((await peerView(p.id)) ? true : undefined));
  return p;
}

async function disconnected(p: HostilePeer): Promise<void> {
  await until('the node to drop the peer', async () => ((await peerView(p.id)) === undefined ? true : undefined));
  expect(node.logs().some((l) => l.msg?.includes(`peer ${p.id}`) && /disconnecting|banning/.test(l.msg))).toBe(true);
}

beforeAll(async () => {
  // The libp2p stack takes seconds to load on a busy machine.
  node = await spawnNode({
    readyTimeoutMs: 60_000,
    args: [
      '--prefunded-accounts',
      prefundedFlag(FUNDED),
      '--disable-admin-api-key',
      '--sequencer-mode',
      'off',
      '--p2p-enabled',
      '--p2p-port',
      '0',
      '--p2p-listen-address',
      '127.0.0.1',
    ],
  });
  enr = await result<string>(node.publicUrl, 'node_getEncodedEnr');
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
      const v = await peerView(p.id);
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
      const v = await peerView(p.id);
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

  it('keeps serving RPC after all of it', async () => {
    expect(await result(node.publicUrl, 'node_getBlockNumber')).toBe(0);
    expect(await result(node.publicUrl, 'node_isReady')).toBe(true);
  });
});
