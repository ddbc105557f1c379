#!/usr/bin/env node
/**
 * AVM benchmark (issue 19): the public simulation of one enqueued call on our interpreter beside Aztec 4.1.2's
 * TypeScript AVM (`AvmSimulator`, what its `PublicTxSimulator` runs per enqueued call) on the same call and the
 * same state, in the same process: a Token `transfer_in_public`, an AMM swap (its two enqueued calls),
 * AvmTest's opcode-heavy `bulk_testing` and its ECADD-heavy `variable_base_msm`. Each timed call runs in a tx of its own on both sides, and both
 * outcomes (revert status, output, gas, revert reason, effects) are checked equal before a figure is printed.
 *
 * Both sides read an in-memory world (the differential tests' harness, test/helpers/avm), so the figures time
 * the interpreters, not tree storage. Ours is the built dist/ (npm run build first); the harness's TypeScript
 * files load through Node's type stripping, with a resolve hook for their `.js` import specifiers.
 *
 *   npm run build && node bench/avm/run.js [--iterations 40]
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchResult } from '../bench-result.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const srcDir = `${root}src/`;
const helpersDir = `${root}test/helpers/`;

// The harness imports our interpreter from src/ (as the tests do): here it gets the built dist/ instead, and
// its own `./x.js` specifiers find the `./x.ts` files beside them.
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith('.') && context.parentURL?.startsWith('file:')) {
      const path = fileURLToPath(new URL(specifier, context.parentURL));
      if (path.startsWith(srcDir)) {
        return next(pathToFileURL(`${root}dist/${path.slice(srcDir.length)}`).href, context);
      }
      if (path.startsWith(helpersDir) && path.endsWith('.js') && !existsSync(path)) {
        return next(pathToFileURL(`${path.slice(0, -3)}.ts`).href, context);
      }
    }
    return next(specifier, context);
  },
});

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ITERATIONS = option('--iterations', 40);
const WARMUP = 5;

const { encodeCall, loadContract, partialNoteValidity, protocolContract, withConstructor, deployed } = await import(
  '../../test/helpers/avm/contracts.js'
);
const { OracleSession } = await import('../../test/helpers/avm/oracle.js');
const { OurSession } = await import('../../test/helpers/avm/ours.js');
const { diffOutcomes } = await import('../../test/helpers/avm/outcome.js');
const { resolveWorld } = await import('../../test/helpers/avm/world-description.js');

const ADMIN = 42n;
const ALICE = 111n;
const BOB = 222n;
const SUPPLY = 1_000_000_000n;

const token = await loadContract('@aztec/noir-contracts.js', 'token_contract-Token');
const amm = await loadContract('@aztec/noir-contracts.js', 'amm_contract-AMM');
const avmTest = await loadContract('@aztec/noir-test-contracts.js', 'avm_test_contract-AvmTest');

const call = (contract, address, sender, fn, fnArgs, isStaticCall = false) => ({
  address,
  sender,
  isStaticCall,
  calldata: encodeCall(contract, fn, fnArgs),
});

/**
 * Runs `setup` (a list of txs, each a list of calls) on both sides, then times `timed(i)` (the calls of one tx)
 * ITERATIONS times on each, each iteration a new tx; the outcomes must agree call for call.
 */
async function measure(name, world, setup, timed) {
  const oracle = await OracleSession.create(world);
  const ours = new OurSession(world);
  const both = async (requests, check) => {
    oracle.newTx();
    ours.newTx();
    let oracleMs = 0;
    let oursMs = 0;
    for (const request of requests) {
      let t = performance.now();
      const o = await oracle.call(request);
      oracleMs += performance.now() - t;
      t = performance.now();
      const u = ours.call(request);
      oursMs += performance.now() - t;
      const diffs = diffOutcomes(u, o);
      if (diffs.length > 0) throw new Error(`${name}: ours and the oracle differ:\n${diffs.join('\n')}`);
      if (check && o.reverted) throw new Error(`${name}: a call reverted: ${o.revertReason?.message}`);
    }
    return { oracleMs, oursMs };
  };
  for (const tx of setup) await both(tx, true);
  let oracleMs = 0;
  let oursMs = 0;
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const r = await both(timed(i), true);
    if (i >= WARMUP) {
      oracleMs += r.oracleMs;
      oursMs += r.oursMs;
    }
  }
  const result = { name, oursMs: oursMs / ITERATIONS, oracleMs: oracleMs / ITERATIONS };
  console.log(
    `  ${name}: ours ${result.oursMs.toFixed(3)} ms, Aztec 4.1.2 AvmSimulator ${result.oracleMs.toFixed(3)} ms, ` +
      `${(result.oracleMs / result.oursMs).toFixed(1)}x`,
  );
  return result;
}

const tokenArgs = [ADMIN, 'Token', 'TOK', 18];
const t0 = await withConstructor(token, tokenArgs, ADMIN, 0);
const t1 = await withConstructor(token, tokenArgs, ADMIN, 1);
const lq = await withConstructor(token, tokenArgs, ADMIN, 2);
const ammInstance = await withConstructor(amm, [t0.address, t1.address, lq.address], ADMIN, 3);
const SWAP_NOTES = Array.from({ length: WARMUP + ITERATIONS }, (_, i) => 1000n + BigInt(i));
const world = await resolveWorld({
  contracts: [
    t0,
    t1,
    lq,
    ammInstance,
    deployed(avmTest, 0xa7e5_7001n, 0xc1a5_5a01n, { deployer: 0x77n, initializationHash: 0x88n }),
    await protocolContract('AuthRegistry'),
    await protocolContract('FeeJuice'),
  ],
  nullifiers: [
    await partialNoteValidity(t0.address, 42n, ammInstance.address),
    await partialNoteValidity(t1.address, 66n, ammInstance.address),
    await partialNoteValidity(lq.address, 99n, ammInstance.address),
    ...(await Promise.all(SWAP_NOTES.map((c) => partialNoteValidity(t1.address, c, ammInstance.address)))),
  ],
});

console.log(`AVM: ${ITERATIONS} timed calls per figure (after ${WARMUP} warm-up calls), in-memory world on both sides`);
const results = [];

results.push(
  await measure(
    'Token transfer_in_public',
    world,
    [
      [call(token, t0.address, ADMIN, 'constructor', tokenArgs)],
      [call(token, t0.address, ADMIN, 'mint_to_public', [ALICE, SUPPLY])],
    ],
    () => [call(token, t0.address, ALICE, 'transfer_in_public', [ALICE, BOB, 1n, 0n])],
  ),
);

const selfCall = (contract, address, fn, fnArgs) => call(contract, address, address, fn, fnArgs);
const config = { token0: t0.address, token1: t1.address, liquidity_token: lq.address };
results.push(
  await measure(
    'AMM swap (_increase_public_balance + _swap_exact_tokens_for_tokens)',
    world,
    [
      [call(token, t0.address, ADMIN, 'constructor', tokenArgs)],
      [call(token, t1.address, ADMIN, 'constructor', tokenArgs)],
      [call(token, lq.address, ADMIN, 'constructor', tokenArgs)],
      [call(amm, ammInstance.address, ADMIN, 'constructor', [t0.address, t1.address, lq.address])],
      [call(token, lq.address, ADMIN, 'set_minter', [ammInstance.address, true])],
      [
        selfCall(token, t0.address, '_increase_public_balance', [ammInstance.address, (SUPPLY * 6n) / 10n]),
        selfCall(token, t1.address, '_increase_public_balance', [ammInstance.address, (SUPPLY * 5n) / 10n]),
        selfCall(amm, ammInstance.address, '_add_liquidity', [
          config,
          { commitment: 42n },
          { commitment: 66n },
          { commitment: 99n },
          (SUPPLY * 6n) / 10n,
          (SUPPLY * 5n) / 10n,
          (SUPPLY * 4n) / 10n,
          (SUPPLY * 4n) / 10n,
        ]),
      ],
    ],
    (i) => [
      selfCall(token, t0.address, '_increase_public_balance', [ammInstance.address, 1000n]),
      selfCall(amm, ammInstance.address, '_swap_exact_tokens_for_tokens', [
        t0.address,
        t1.address,
        1000n,
        1n,
        { commitment: SWAP_NOTES[i] },
      ]),
    ],
  ),
);

// bulk_testing emits its first field argument as a nullifier: a new one for each tx.
const bulkArgs = (i) => [
  Array.from({ length: 10 }, (_, k) => BigInt(k + 1 + 100 * i)),
  Array.from({ length: 10 }, (_, i) => i + 1),
  0xa7e5_7001n,
  0x77n,
  { inner: 0xc1a5_5a01n },
  0x88n,
  false,
];
results.push(
  await measure('AvmTest bulk_testing (opcode-heavy)', world, [], (i) => [
    call(avmTest, 0xa7e5_7001n, ALICE, 'bulk_testing', bulkArgs(i)),
  ]),
);

// variable_base_msm: Noir's MSM of two points, hundreds of ECADDs (one field inversion each); new scalars per tx.
const msmArgs = (i) => [0x1234_5678_9abc_def0n * BigInt(i + 1), 0x2468n, 0x1234_5678_9abc_def0n * 3n, 0x1357n];
results.push(
  await measure('AvmTest variable_base_msm (ECADD-heavy)', world, [], (i) => [
    call(avmTest, 0xa7e5_7001n, ALICE, 'variable_base_msm', msmArgs(i)),
  ]),
);

benchResult(
  'avm',
  results.map((r) => ({
    name: `${r.name}: public simulation, per tx`,
    value: r.oursMs,
    unit: 'ms',
    baseline: { name: 'Aztec 4.1.2 TypeScript AvmSimulator, same call and state', value: r.oracleMs },
    ratio: r.oracleMs / r.oursMs,
    target: '>= 5x',
    lowerIsBetter: true,
  })),
  {
    iterations: ITERATIONS,
    level: 'enqueued call (tx-level PublicTxSimulator figures come with the public processor)',
    state: 'in-memory world on both sides; outcomes checked equal',
  },
);
