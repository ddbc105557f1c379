import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppendOnlyTreeSnapshot } from '../../src/core/block/append-only-tree-snapshot.js';
import { BlockHeader } from '../../src/core/block/block-header.js';
import { CheckpointHeader } from '../../src/core/block/checkpoint-header.js';
import { GlobalVariables } from '../../src/core/block/global-variables.js';
import { EthSignature } from '../../src/core/crypto/eth-signature.js';
import { Fr } from '../../src/core/fr.js';
import { computeInHash } from '../../src/core/messaging/in-hash.js';
import { BlockProposal } from '../../src/core/p2p/block-proposal.js';
import { CheckpointAttestation } from '../../src/core/p2p/checkpoint-attestation.js';
import { CheckpointProposal } from '../../src/core/p2p/checkpoint-proposal.js';
import { signedPayloadDigest } from '../../src/core/p2p/consensus-payload.js';
import { encodeGossipMessageData } from '../../src/core/p2p/gossip-message.js';
import { snappyCompress } from '../../src/core/p2p/snappy-block.js';
import type { GossipTopicType } from '../../src/core/p2p/topics.js';
import { HostilePeer } from '../helpers/hostile-peer.js';
import { result } from '../helpers/mempool-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';
import { testAddress, testKey } from '../unit/daemon/validators/validator-fixtures.js';

/**
 * Hostile peers on the committee's topics (issue 28): one node that follows a three-member committee (it holds
 * no key and builds nothing) takes garbage, oversized and invalid block proposals, checkpoint proposals and
 * attestations from peers that passed the status handshake. Each is dropped and scored, the forged ones get the
 * sender disconnected, nothing reaches the chain, and RPC keeps answering.
 */
const SLOT_SECONDS = 30;
const MEMBERS = [0, 1, 2].map((i) => ({ key: testKey(i), address: testAddress(i) }));
/** Committee order is address order; slot s is proposed by member s mod 3. */
const SORTED = [...MEMBERS].sort((a, b) => a.address.localeCompare(b.address));
const OUTSIDER = testKey(9);

let node: RunningNode;
let enr: string;
let genesisTime: number;
const peers: HostilePeer[] = [];

const peerView = async (id: string) =>
  (await result<{ id: string; score: number; gossipScore: number }[]>(node.adminUrl, 'nodeAdmin_getPeers')).find(
    (p) => p.id === id,
  );

async function hostile(): Promise<HostilePeer> {
  const p = await HostilePeer.connect(enr);
  peers.push(p);
  await until('the node to list the peer', async () => ((await peerView(p.id)) ? true : undefined));
  return p;
}

async function disconnected(p: HostilePeer): Promise<void> {
  await until('the node to drop the peer', async () => ((await peerView(p.id)) === undefined ? true : undefined));
  expect(node.logs().some((l) => l.msg?.includes(`peer ${p.id}`) && /disconnecting|banning/.test(l.msg))).toBe(true);
}

const framed = (payload: Uint8Array) => snappyCompress(encodeGossipMessageData(payload));
const key = (hex: string) => Buffer.from(hex.slice(2), 'hex');
const slotNow = () => Math.floor((Date.now() / 1000 - genesisTime) / SLOT_SECONDS);
const proposerKey = (slot: number) => (SORTED[slot % 3] as (typeof SORTED)[number]).key;

async function blockProposal(signer: string, archiveOf?: AppendOnlyTreeSnapshot): Promise<BlockProposal> {
  const slot = slotNow();
  const header = BlockHeader.empty({
    lastArchive: archiveOf ?? AppendOnlyTreeSnapshot.EMPTY,
    globalVariables: GlobalVariables.empty({
      chainId: new Fr(31337n),
      version: new Fr(1n),
      blockNumber: 1,
      slotNumber: slot,
      timestamp: BigInt(genesisTime + slot * SLOT_SECONDS),
    }),
  });
  return BlockProposal.sign(
    {
      blockHeader: header,
      indexWithinCheckpoint: 0,
      // The in hash of no L1-to-L2 messages: the node has none either, so the block is re-executed.
      inHash: new Fr(computeInHash([])),
      archiveRoot: new Fr(5n),
      txHashes: [],
    },
    key(signer),
  );
}

function checkpointProposal(signer: string): CheckpointProposal {
  const unsigned = new CheckpointProposal(
    CheckpointHeader.empty({ slotNumber: slotNow() }),
    new Fr(9n),
    0n,
    EthSignature.EMPTY,
  );
  const signature = EthSignature.sign(signedPayloadDigest(unsigned.payloadToSign()), key(signer));
  return new CheckpointProposal(unsigned.checkpointHeader, unsigned.archive, 0n, signature);
}

async function expectNoChainChange(): Promise<void> {
  expect(await result(node.publicUrl, 'node_getBlockNumber')).toBe(0);
  expect(await result(node.publicUrl, 'node_getCheckpointNumber')).toBe(0);
}

beforeAll(async () => {
  // Long slots: the forged messages are all for the slot of now.
  genesisTime = Math.floor(Date.now() / 1000) - SLOT_SECONDS;
  node = await spawnNode({
    readyTimeoutMs: 60_000,
    args: [
      '--disable-admin-api-key',
      ...['--p2p-enabled', '--p2p-port', '0', '--p2p-listen-address', '127.0.0.1'],
      ...['--committee-addresses', MEMBERS.map((m) => m.address).join(',')],
      ...['--genesis-time', String(genesisTime), '--slot-duration', String(SLOT_SECONDS)],
    ],
  });
  enr = await result<string>(node.publicUrl, 'node_getEncodedEnr');
}, 90_000);

afterAll(async () => {
  await Promise.all(peers.map((p) => p.stop()));
  await node?.stop();
});

describe('hostile peers on the block, checkpoint and attestation topics', () => {
  for (const type of ['block_proposal', 'checkpoint_proposal', 'checkpoint_attestation'] as GossipTopicType[]) {
    it(`${type}: garbage is rejected and the sender disconnected`, async () => {
      const p = await hostile();
      await p.publish(type, framed(Buffer.from(`not a ${type} at all`)));
      await disconnected(p);
      await expectNoChainChange();
    });
  }

  it('an oversized proposal (a snappy preamble above 10 MiB) is dropped before decompression and scored', async () => {
    const p = await hostile();
    // Announces 16 MiB, then junk.
    await p.publish('block_proposal', Buffer.from([0x80, 0x80, 0x80, 0x08, 0x00, 1, 2, 3]));
    await until('gossipsub to score the invalid delivery', async () => {
      const v = await peerView(p.id);
      return v && v.gossipScore < 0 ? v : undefined;
    });
    await expectNoChainChange();
  });

  it('a block proposal signed by someone who is not the slot proposer is rejected and the sender disconnected', async () => {
    const p = await hostile();
    await p.publish('block_proposal', framed((await blockProposal(OUTSIDER)).toBuffer()));
    await disconnected(p);
    expect(node.logs().some((l) => /not by its proposer/.test(l.msg ?? ''))).toBe(true);
    await expectNoChainChange();
  });

  it('a block proposal whose signature does not recover is rejected and the sender disconnected', async () => {
    const p = await hostile();
    const good = await blockProposal(proposerKey(slotNow()));
    const bad = new BlockProposal(good.blockHeader, 0, good.inHash, good.archiveRoot, [], new EthSignature(1n, 1n, 29));
    await p.publish('block_proposal', framed(bad.toBuffer()));
    await disconnected(p);
    await expectNoChainChange();
  });

  it("the slot proposer's block that does not re-execute to its header is rejected and never applied", async () => {
    const p = await hostile();
    const genesis = await result<{ archive: unknown }>(node.publicUrl, 'node_getBlock', [0]);
    const forged = await blockProposal(proposerKey(slotNow()), AppendOnlyTreeSnapshot.fromJSON(genesis.archive));
    await p.publish('block_proposal', framed(forged.toBuffer()));
    await disconnected(p);
    expect(node.logs().some((l) => /does not re-execute/.test(l.msg ?? ''))).toBe(true);
    await expectNoChainChange();
  });

  it('a checkpoint proposal by another than the slot proposer is rejected and the sender disconnected', async () => {
    const p = await hostile();
    await p.publish('checkpoint_proposal', framed(checkpointProposal(OUTSIDER).toBuffer()));
    await disconnected(p);
    await expectNoChainChange();
  });

  it('an attestation by a non-member, or of a proposal its proposer did not sign, is rejected', async () => {
    const p = await hostile();
    const proposal = checkpointProposal(proposerKey(slotNow()));
    await p.publish('checkpoint_attestation', framed(CheckpointAttestation.sign(proposal, key(OUTSIDER)).toBuffer()));
    await disconnected(p);
    const q = await hostile();
    const misdirected = checkpointProposal(OUTSIDER);
    const member = (MEMBERS[0] as (typeof MEMBERS)[number]).key;
    await q.publish('checkpoint_attestation', framed(CheckpointAttestation.sign(misdirected, key(member)).toBuffer()));
    await disconnected(q);
    await expectNoChainChange();
  });

  it('keeps serving RPC after all of it', async () => {
    expect(await result(node.publicUrl, 'node_isReady')).toBe(true);
    await expectNoChainChange();
  });
});
