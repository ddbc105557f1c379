import { IndexWithinCheckpoint } from '@aztec/foundation/branded-types';
import { Buffer32 } from '@aztec/foundation/buffer';
import { Secp256k1Signer } from '@aztec/foundation/crypto/secp256k1-signer';
import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { BlockProposal as StdBlockProposal, TopicType } from '@aztec/stdlib/p2p';
import { mockTx } from '@aztec/stdlib/testing';
import { BlockHeader as StdBlockHeader, TxHash as StdTxHash } from '@aztec/stdlib/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockProposal } from '../../src/core/p2p/block-proposal.js';
import { Tx } from '../../src/core/tx/tx.js';
import { initAztecOracle } from '../helpers/aztec-oracle.js';
import { AztecP2pOracle } from '../helpers/aztec-p2p-oracle/aztec-p2p-oracle.js';
import { until } from '../helpers/until.js';

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
