import { getAttestationInfoFromPublishedCheckpoint } from '@aztec/stdlib/block';
import { createAztecNodeAdminClient, createAztecNodeClient } from '@aztec/stdlib/interfaces/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';
import { keystoreDir, keystoreV1, testAddress } from '../unit/daemon/validators/validator-fixtures.js';
import type { Callable } from './run-cases.js';

/**
 * The official Aztec 4.1.2 clients against a node that runs a validator committee (keys 0, 1 and 2 here, 3
 * absent), once it has history, an inactivity offense and a slash payload: every validator and slashing answer
 * must pass 4.1.2's own zod schemas (ValidatorsStats, SingleValidatorStats, Offense, SlashPayloadRound,
 * PublishedCheckpoint with CommitteeAttestation), and 4.1.2's own code must recover our attesters from the
 * checkpoints' signatures. test/conformance/conformance-cases.ts covers the same methods on a node without one.
 */

const ABSENT = testAddress(3);
const PRESENT = [0, 1, 2].map(testAddress);
let node: RunningNode;
let ks: ReturnType<typeof keystoreDir>;
/** The last slot the node's sentinel judged when the cases start. */
let lastProcessed = 0;

beforeAll(async () => {
  ks = keystoreDir();
  ks.write('validators.json', keystoreV1([0, 1, 2], 0));
  node = await spawnNode({
    args: [
      ...['--keystore-directory', ks.dir, '--committee-addresses', ABSENT],
      ...['--slot-duration', '1', '--blocks-per-slot', '1', '--sequencer-mode', 'interval', '--min-txs-per-block', '0'],
      ...['--epoch-duration', '2', '--proof-delay', '0', '--finality-delay', '0'],
      ...['--slashing-round-size-in-epochs', '1'],
    ],
  });
  // Until there is something in every answer: a payload voted on in the current round, ten slots judged.
  const deadline = Date.now() + 40_000;
  const admin = { 'x-api-key': node.adminKey ?? '' };
  while (Date.now() < deadline) {
    const payloads = await postJson(node.adminUrl, rpc('nodeAdmin_getSlashPayloads'), admin);
    const stats = await postJson(node.publicUrl, rpc('node_getValidatorsStats'));
    lastProcessed = (stats.body as { result: { lastProcessedSlot?: number } }).result.lastProcessedSlot ?? 0;
    const voted = ((payloads.body as { result?: { votes: string }[] }).result ?? []).some((p) => Number(p.votes) >= 1);
    if (voted && lastProcessed >= 10) break;
    await new Promise((r) => setTimeout(r, 250));
  }
});
afterAll(async () => {
  await node?.stop();
  ks?.cleanup();
});

/** A call through the official client and what its parsed answer must show. */
interface ValidatorCase {
  readonly method: string;
  /** A function when the args depend on the node's state. */
  readonly args: readonly unknown[] | (() => readonly unknown[]);
  readonly check?: (answer: unknown) => void;
  readonly rejects?: RegExp;
}

const PUBLIC: readonly ValidatorCase[] = [
  {
    method: 'getValidatorsStats',
    args: [],
    check: (a) => {
      const { stats, slotWindow } = a as {
        stats: Record<string, { missedProposals: { count: number } }>;
        slotWindow: number;
      };
      expect(slotWindow).toBe(48);
      expect(Object.keys(stats).sort()).toEqual([...PRESENT, ABSENT].sort());
      expect(stats[ABSENT]?.missedProposals.count).toBeGreaterThanOrEqual(1);
    },
  },
  {
    method: 'getValidatorStats',
    args: [ABSENT],
    check: (a) => {
      const s = a as {
        validator: { address: { toString(): string } };
        allTimeProvenPerformance: { missed: number; total: number }[];
      };
      expect(s.validator.address.toString()).toBe(ABSENT);
      expect(s.allTimeProvenPerformance.length).toBeGreaterThanOrEqual(1);
      for (const p of s.allTimeProvenPerformance) expect(p.missed).toBe(p.total);
    },
  },
  {
    method: 'getValidatorStats',
    args: () => [PRESENT[0], lastProcessed - 8, lastProcessed],
    check: (a) => {
      const s = a as { validator: { history: { slot: number }[]; lastAttestation?: { timestamp: bigint } } };
      // Eight slots: validator 0 proposes in two of them at most and attests in the others but the absent one's.
      expect(s.validator.history.every((h) => h.slot >= lastProcessed - 8 && h.slot <= lastProcessed)).toBe(true);
      expect(typeof s.validator.lastAttestation?.timestamp).toBe('bigint');
    },
  },
  { method: 'getValidatorStats', args: [testAddress(8)], check: (a) => expect(a).toBeUndefined() },
  { method: 'getValidatorStats', args: [ABSENT, 0, 1000], rejects: /exceeds history length \(48\)/ },
  {
    method: 'getCheckpoints',
    args: [1, 5],
    check: (a) => {
      const list = a as Parameters<typeof getAttestationInfoFromPublishedCheckpoint>[0][];
      expect(list.length).toBeGreaterThanOrEqual(2);
      for (const c of list) {
        const info = getAttestationInfoFromPublishedCheckpoint(c);
        const recovered = info.filter((i) => i.status === 'recovered-from-signature').map((i) => i.address?.toString());
        expect(recovered.sort()).toEqual([...PRESENT].sort());
        expect(info.filter((i) => i.status === 'provided-as-address').map((i) => i.address?.toString())).toEqual([
          ABSENT,
        ]);
      }
    },
  },
  {
    method: 'getCheckpointedBlocks',
    args: [1, 3],
    check: (a) => {
      for (const b of a as { attestations: { signature: { isEmpty(): boolean } }[] }[]) {
        expect(b.attestations.filter((x) => !x.signature.isEmpty())).toHaveLength(3);
      }
    },
  },
];

const ADMIN: readonly ValidatorCase[] = [
  {
    method: 'getSlashOffenses',
    args: ['all'],
    check: (a) => {
      const list = a as { validator: { toString(): string }; amount: bigint; offenseType: number }[];
      // The absent validator is always reported. With 1-second slots a loaded machine can make the node miss a
      // present validator's slot too, which is then (rightly) reported as well: only the absent one is certain.
      expect(list.map((o) => o.validator.toString())).toContain(ABSENT);
      for (const o of list) expect([o.amount, o.offenseType]).toEqual([10n ** 19n, 3]);
    },
  },
  { method: 'getSlashOffenses', args: ['current'], check: (a) => expect(Array.isArray(a)).toBe(true) },
  {
    method: 'getSlashPayloads',
    args: [],
    check: (a) => {
      const [p] = a as { votes: bigint; round: bigint; slashes: { validator: { toString(): string } }[] }[];
      expect(p?.slashes.map((s) => s.validator.toString())).toContain(ABSENT);
      // Parsed as bigints; how many votes depends on the slot it is read in (test/e2e/validators.test.ts counts them).
      expect([typeof p?.votes, typeof p?.round]).toEqual(['bigint', 'bigint']);
    },
  },
  { method: 'reloadKeystore', args: [], check: (a) => expect(a).toBeUndefined() },
];

async function run(client: Callable, cases: readonly ValidatorCase[]): Promise<void> {
  for (const c of cases) {
    const call = client[c.method]?.(...(typeof c.args === 'function' ? c.args() : c.args));
    if (c.rejects) {
      await expect(call, c.method).rejects.toThrow(c.rejects);
      continue;
    }
    const answer = await call;
    c.check?.(answer);
  }
}

describe('the official 4.1.2 clients on a committee node', () => {
  it('parse every validator and checkpoint answer, and recover our attesters', async () => {
    await run(createAztecNodeClient(node.publicUrl) as unknown as Callable, PUBLIC);
  });

  it('parse every slashing answer, and reload the keystore', async () => {
    await run(createAztecNodeAdminClient(node.adminUrl, {}, undefined, node.adminKey) as unknown as Callable, ADMIN);
  });
});
