import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { result } from '../helpers/mempool-e2e.js';
import { type RunningNode, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';
import {
  feeRecipient,
  keystoreDir,
  keystoreV1,
  testAddress,
  testKey,
} from '../unit/daemon/validators/validator-fixtures.js';

/**
 * A spawned dev node with a committee of four: validators 0, 1 and 2 have their keys in the keystore, validator
 * 3 is only named (--committee-addresses), so it never signs. One-second slots of one empty block, two-slot
 * epochs proven as they end, one-epoch slashing rounds: misses, an inactivity offense and its payload show
 * within seconds. Then keystore reloads on the running node. Everything is polled with deadlines.
 */

const ABSENT = testAddress(3);
const PRESENT = [0, 1, 2].map(testAddress);
let node: RunningNode;
let ks: ReturnType<typeof keystoreDir>;

beforeAll(async () => {
  ks = keystoreDir();
  ks.write('a.json', keystoreV1([0, 1, 2], 0));
  node = await spawnNode({
    args: [
      // Slot timing is what these cases observe; the default instant mode has its own tests.
      ...['--sequencer-mode', 'interval'],
      '--keystore-directory',
      ks.dir,
      '--committee-addresses',
      ABSENT,
      '--slot-duration',
      '1',
      '--blocks-per-slot',
      '1',
      '--min-txs-per-block',
      '0',
      '--epoch-duration',
      '2',
      '--proof-delay',
      '0',
      '--finality-delay',
      '0',
      '--slashing-round-size-in-epochs',
      '1',
    ],
  });
});
afterAll(async () => {
  await node?.stop();
  ks?.cleanup();
});

/** The admin API key, for the admin listener. */
const adminKey = () => ({ 'x-api-key': node.adminKey ?? '' });

/** The tests poll the node every 250 ms (its slots last one second). */
const POLL = { intervalMs: 250 } as const;

interface Stats {
  stats: Record<
    string,
    {
      history: { slot: number; status: string }[];
      missedProposals: { count: number };
      missedAttestations: { count: number };
    }
  >;
  lastProcessedSlot?: number;
}
interface Checkpoint {
  checkpoint: { header: { slotNumber: number; coinbase: string; feeRecipient: string } };
  attestations: { address: string; signature: string }[];
}
const signers = (c: Checkpoint) => c.attestations.filter((a) => !/^0x0+$/.test(a.signature)).map((a) => a.address);
const count = (s: Stats, who: string, status: string) =>
  s.stats[who]?.history.filter((h) => h.status === status).length ?? 0;

async function checkpointsFrom(slot: number): Promise<Checkpoint[]> {
  const latest = await result<number>(node.publicUrl, 'node_getCheckpointNumber');
  const from = Math.max(1, latest - 20);
  const list = await result<Checkpoint[]>(node.publicUrl, 'node_getCheckpoints', [from, 50]);
  return list.filter((c) => c.checkpoint.header.slotNumber > slot);
}

/**
 * The slot the node is in now, from the wall clock (the node reads the same one): a block's timestamp is its
 * slot's start, so slot 0 started at timestamp - slot (one-second slots).
 */
async function currentSlot(): Promise<number> {
  const header = await result<{ globalVariables: { slotNumber: string; timestamp: string } }>(
    node.publicUrl,
    'node_getBlockHeader',
    ['latest'],
  );
  const genesis = Number(header.globalVariables.timestamp) - Number(header.globalVariables.slotNumber);
  return Math.floor(Date.now() / 1000) - genesis;
}

describe('a committee with one absent validator', () => {
  it('stats: the absent validator missed its proposals and attestations, the others sent theirs', async () => {
    const stats = await until(
      'the absent validator missing its duties and the others doing theirs',
      async () => {
        const s = await result<Stats>(node.publicUrl, 'node_getValidatorsStats');
        const seen =
          (s.stats[ABSENT]?.missedProposals.count ?? 0) >= 1 &&
          (s.stats[ABSENT]?.missedAttestations.count ?? 0) >= 2 &&
          // A present validator does its duties: with 1-second slots, a slot the node itself misses while the
          // machine is loaded counts against it too, so wait until its duties done outnumber those missed.
          PRESENT.every(
            (p) =>
              count(s, p, 'attestation-sent') > (s.stats[p]?.missedAttestations.count ?? 0) &&
              count(s, p, 'checkpoint-mined') > (s.stats[p]?.missedProposals.count ?? 0),
          );
        return seen ? s : undefined;
      },
      POLL,
    );
    expect(count(stats, ABSENT, 'blocks-missed')).toBeGreaterThanOrEqual(1);
    expect(count(stats, ABSENT, 'attestation-missed')).toBeGreaterThanOrEqual(2);
    expect(count(stats, ABSENT, 'attestation-sent') + count(stats, ABSENT, 'checkpoint-mined')).toBe(0);
    for (const p of PRESENT) {
      const sent = count(stats, p, 'attestation-sent');
      const mined = count(stats, p, 'checkpoint-mined');
      expect(sent).toBeGreaterThanOrEqual(1);
      // Never most of its duties missed (see the wait above).
      expect(stats.stats[p]?.missedAttestations.count).toBeLessThan(sent);
      expect(stats.stats[p]?.missedProposals.count).toBeLessThan(mined);
    }
    const single = await result<{ validator: { address: string; missedProposals: { rate: number } } }>(
      node.publicUrl,
      'node_getValidatorStats',
      [ABSENT],
    );
    expect(single.validator).toMatchObject({ address: ABSENT, missedProposals: { rate: 1 } });
    await expect(result(node.publicUrl, 'node_getValidatorStats', [ABSENT, '0', '1000'])).rejects.toThrow(
      'Slot range (1000) exceeds history length (48). Requested range: 0 to 1000.',
    );
  });

  it('checkpoints carry 3 of 4 signed attestations and their proposer coinbase and fee recipient', async () => {
    const checkpoints = await checkpointsFrom(0);
    expect(checkpoints.length).toBeGreaterThanOrEqual(2);
    for (const c of checkpoints) {
      expect(c.attestations.map((a) => a.address).sort()).toEqual([...PRESENT, ABSENT].sort());
      expect(signers(c).sort()).toEqual([...PRESENT].sort());
      const proposer = PRESENT.indexOf(c.checkpoint.header.coinbase);
      expect(proposer).toBeGreaterThanOrEqual(0);
      expect(c.checkpoint.header.feeRecipient).toBe(feeRecipient(proposer + 1));
    }
    const blocks = await result<Checkpoint[]>(node.publicUrl, 'node_getCheckpointedBlocks', [1, 3]);
    expect(blocks.every((b) => signers(b).length === 3)).toBe(true);
  });

  it('an inactivity offense for it after an epoch, and a slash payload for the round that lists it', async () => {
    type Offense = { validator: string; offenseType: number; epochOrSlot: string; amount: string };
    const offenses = await until(
      'an inactivity offense of the absent validator',
      async () => {
        const list = await result<Offense[]>(node.adminUrl, 'nodeAdmin_getSlashOffenses', ['all'], adminKey());
        return list.some((o) => o.validator === ABSENT && o.offenseType === 3) ? list : undefined;
      },
      POLL,
    );
    const inactivity = offenses.find((o) => o.validator === ABSENT && o.offenseType === 3);
    expect(inactivity).toMatchObject({ amount: '10000000000000000000' });
    // Only the absent validator is certain to be reported: with 1-second slots a loaded machine can make the node
    // miss a present validator's slot too, and that is then (rightly) an offense as well.
    expect(offenses.every((o) => o.offenseType === 3 && o.amount === '10000000000000000000')).toBe(true);
    // Offenses of epoch E (round E) are voted on in round E + 2; a round number is accepted as a decimal string.
    const round = String(Number(inactivity?.epochOrSlot) + 2);
    expect(await result<Offense[]>(node.adminUrl, 'nodeAdmin_getSlashOffenses', [round], adminKey())).toContainEqual(
      inactivity,
    );
    type Payload = {
      round: string;
      votes: string;
      slashes: { validator: string; offenses: { offenseType: number }[] }[];
    };
    const payloads = await until(
      'a voted slash payload listing the absent validator',
      async () => {
        const list = await result<Payload[]>(node.adminUrl, 'nodeAdmin_getSlashPayloads', [], adminKey());
        return list.some((p) => p.slashes.some((s) => s.validator === ABSENT) && Number(p.votes) >= 1)
          ? list
          : undefined;
      },
      POLL,
    );
    const payload = payloads.find((p) => p.slashes.some((s) => s.validator === ABSENT));
    expect(payload?.slashes.map((s) => s.validator)).toContain(ABSENT);
    expect(payload?.slashes.every((s) => s.offenses.every((o) => o.offenseType === 3))).toBe(true);
    expect(Number(payload?.votes)).toBeGreaterThanOrEqual(1);
  });

  it('never logs a private key', () => {
    for (const i of [0, 1, 2]) expect(node.stdout() + node.stderr()).not.toContain(testKey(i).slice(2));
  });
});

describe('nodeAdmin_reloadKeystore on the running node', () => {
  const NEW = testAddress(4);

  it('adds a validator (new key, a publisher of start-up): it attests from the next slot on', async () => {
    ks.write('b.json', keystoreV1([4], 0));
    await result(node.adminUrl, 'nodeAdmin_reloadKeystore', [], adminKey());
    // The slot the reload landed in keeps its committee; every later slot has the new validator.
    const reloadedIn = await currentSlot();
    const checkpoints = await until(
      `checkpoints after slot ${reloadedIn}`,
      async () => {
        const list = await checkpointsFrom(reloadedIn);
        return list.length >= 2 ? list : undefined;
      },
      POLL,
    );
    for (const c of checkpoints) {
      expect(c.attestations.map((a) => a.address)).toContain(NEW);
      expect(signers(c)).toContain(NEW);
    }
  });

  it('removes a validator: it no longer attests', async () => {
    ks.write('a.json', keystoreV1([0, 1], 0));
    await result(node.adminUrl, 'nodeAdmin_reloadKeystore', [], adminKey());
    const reloadedIn = await currentSlot();
    const checkpoints = await until(
      `checkpoints after slot ${reloadedIn}`,
      async () => {
        const list = await checkpointsFrom(reloadedIn);
        return list.length >= 2 ? list : undefined;
      },
      POLL,
    );
    for (const c of checkpoints) {
      expect(c.attestations.map((a) => a.address)).not.toContain(testAddress(2));
      expect(signers(c).sort()).toEqual([testAddress(0), testAddress(1), NEW].sort());
    }
  });

  const REFUSED: [string, string, unknown, RegExp][] = [
    [
      'a new publisher key',
      'c.json',
      keystoreV1([5], 9),
      new RegExp(
        `Cannot reload keystore: validator ${testAddress(5)} has publisher keys \\[${testAddress(9)}\\] but none match the L1 signers initialized at startup \\[${testAddress(0)}\\]`,
      ),
    ],
    [
      'a duplicate attester',
      'c.json',
      keystoreV1([1], 0),
      /c\.json: Duplicate attester address 0x[0-9a-f]{40} found across keystore files/,
    ],
    ['a malformed file', 'c.json', '{"schemaVersion": 1, "validators": [', /c\.json: Invalid JSON format/],
    [
      'a bad field',
      'c.json',
      { schemaVersion: 1, validators: [{ attester: testKey(6), feeRecipient: '0x1234' }] },
      /c\.json: Schema validation failed: validators\[0\]\.feeRecipient: expected an L2 address/,
    ],
  ];

  it.each(REFUSED)('refuses %s with a clear error and changes nothing', async (_name, file, content, message) => {
    const path = join(ks.dir, file);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    try {
      await expect(result(node.adminUrl, 'nodeAdmin_reloadKeystore', [], adminKey())).rejects.toThrow(message);
    } finally {
      rmSync(path, { force: true });
    }
    const before = await currentSlot();
    const checkpoints = await until(
      `checkpoints after slot ${before}`,
      async () => {
        const list = await checkpointsFrom(before);
        return list.length >= 1 ? list : undefined;
      },
      POLL,
    );
    for (const c of checkpoints) {
      expect(signers(c).sort()).toEqual([testAddress(0), testAddress(1), NEW].sort());
    }
  });
});

describe('nodeDev_mineBlocks with a committee (default instant mode)', () => {
  it('mines each block as a checkpoint signed by the committee, one after the other, and mines again', async () => {
    const own = keystoreDir();
    own.write('a.json', keystoreV1([0], 0));
    const dev = await spawnNode({ args: ['--keystore-directory', own.dir] });
    try {
      const key = { 'x-api-key': dev.adminKey ?? '' };
      // Checkpoints are signed asynchronously: before, the second block was built while the first checkpoint was
      // still being signed, claimed the same checkpoint, was refused, and the sequencer failed on every tick.
      const first = await result<number[]>(dev.adminUrl, 'nodeDev_mineBlocks', [5], key);
      expect(first).toEqual([1, 2, 3, 4, 5]);
      expect(await result<number[]>(dev.adminUrl, 'nodeDev_mineBlocks', [2], key)).toEqual([6, 7]);
      const checkpoints = await result<Checkpoint[]>(dev.publicUrl, 'node_getCheckpoints', [1, 10]);
      expect(checkpoints).toHaveLength(7);
      for (const c of checkpoints) expect(signers(c)).toEqual([testAddress(0)]);
      expect(dev.logs().filter((l) => (l.level ?? 0) >= 50)).toEqual([]);
    } finally {
      await dev.stop();
      own.cleanup();
    }
  });
});

describe('start-up with a keystore that does not load', () => {
  it('stops with the error naming the file, and no key', async () => {
    const bad = keystoreDir();
    try {
      bad.write('a.json', keystoreV1([0]));
      bad.write('b.json', `{"schemaVersion": 1, "validators": [{"attester": "${testKey(1)}"`);
      const proc = spawnNodeProcess({ args: ['--keystore-directory', bad.dir] });
      const exit = await proc.exited;
      expect(exit.code).not.toBe(0);
      const output = proc.stdout() + proc.stderr();
      expect(output).toContain(`Failed to load keystore from ${join(bad.dir, 'b.json')}: Invalid JSON format`);
      expect(output).not.toContain(testKey(1).slice(2));
    } finally {
      bad.cleanup();
    }
  });
});
