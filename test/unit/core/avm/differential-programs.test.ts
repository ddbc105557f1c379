/**
 * Differential test on random programs: thousands of seeded, valid AVM programs (random-program.ts) run as the
 * top frame on Aztec 4.1.2's TypeScript simulator and on ours, from the same world (the program deployed at its
 * own address so it can call itself, AvmTest beside it, a few storage slots, nullifiers, note hashes and
 * messages). Revert status, output, L2 and DA gas, the revert reason and every effect must be equal. Any
 * difference is shrunk to a minimal program and printed, disassembled, with both outcomes.
 *
 * AVM_FUZZ_PROGRAMS=<n> runs more programs (default 2500), AVM_FUZZ_SEED=<s> starts from another seed.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { countDecodedInstructions, disassemble } from '../../../helpers/avm/avm-assembler.js';
import { deployed, type LoadedContract, loadContract } from '../../../helpers/avm/contracts.js';
import { runBoth, type StepComparison } from '../../../helpers/avm/differential.js';
import { renderOutcome } from '../../../helpers/avm/outcome.js';
import {
  type ProgramContext,
  programBytecode,
  type RandomProgram,
  Rng,
  randomProgram,
  shrinkProgram,
} from '../../../helpers/avm/random-program.js';
import { type ResolvedWorld, resolveWorld } from '../../../helpers/avm/world-description.js';

const PROGRAMS = Number(process.env.AVM_FUZZ_PROGRAMS ?? 2500);
const FIRST_SEED = Number(process.env.AVM_FUZZ_SEED ?? 1);
/** Shrinking re-runs a program many times; the first few differences are enough to act on. */
const MAX_SHRUNK = 5;

const SELF = 0x5e1f_0001n;
const OTHER = 0xa7e5_0002n;
const MISSING = 0xdead_0003n;
const SENDER = 0x5e4d_0004n;

let avmTest: LoadedContract;
let ctx: ProgramContext;
let baseWorld: ResolvedWorld;

beforeAll(async () => {
  avmTest = await loadContract('@aztec/noir-test-contracts.js', 'avm_test_contract-AvmTest');
  ctx = {
    self: SELF,
    other: OTHER,
    otherSelector: avmTest.functions.get('add_args_return')!.selector,
    missing: MISSING,
    noteHashes: [0x11n, 0x12n, 0x13n, 0x14n],
    l1ToL2Messages: [0x21n, 0x22n, 0x23n],
    siloedNullifiers: [0x31n, 0x32n],
    storageSlots: [0n, 1n, 2n, 3n],
  };
  baseWorld = await resolveWorld({
    contracts: [
      deployed(avmTest, OTHER, 0xc1a5_5001n, { deployer: 0x77n, initializationHash: 0x88n }),
      // The program's own bytecode is put in per run.
      { address: SELF, classId: 0xc1a5_5002n, packedBytecode: new Uint8Array([0]), deployer: 0x99n },
    ],
    noteHashes: ctx.noteHashes,
    l1ToL2Messages: ctx.l1ToL2Messages,
    nullifiers: ctx.siloedNullifiers,
    storage: [
      { contract: SELF, slot: 1n, value: 0x1234n },
      { contract: SELF, slot: 3n, value: 5n },
      { contract: OTHER, slot: 2n, value: 0x5678n },
    ],
  });
});

/** One program's run: the world with the program deployed at SELF, random calldata, sometimes little gas. */
async function compareProgram(p: RandomProgram): Promise<StepComparison> {
  const bytecode = programBytecode(p);
  const rng = new Rng(p.seed ^ 0x5a5a5a5a);
  const calldata = Array.from({ length: rng.int(5) }, () => (rng.chance(0.5) ? BigInt(rng.int(100)) : rng.bits(250)));
  const gasLimit = rng.chance(0.1)
    ? { l2Gas: 100 + rng.int(20_000), daGas: rng.chance(0.5) ? rng.int(200) : 10_000 }
    : undefined;
  // Each program is its own class: a class id commits to its bytecode (a digest stands in for the real one).
  const classId = BigInt(`0x${createHash('sha256').update(bytecode).digest('hex').slice(0, 62)}`);
  const world = {
    ...baseWorld,
    contracts: baseWorld.contracts.map((c) => (c.address === SELF ? { ...c, classId, packedBytecode: bytecode } : c)),
  };
  const [r] = await runBoth(world, [{ bytecode, request: { address: SELF, sender: SENDER, calldata, gasLimit } }]);
  return r;
}

function report(p: RandomProgram, r: StepComparison): string {
  const bytecode = programBytecode(p);
  return [
    `seed ${p.seed}: ${bytecode.length} bytes`,
    disassemble(bytecode),
    'differences:',
    ...r.diffs.map((d) => `  ${d}`),
    `ours: ${renderOutcome(r.ours)}`,
    `oracle: ${renderOutcome(r.oracle)}`,
  ].join('\n');
}

describe('random programs: our AVM against Aztec 4.1.2', () => {
  test(`${PROGRAMS} seeded programs from seed ${FIRST_SEED}`, { timeout: 600_000 }, async () => {
    const failures: string[] = [];
    let mismatches = 0;
    /** Which fields differ (indices dropped) -> the seeds where they do. */
    const kinds = new Map<string, number[]>();
    const outcomes = new Map<string, number>();
    for (let seed = FIRST_SEED; seed < FIRST_SEED + PROGRAMS; seed++) {
      const p = randomProgram(seed, ctx);
      // The assembler's encoding is what Aztec's deserializer reads (instruction by instruction).
      expect(countDecodedInstructions(programBytecode(p))).toBeGreaterThan(0);
      const r = await compareProgram(p);
      const kind = r.oracle.aborted
        ? 'aborted'
        : r.oracle.reverted
          ? (r.oracle.revertReason?.message.split(/[ :]/)[0] ?? '?')
          : 'ok';
      outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
      if (r.diffs.length === 0) continue;
      mismatches++;
      const signature = [...new Set(r.diffs.map((d) => d.split(':')[0].replace(/\[\d+\]/g, '[]')))].join(', ');
      kinds.set(signature, [...(kinds.get(signature) ?? []), seed]);
      if (failures.length >= MAX_SHRUNK) continue;
      const minimal = await shrinkProgram(p, async (candidate) => (await compareProgram(candidate)).diffs.length > 0);
      failures.push(report(minimal, await compareProgram(minimal)));
    }
    // The generator must keep reaching the end of programs, not only halting early.
    expect(outcomes.get('ok') ?? 0).toBeGreaterThan(PROGRAMS / 10);
    expect(
      failures,
      [
        `${mismatches} of ${PROGRAMS} programs differ. Fields that differ, with the seeds:`,
        ...[...kinds].map(([k, seeds]) => `  ${k}: ${seeds.length} (${seeds.slice(0, 12).join(', ')})`),
        `The first ${failures.length}, shrunk:`,
        '',
        failures.join('\n\n'),
      ].join('\n'),
    ).toEqual([]);
  });
});
