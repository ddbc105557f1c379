import { afterEach, describe, expect, it } from 'vitest';
import { type CommitteeChain, startCommitteeChain } from '../validators/committee-chain-fixture.js';
import { keystoreDir, keystoreV1, testAddress } from '../validators/validator-fixtures.js';
import { ChainUpstream, type Follower, startFollower } from './follower-fixture.js';

const open: { close(): Promise<void> }[] = [];
let ks: ReturnType<typeof keystoreDir> | undefined;
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  ks?.cleanup();
  ks = undefined;
});

/** A committee of validators 0..3 whose keys 0, 1 and 2 sign here (3 of 4: a quorum). */
async function committeeLeader(): Promise<CommitteeChain> {
  ks = keystoreDir();
  ks.write('validators.json', keystoreV1([0, 1, 2]));
  const leader = await startCommitteeChain({ 'keystore-directory': ks.dir, 'committee-addresses': testAddress(3) });
  open.push(leader);
  return leader;
}

async function follow(leader: CommitteeChain): Promise<{ up: ChainUpstream; f: Follower }> {
  const up = new ChainUpstream(leader.chain, leader.config);
  const f = await startFollower(up);
  open.push(f);
  return { up, f };
}

describe('a follower of a chain run by a committee', () => {
  it('checks each checkpoint’s attestations and stores them with it', async () => {
    const leader = await committeeLeader();
    await leader.advanceSlots(6);
    const published = leader.chain.chain.store.checkpoints.latest()?.number ?? 0;
    expect(published).toBeGreaterThan(0);
    const { f } = await follow(leader);
    await f.sync();
    expect(f.chain.store.checkpoints.latest()?.number).toBe(published);
    const ours = f.chain.store.checkpointAttestations.get(1)?.attestations ?? [];
    const theirs = leader.chain.chain.store.checkpointAttestations.get(1)?.attestations ?? [];
    expect(ours.filter((a) => a.isSigned)).toHaveLength(3);
    expect(ours.map((a) => a.toJSON())).toEqual(theirs.map((a) => a.toJSON()));
    expect(f.source.status().problem).toBeUndefined();
  });

  it('refuses a checkpoint whose attestation signature was changed, and records nothing of it', async () => {
    const leader = await committeeLeader();
    await leader.advanceSlots(6);
    const { up, f } = await follow(leader);
    up.tamperCheckpoint = (c) => {
      const attestations = c.attestations as { signature: string }[];
      const signed = attestations.find((a) => !/^0x0+$/.test(a.signature));
      if (!signed) throw new Error('the leader published no signed attestation');
      // Flip one hex digit of r: the signature no longer recovers to its member.
      const d = signed.signature[10] === 'a' ? 'b' : 'a';
      signed.signature = `${signed.signature.slice(0, 10)}${d}${signed.signature.slice(11)}`;
    };
    await f.sync();
    expect(f.chain.store.checkpoints.latest()).toBeUndefined();
    expect(f.source.status().problem?.message).toMatch(/checkpoint 1.*attestations .*do not stand/);
  });
});
