#!/usr/bin/env node
/**
 * AVM benchmark (issue 19): the public simulation of a Token `transfer_in_public`, an AMM swap (its two enqueued
 * calls), AvmTest's opcode-heavy `bulk_testing` and its ECADD-heavy `variable_base_msm`, ours beside Aztec 4.1.2's
 * TypeScript simulator in the same process, at two levels:
 *
 * - one enqueued call: our interpreter beside `AvmSimulator` (what `PublicTxSimulator` runs per enqueued call),
 *   both on an in-memory world (test/helpers/avm), each timed call in a tx of its own; both outcomes (revert
 *   status, output, gas, revert reason, effects) are checked equal before a figure is printed;
 * - one public tx: our public processor (src/daemon/public-processor, on a SQLite world-state fork and chain
 *   store) beside `PublicTxSimulator.simulate` (on the harness's in-memory fork), every case's txs in one block
 *   (test/helpers/public-processor); every tx's TxEffect bytes, gas, revert code and return values must agree.
 *
 * - 4.1.2's production baseline, its C++ simulator (`@aztec/native`), where the aztec-reference root is built
 *   (bench/avm/cpp-baseline.js): the same block of txs on 4.1.2's C++ and TypeScript simulators, interleaved in
 *   one process there, checked equal to ours; per tx, and per call as the extra time of the calls in a tx. The
 *   bench says it skipped those rows, and why, where the root is not there.
 *
 * What is cached: ours decodes each contract class once and keeps it across calls and txs (AvmProgramCache), as
 * the node does; 4.1.2 decodes per call (its AvmSimulator keeps decoded instructions per instance), as its node
 * does. Ours is the built dist/ (npm run build first); the harness's TypeScript files load through Node's type
 * stripping, with a resolve hook for their `.js` import specifiers.
 *
 *   npm run build && node bench/avm/run.js [--iterations 40]
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchResult } from '../bench-result.js';
import { cppBaselineUnavailable, runCppBaseline } from './cpp-baseline.js';

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
const avmTestDescription = deployed(avmTest, 0xa7e5_7001n, 0xc1a5_5a01n, {
  deployer: 0x77n,
  initializationHash: 0x88n,
});
const partialNotes = [
  await partialNoteValidity(t0.address, 42n, ammInstance.address),
  await partialNoteValidity(t1.address, 66n, ammInstance.address),
  await partialNoteValidity(lq.address, 99n, ammInstance.address),
  ...(await Promise.all(SWAP_NOTES.map((c) => partialNoteValidity(t1.address, c, ammInstance.address)))),
];
const world = await resolveWorld({
  contracts: [
    t0,
    t1,
    lq,
    ammInstance,
    avmTestDescription,
    await protocolContract('AuthRegistry'),
    await protocolContract('FeeJuice'),
  ],
  nullifiers: partialNotes,
});

const selfCall = (contract, address, fn, fnArgs) => call(contract, address, address, fn, fnArgs);
const config = { token0: t0.address, token1: t1.address, liquidity_token: lq.address };
const t0Constructor = [call(token, t0.address, ADMIN, 'constructor', tokenArgs)];
/** The pool: tokens 1 and the liquidity token initialised, the AMM minting liquidity, liquidity added. */
const ammSetup = [
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
];
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
// variable_base_msm: Noir's MSM of two points, hundreds of ECADDs (one field inversion each); new scalars per tx.
const msmArgs = (i) => [0x1234_5678_9abc_def0n * BigInt(i + 1), 0x2468n, 0x1234_5678_9abc_def0n * 3n, 0x1357n];

/** Each case: the txs that prepare its state, and the calls of its i-th timed tx. */
const CASES = [
  {
    name: 'Token transfer_in_public',
    setup: [t0Constructor, [call(token, t0.address, ADMIN, 'mint_to_public', [ALICE, SUPPLY])]],
    timed: () => [call(token, t0.address, ALICE, 'transfer_in_public', [ALICE, BOB, 1n, 0n])],
  },
  {
    name: 'AMM swap (_increase_public_balance + _swap_exact_tokens_for_tokens)',
    setup: [t0Constructor, ...ammSetup],
    timed: (i) => [
      selfCall(token, t0.address, '_increase_public_balance', [ammInstance.address, 1000n]),
      selfCall(amm, ammInstance.address, '_swap_exact_tokens_for_tokens', [
        t0.address,
        t1.address,
        1000n,
        1n,
        { commitment: SWAP_NOTES[i] },
      ]),
    ],
  },
  {
    name: 'AvmTest bulk_testing (opcode-heavy)',
    setup: [],
    timed: (i) => [call(avmTest, 0xa7e5_7001n, ALICE, 'bulk_testing', bulkArgs(i))],
  },
  {
    name: 'AvmTest variable_base_msm (ECADD-heavy)',
    setup: [],
    timed: (i) => [call(avmTest, 0xa7e5_7001n, ALICE, 'variable_base_msm', msmArgs(i))],
  },
];

console.log(
  `AVM, one enqueued call at a time: ${ITERATIONS} timed txs per figure (after ${WARMUP} warm-up txs), in-memory world on both sides`,
);
const results = [];
for (const c of CASES) results.push(await measure(c.name, world, c.setup, c.timed));

/**
 * Tx level: every case's txs in one block, built by Aztec's createTxForPublicCalls (a funded fee payer, the
 * calls in app logic) and run by 4.1.2's PublicTxSimulator on the harness's in-memory fork, then by our public
 * processor on a SQLite world-state fork and chain store (test/helpers/public-processor), each tx on the state
 * the earlier ones left. Every tx's TxEffect, gas and return values must agree before a figure is printed.
 */
const { FEE_PAYER, feePayerBalance, privateGasWithTeardown, processingDifferences, runBlockDifferential } =
  await import('../../test/helpers/public-processor/public-tx-differential.js');
const { OracleFork } = await import('../../test/helpers/avm/oracle-fork.js');
const { PublicTxSimulator } = await import(
  '../../node_modules/@aztec/simulator/dest/public/public_tx_simulator/public_tx_simulator.js'
);
// The oracle's state is the harness's in-memory fork, whose stand-in roots and checkpoints copy and digest the
// whole state (O(state) per call, unlike a real world state): its time inside the fork is measured per tx and
// also left out of a second, conservative figure. Fork methods are synchronous; nested ones count once.
let oracleForkMs = 0;
let forkDepth = 0;
for (const name of Object.getOwnPropertyNames(OracleFork.prototype)) {
  const method = OracleFork.prototype[name];
  if (name === 'constructor' || typeof method !== 'function') continue;
  OracleFork.prototype[name] = function (...methodArgs) {
    const t = performance.now();
    forkDepth++;
    try {
      return method.apply(this, methodArgs);
    } finally {
      if (--forkDepth === 0) oracleForkMs += performance.now() - t;
    }
  };
}
const forkMsPerTx = [];
const simulate = PublicTxSimulator.prototype.simulate;
PublicTxSimulator.prototype.simulate = async function (tx) {
  const before = oracleForkMs;
  try {
    return await simulate.call(this, tx);
  } finally {
    forkMsPerTx.push(oracleForkMs - before);
  }
};
const toEnqueued = (r) => ({
  address: r.address,
  sender: r.sender,
  calldata: r.calldata,
  isStaticCall: r.isStaticCall,
});
const feePayerStorage = await feePayerBalance(10n ** 24n);
let nextNullifier = 0x7e57_0000n;
const txScenario = (calls) => ({
  world: {
    contracts: [t0, t1, lq, ammInstance, avmTestDescription],
    nullifiers: partialNotes,
    storage: [feePayerStorage],
  },
  nonRevertible: { nullifiers: [nextNullifier++] },
  feePayer: FEE_PAYER,
  gasUsedByPrivate: privateGasWithTeardown(2_000, 100_000),
  appLogic: calls.map(toEnqueued),
});
const setupTxs = [CASES[0].setup, ammSetup].flat();
const scenarios = [];
for (const calls of setupTxs) scenarios.push(txScenario(calls));
const timedAt = []; // [case][iteration] -> scenario index
for (const _ of CASES) timedAt.push([]);
for (let i = 0; i < WARMUP + ITERATIONS; i++) {
  for (const [k, c] of CASES.entries()) {
    timedAt[k].push(scenarios.length);
    scenarios.push(txScenario(c.timed(i)));
  }
}
/**
 * For 4.1.2's C++ simulator (below), which has no entry point for one call: each timed tx but the last of a case
 * has a doubled twin, its calls followed by the next timed tx's, run on the state the tx starts from and undone
 * (ours processes it just before the tx, its effect never applied). The twin's time less the tx's is what the
 * calls cost inside a tx, measured the same way, in the same order, on every side.
 */
const cppUnavailable = cppBaselineUnavailable();
const probes = new Map();
if (cppUnavailable === undefined) {
  for (const [k, c] of CASES.entries()) {
    for (let i = WARMUP; i < WARMUP + ITERATIONS - 1; i++) {
      probes.set(timedAt[k][i], txScenario([...c.timed(i), ...c.timed(i + 1)]));
    }
  }
}
console.log(`Public tx, ${scenarios.length} txs in one block (${setupTxs.length} to set up, then the cases in turn)`);
const runs = await runBlockDifferential(scenarios, probes);
runs.forEach((run, k) => {
  const diffs = processingDifferences(run);
  if (diffs.length > 0) throw new Error(`tx ${k}: ours and PublicTxSimulator differ:\n${diffs.join('\n')}`);
  if (run.ours.processed.revertCode !== 0)
    throw new Error(`tx ${k} reverted: ${run.ours.processed.revertReason?.message}`);
  if (run.ours.probe !== undefined && run.ours.probe.processed.revertCode !== 0)
    throw new Error(`the doubled twin of tx ${k} reverted: ${run.ours.probe.processed.revertReason?.message}`);
});
const txResults = CASES.map((c, k) => {
  const timed = timedAt[k].slice(WARMUP);
  const mean = (f) => timed.reduce((sum, index) => sum + f(runs[index], index), 0) / timed.length;
  const r = {
    name: c.name,
    oursMs: mean((run) => run.ours.ms),
    applyMs: mean((run) => run.ours.applyMs),
    oracleMs: mean((run) => run.oracle.ms),
    oracleForkMs: mean((_, index) => forkMsPerTx[index]),
  };
  console.log(
    `  ${r.name}: ours ${r.oursMs.toFixed(3)} ms (+ ${r.applyMs.toFixed(3)} ms applying the effect to the fork), ` +
      `Aztec 4.1.2 PublicTxSimulator ${r.oracleMs.toFixed(3)} ms, ${(r.oracleMs / r.oursMs).toFixed(1)}x ` +
      `(${(r.oracleMs / (r.oursMs + r.applyMs)).toFixed(1)}x with applying); 4.1.2 without its time in the ` +
      `harness fork (${r.oracleForkMs.toFixed(3)} ms) ${(r.oracleMs - r.oracleForkMs).toFixed(3)} ms, ` +
      `${((r.oracleMs - r.oracleForkMs) / r.oursMs).toFixed(1)}x`,
  );
  return r;
});

/**
 * 4.1.2's production baseline, its C++ simulator, in the aztec-reference root (bench/avm/cpp-baseline.js): the
 * same block of txs and their doubled twins on its TypeScript and C++ simulators, interleaved in one process
 * there, each TxEffect, gas and revert code checked equal to ours. Ours is timed here, in this run, on the host.
 */
let cpp;
if (cppUnavailable === undefined) {
  console.log(
    `Aztec 4.1.2 C++ simulator in the aztec-reference root: the same ${scenarios.length} txs, and ${probes.size} ` +
      'doubled twins (undone), on its TypeScript and C++ simulators interleaved',
  );
  const reference = runCppBaseline(runs);
  const mean = (xs) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const median = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const m = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
  };
  cpp = {
    node: reference.node,
    cases: CASES.map((c, k) => {
      const timed = timedAt[k].slice(WARMUP);
      const pairs = reference.doubledTimes.filter((d) => timed.includes(d.index));
      const r = {
        name: c.name,
        txMs: mean(timed.map((index) => reference.times[index].cpp)),
        tsTxMs: mean(timed.map((index) => reference.times[index].ts)),
        // One more call's time: the doubled tx's less the same tx's, paired; the median, as a difference of two
        // times takes every stall of a loaded machine whole.
        callMs: pairs.length > 0 ? median(pairs.map((d) => d.cpp - reference.times[d.index].cpp)) : undefined,
        tsCallMs: pairs.length > 0 ? median(pairs.map((d) => d.ts - reference.times[d.index].ts)) : undefined,
        oursCallMs:
          pairs.length > 0 ? median(pairs.map((d) => runs[d.index].ours.probe.ms - runs[d.index].ours.ms)) : undefined,
      };
      const call =
        r.callMs === undefined
          ? 'per call not measured (needs --iterations 2 or more)'
          : `per call C++ ${r.callMs.toFixed(3)} ms, TypeScript ${r.tsCallMs.toFixed(3)} ms (${(r.tsCallMs / r.callMs).toFixed(1)}x); ours ${r.oursCallMs.toFixed(3)} ms, ${(r.callMs / r.oursCallMs).toFixed(1)}x`;
      console.log(
        `  ${r.name}: per tx C++ ${r.txMs.toFixed(3)} ms, TypeScript ${r.tsTxMs.toFixed(3)} ms ` +
          `(${(r.tsTxMs / r.txMs).toFixed(1)}x); ours ${(txResults[k].oursMs + txResults[k].applyMs).toFixed(3)} ms ` +
          `with applying, ${(r.txMs / (txResults[k].oursMs + txResults[k].applyMs)).toFixed(1)}x; ${call}`,
      );
      return r;
    }),
  };
} else {
  console.log(`Aztec 4.1.2 C++ simulator: skipped: ${cppUnavailable}`);
}
const cppFigures = (cpp?.cases ?? []).flatMap((r, k) => {
  const oursTx = txResults[k].oursMs + txResults[k].applyMs;
  const figures = [
    {
      name: `${r.name}: public tx, Aztec 4.1.2 C++ simulator (CppPublicTxSimulator, C++ world state)`,
      value: r.txMs,
      unit: 'ms',
      baseline: { name: 'Aztec 4.1.2 TypeScript PublicTxSimulator, same tx, state and process', value: r.tsTxMs },
      ratio: r.tsTxMs / r.txMs,
    },
    {
      name: `${r.name}: public tx, ours with its effect applied to our fork`,
      value: oursTx,
      unit: 'ms',
      baseline: { name: 'Aztec 4.1.2 C++ simulator (CppPublicTxSimulator), same tx and state', value: r.txMs },
      ratio: r.txMs / oursTx,
      target: '>= 3x',
    },
  ];
  if (r.callMs === undefined) return figures;
  return [
    {
      name: `${r.name}: one enqueued call, Aztec 4.1.2 C++ simulator (its extra time in a tx, median)`,
      value: r.callMs,
      unit: 'ms',
      baseline: { name: 'Aztec 4.1.2 TypeScript PublicTxSimulator, the same extra time (median)', value: r.tsCallMs },
      ratio: r.tsCallMs / r.callMs,
    },
    {
      name: `${r.name}: one enqueued call, ours (its extra time in a tx, median)`,
      value: r.oursCallMs,
      unit: 'ms',
      baseline: { name: 'Aztec 4.1.2 C++ simulator, the same extra time (median)', value: r.callMs },
      ratio: r.callMs / r.oursCallMs,
      target: '>= 3x',
    },
    ...figures,
  ];
});

benchResult(
  'avm',
  [
    ...results.map((r) => ({
      name: `${r.name}: one enqueued call (AVM alone)`,
      value: r.oursMs,
      unit: 'ms',
      baseline: { name: 'Aztec 4.1.2 TypeScript AvmSimulator, same call and state', value: r.oracleMs },
      ratio: r.oracleMs / r.oursMs,
      target: '>= 5x',
    })),
    ...txResults.map((r) => ({
      name: `${r.name}: public tx (processPublicTx)`,
      value: r.oursMs,
      unit: 'ms',
      baseline: {
        name: 'Aztec 4.1.2 TypeScript PublicTxSimulator.simulate, same tx and state, less its time in the test fork',
        value: r.oracleMs - r.oracleForkMs,
      },
      ratio: (r.oracleMs - r.oracleForkMs) / r.oursMs,
      target: '>= 5x',
    })),
    ...txResults.map((r) => ({
      name: `${r.name}: public tx (processPublicTx)`,
      value: r.oursMs,
      unit: 'ms',
      baseline: { name: 'Aztec 4.1.2 TypeScript PublicTxSimulator.simulate, same tx and state', value: r.oracleMs },
      ratio: r.oracleMs / r.oursMs,
    })),
    ...txResults.map((r) => ({
      name: `${r.name}: public tx, effect applied to our fork too`,
      value: r.oursMs + r.applyMs,
      unit: 'ms',
      baseline: { name: 'Aztec 4.1.2 TypeScript PublicTxSimulator.simulate, same tx and state', value: r.oracleMs },
      ratio: r.oracleMs / (r.oursMs + r.applyMs),
    })),
    ...cppFigures,
  ],
  {
    iterations: ITERATIONS,
    warmup: WARMUP,
    decoding:
      'ours: each class decoded once and kept across calls and txs (AvmProgramCache, as the node does); ' +
      "4.1.2: decoded per call (AvmSimulator's per-instance instruction cache), as its node does",
    state:
      'call level: in-memory world on both sides; tx level: ours a SQLite world-state fork (read during the tx, ' +
      'then the effect applied to it), 4.1.2 the harness in-memory fork (its trees unhashed); outcomes checked equal',
    cppSimulator:
      cpp === undefined
        ? `skipped: ${cppUnavailable}`
        : `Aztec 4.1.2's CppPublicTxSimulator (@aztec/native) on its C++ world state (NativeWorldStateService), ` +
          "beside its TypeScript PublicTxSimulator on another fork of the same state, with the sequencer's " +
          'block-building configuration, interleaved in one process in the aztec-reference root on Node ' +
          `${cpp.node} (ours on Node ${process.version} on the host, in the same run); every tx's TxEffect, gas ` +
          'and revert code checked equal to ours',
    workerHop: 'measured by bench/public-block (the same Token blocks on this thread and in the sequencer worker)',
  },
);
// The oracle's bb.js keeps its WebAssembly workers alive: end here, so that `npm run bench` goes on.
process.exit(0);
