import { afterEach, describe, expect, it } from 'vitest';
import { EthAddress } from '../../../../src/core/eth-address.js';
import type { ValidatorSlotResult } from '../../../../src/daemon/node-events.js';
import { Committee } from '../../../../src/daemon/validators/committee.js';
import { type CommitteeChain, startCommitteeChain } from './committee-chain-fixture.js';
import { keystoreDir, keystoreV1, testAddress } from './validator-fixtures.js';

/**
 * The sentinel's slot results as the dashboard's event stream gets them (ValidatorServiceOptions.onSlot): one per
 * judged slot, the same verdicts the validator stats record.
 */
let dev: CommitteeChain | undefined;
let ks: ReturnType<typeof keystoreDir> | undefined;
afterEach(async () => {
  await dev?.close();
  dev = undefined;
  ks?.cleanup();
  ks = undefined;
});

const COMMITTEE = new Committee([0, 1, 2, 3].map((i) => EthAddress.fromString(testAddress(i))));

describe('sentinel slot results', () => {
  it('reports each judged slot: the proposer, its status and the attestations sent and missed', async () => {
    ks = keystoreDir();
    ks.write('validators.json', keystoreV1([0, 1, 2]));
    const results: ValidatorSlotResult[] = [];
    dev = await startCommitteeChain(
      { 'keystore-directory': ks.dir, 'committee-addresses': testAddress(3) },
      { onSlot: (r) => results.push(r) },
    );
    await dev.advanceSlots(10);
    const { lastProcessedSlot } = dev.validators.validatorsStats();
    expect(results.length).toBeGreaterThanOrEqual(5);
    expect(results.at(-1)?.slot).toBe(lastProcessedSlot);
    for (const r of results) {
      const proposer = (COMMITTEE.proposerOf(r.slot) as EthAddress).toString();
      expect(r.proposer).toBe(proposer);
      if (proposer === testAddress(3)) {
        // The absent validator proposes nothing: nobody had anything to attest.
        expect(r).toMatchObject({ status: 'blocks-missed', attestationsSent: 0, attestationsMissed: 0 });
      } else {
        // Two other members here attest; the absent one misses.
        expect(r).toMatchObject({ status: 'checkpoint-mined', attestationsSent: 2, attestationsMissed: 1 });
      }
    }
    expect(results.some((r) => r.status === 'blocks-missed')).toBe(true);
  });
});
