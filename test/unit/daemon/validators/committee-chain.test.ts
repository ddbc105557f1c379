import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointHeader } from '../../../../src/core/block/checkpoint-header.js';
import { EthAddress } from '../../../../src/core/eth-address.js';
import { bytesToBigInt } from '../../../../src/core/serialize/field-bytes.js';
import { Committee } from '../../../../src/daemon/validators/committee.js';
import { OffenseType } from '../../../../src/daemon/validators/offense-type.js';
import { SignatureKind } from '../../../../src/daemon/validators/store/signature-repository.js';
import { ValidatorStore } from '../../../../src/daemon/validators/store/validator-store.js';
import { verifyCheckpointAttestations } from '../../../../src/daemon/validators/verify-checkpoint-attestations.js';
import { type CommitteeChain, startCommitteeChain } from './committee-chain-fixture.js';
import { feeRecipient, keystoreDir, keystoreV1, testAddress } from './validator-fixtures.js';

let dev: CommitteeChain | undefined;
let ks: ReturnType<typeof keystoreDir> | undefined;
afterEach(async () => {
  await dev?.close();
  dev = undefined;
  ks?.cleanup();
  ks = undefined;
});

/** A committee of validators 0..3 whose keys 0, 1 and 2 are here and 3's is not. */
async function committeeOfFourWithOneAbsent(flags: Record<string, string> = {}): Promise<CommitteeChain> {
  ks = keystoreDir();
  ks.write('validators.json', keystoreV1([0, 1, 2]));
  return startCommitteeChain({ 'keystore-directory': ks.dir, 'committee-addresses': testAddress(3), ...flags });
}

const COMMITTEE = new Committee([0, 1, 2, 3].map((i) => EthAddress.fromString(testAddress(i))));
const indexOf = (address: string) => [0, 1, 2, 3].find((i) => testAddress(i) === address) as number;
const proposerIndex = (slot: number) => indexOf((COMMITTEE.proposerOf(slot) as EthAddress).toString());

describe('a dev chain run by a committee', () => {
  it('builds only the slots whose proposer has a key here, with its coinbase, fee recipient and a quorum', async () => {
    dev = await committeeOfFourWithOneAbsent();
    const first = dev.chain.slots.currentSlot();
    await dev.advanceSlots(8);
    const { store } = dev.chain.chain;
    const checkpoints = store.checkpoints.getRange(1, 100);
    const builtSlots = checkpoints.map((c) => c.slot);
    const expected: number[] = [];
    for (let s = first; s < first + 8; s++) if (proposerIndex(s) !== 3) expected.push(s);
    expect(builtSlots.slice(0, expected.length - 1)).toEqual(expected.slice(0, expected.length - 1));
    expect(builtSlots.some((s) => proposerIndex(s) === 3)).toBe(false);
    for (const c of checkpoints) {
      const proposer = proposerIndex(c.slot);
      const header = CheckpointHeader.fromBuffer(c.header);
      expect(header.coinbase.toString()).toBe(testAddress(proposer));
      expect(header.feeRecipient.toString()).toBe(feeRecipient(proposer + 1));
      const block = store.getBlock(c.firstBlock);
      expect(block?.header.globalVariables.coinbase.toString()).toBe(testAddress(proposer));
      const signed = store.checkpointAttestations.get(c.number);
      expect(signed?.proposer?.toString()).toBe(testAddress(proposer));
      expect(signed?.publisher?.toString()).toBe(testAddress(0));
      expect(signed?.attestations.map((a) => [a.address.toString(), a.isSigned])).toEqual(
        COMMITTEE.members.map((m) => [m.toString(), indexOf(m.toString()) !== 3]),
      );
      const check = await verifyCheckpointAttestations({
        header,
        archiveRoot: bytesToBigInt(c.archiveRoot, 0, 32),
        attestations: signed?.attestations ?? [],
      });
      expect(check).toMatchObject({ ok: true, committeeSize: 4, quorum: 3 });
    }
  });

  it('the sentinel: the absent validator missed its proposals and attestations, the others sent theirs', async () => {
    dev = await committeeOfFourWithOneAbsent();
    await dev.advanceSlots(10);
    const { stats, lastProcessedSlot, initialSlot, slotWindow } = dev.validators.validatorsStats();
    expect(slotWindow).toBe(24 * 2);
    // The slot that ended two slots ago is judged just after the current one starts.
    expect(lastProcessedSlot).toBe(dev.chain.slots.currentSlot() - 3);
    expect(initialSlot).toBeLessThan(lastProcessedSlot as number);
    const absent = stats[testAddress(3)];
    expect(absent?.missedProposals.count).toBeGreaterThanOrEqual(1);
    expect(absent?.missedProposals.rate).toBe(1);
    expect(absent?.missedAttestations.count).toBeGreaterThanOrEqual(3);
    expect(absent?.missedAttestations.rate).toBe(1);
    expect(absent?.lastAttestation).toBeUndefined();
    expect(absent?.history.every((h) => h.status === 'blocks-missed' || h.status === 'attestation-missed')).toBe(true);
    for (const i of [0, 1, 2]) {
      const s = stats[testAddress(i)];
      expect(s?.missedAttestations.count).toBe(0);
      expect(s?.missedProposals.count).toBe(0);
      expect(s?.history.every((h) => h.status === 'checkpoint-mined' || h.status === 'attestation-sent')).toBe(true);
      expect(s?.lastAttestation?.slot).toEqual(expect.any(Number));
      expect(s?.lastAttestation?.date).toBe(
        new Date(Number(dev.chain.slots.slotTimestamp(s?.lastAttestation?.slot as number)) * 1000).toISOString(),
      );
    }
    const single = dev.validators.validatorStats(EthAddress.fromString(testAddress(3)));
    expect(single?.validator.address).toBe(testAddress(3));
    expect(single?.allTimeProvenPerformance.length).toBeGreaterThanOrEqual(1);
    for (const p of single?.allTimeProvenPerformance ?? []) expect(p.missed).toBe(p.total);
    expect(() => dev?.validators.validatorStats(EthAddress.fromString(testAddress(3)), 0n, 100n)).toThrow(
      'Slot range (100) exceeds history length (48). Requested range: 0 to 100.',
    );
    expect(dev.validators.validatorStats(EthAddress.fromString(testAddress(7)))).toBeUndefined();
  });

  it('reports the absent validator inactive once an epoch is proven, and its round payload collects votes', async () => {
    dev = await committeeOfFourWithOneAbsent();
    await dev.advanceSlots(12);
    const offenses = dev.validators.slashOffenses('all');
    expect(offenses.length).toBeGreaterThanOrEqual(1);
    for (const o of offenses) {
      expect(o).toMatchObject({ validator: testAddress(3), amount: (10n ** 19n).toString(), offenseType: 3 });
    }
    // 2-slot epochs, 1-epoch rounds, offset 2: the offense of epoch E is voted on during round E + 2.
    const epoch = Number(offenses[0]?.epochOrSlot);
    expect(dev.validators.slashOffenses(BigInt(epoch + 2))).toContainEqual(offenses[0]);
    const payloads = dev.validators.slashPayloads();
    expect(payloads).toHaveLength(1);
    const [payload] = payloads;
    expect(payload?.slashes.map((s) => s.validator)).toEqual([testAddress(3)]);
    expect(payload?.slashes[0]?.offenses[0]?.offenseType).toBe(OffenseType.INACTIVITY);
    expect(payload?.address).toMatch(/^0x[0-9a-f]{40}$/);
    // Each proposer here votes with its checkpoint: one vote per built slot of the round so far (2-slot rounds).
    const round = Number(payload?.round);
    const built = dev.chain.chain.store.checkpoints.inSlotRange(round * 2, round * 2 + 2).length;
    expect(built).toBeGreaterThanOrEqual(1);
    expect(payload?.votes).toBe(String(built));
  });

  it('leaves the validators of slashValidatorsNever out of its payloads (a runtime setting)', async () => {
    dev = await committeeOfFourWithOneAbsent({ 'slash-validators-never': testAddress(3) });
    await dev.advanceSlots(12);
    expect(dev.validators.slashOffenses('all').length).toBeGreaterThanOrEqual(1);
    expect(dev.validators.slashPayloads()).toEqual([]);
    dev.config.slashValidatorsNever = [];
    expect(dev.validators.slashPayloads()[0]?.slashes.map((s) => s.validator)).toEqual([testAddress(3)]);
  });

  it('a checkpoint short of quorum is not published: its blocks are pruned and the slot is not proposed again', async () => {
    ks = keystoreDir();
    ks.write('validators.json', keystoreV1([0, 1]));
    dev = await startCommitteeChain({
      'keystore-directory': ks.dir,
      'committee-addresses': `${testAddress(2)},${testAddress(3)}`,
    });
    await dev.advanceSlots(8);
    const { store } = dev.chain.chain;
    expect(store.checkpoints.latest()).toBeUndefined();
    expect(store.latestBlockNumber()).toBe(0);
    const validatorStore = new ValidatorStore(dev.db);
    const processed = dev.validators.validatorsStats().lastProcessedSlot as number;
    for (let slot = processed - 4; slot <= processed; slot++) {
      const p = proposerIndex(slot);
      // One proposal per slot at most, never two: a slot without quorum is not built again.
      expect(validatorStore.signatures.bySlot(slot).filter((s) => s.kind === SignatureKind.proposal).length).toBe(
        p <= 1 ? 1 : 0,
      );
    }
    const { stats } = dev.validators.validatorsStats();
    // Validator 0 or 1 proposes, the other one attests: attestations from someone else, no checkpoint.
    expect(stats[testAddress(0)]?.history.some((h) => h.status === 'checkpoint-proposed')).toBe(true);
    expect(stats[testAddress(1)]?.history.some((h) => h.status === 'attestation-sent')).toBe(true);
    expect(stats[testAddress(2)]?.history.some((h) => h.status === 'attestation-missed')).toBe(true);
  });

  it('a reload in the middle of a slot changes the committee from the next slot on, as one swap', async () => {
    dev = await committeeOfFourWithOneAbsent();
    await dev.advanceSlots(2);
    ks?.write('validators.json', keystoreV1([0, 2, 4], 0));
    dev.clock.advance(dev.chain.slots.blockIntervalMs / 2);
    const slot = dev.chain.slots.currentSlot();
    await dev.validators.reloadKeystore();
    expect(dev.validators.keystore?.addresses.map(String)).toEqual([0, 2, 4].map(testAddress));
    await dev.advanceSlots(3);
    const store = new ValidatorStore(dev.db);
    const members = (s: number) => store.committees.get(s)?.committee.members.map(String).sort();
    expect(members(slot)).toEqual([0, 1, 2, 3].map(testAddress).sort());
    expect(members(slot + 1)).toEqual([0, 2, 3, 4].map(testAddress).sort());
    const signed = dev.chain.chain.store.checkpoints
      .inSlotRange(slot + 1, slot + 4)
      .map((c) => dev?.chain.chain.store.checkpointAttestations.get(c.number)?.attestations ?? []);
    expect(signed.length).toBeGreaterThanOrEqual(1);
    const signers = (list: readonly { isSigned: boolean; address: EthAddress }[]) =>
      list.filter((a) => a.isSigned).map((a) => a.address.toString());
    for (const list of signed) expect(signers(list).sort()).toEqual([0, 2, 4].map(testAddress).sort());
  });

  it("a checkpoint's attestations go with it when an unwind removes it", async () => {
    dev = await committeeOfFourWithOneAbsent({ 'finality-delay': '3600' });
    await dev.advanceSlots(4);
    const { store } = dev.chain.chain;
    const latest = store.checkpoints.latest();
    expect(latest && store.checkpointAttestations.get(latest.number)?.attestations).toHaveLength(4);
    dev.chain.chain.unwindTo((latest?.firstBlock ?? 1) - 1);
    expect(store.checkpoints.get(latest?.number ?? 0)).toBeUndefined();
    expect(store.checkpointAttestations.get(latest?.number ?? 0)).toBeUndefined();
  });

  it('reports two different payloads signed by one validator for a slot as duplicates, at their penalty', async () => {
    dev = await committeeOfFourWithOneAbsent({
      'slash-duplicate-proposal-penalty': '7',
      'slash-duplicate-attestation-penalty': '0',
    });
    const slot = dev.chain.slots.currentSlot() + 1;
    const store = new ValidatorStore(dev.db);
    const signer = EthAddress.fromString(testAddress(3));
    for (const [kind, digest] of [
      [SignatureKind.proposal, 1],
      [SignatureKind.proposal, 2],
      [SignatureKind.attestation, 3],
      [SignatureKind.attestation, 4],
    ] as const) {
      // Signatures seen from elsewhere (a synced checkpoint, another node): this node never signs twice itself.
      store.signatures.insert({ slot, kind, signer, digest: Buffer.alloc(32, digest), signature: Buffer.alloc(65, 1) });
    }
    await dev.advanceSlots(4);
    const offenses = dev.validators.slashOffenses('all').filter((o) => o.epochOrSlot === String(slot));
    // The duplicate attestation's penalty is 0: not pursued, as in 4.1.2.
    expect(offenses).toEqual([{ validator: testAddress(3), amount: '7', offenseType: 8, epochOrSlot: String(slot) }]);
  });
});
