#!/usr/bin/env node
/**
 * Trace cost (issue 30): the same enqueued call run plain, traced (call tree, effects, per-opcode gas) and traced
 * with its instruction trace, interleaved in the same run on the same in-memory world (test/helpers/avm): a Token
 * `transfer_in_public` and AvmTest's opcode-heavy `bulk_testing`. The plain run is the baseline; each traced
 * figure is its ratio to it. Every run's outcome (revert status, gas used) must equal the plain one's.
 *
 *   npm run build && node bench/trace/run.js [--iterations 30]
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchResult } from '../bench-result.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const srcDir = `${root}src/`;
const helpersDir = `${root}test/helpers/`;
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith('.') && context.parentURL?.startsWith('file:')) {
      const path = fileURLToPath(new URL(specifier, context.parentURL));
      if (path.startsWith(srcDir)) return next(pathToFileURL(`${root}dist/${path.slice(srcDir.length)}`).href, context);
      if (path.startsWith(helpersDir) && path.endsWith('.js') && !existsSync(path)) {
        return next(pathToFileURL(`${path.slice(0, -3)}.ts`).href, context);
      }
    }
    return next(specifier, context);
  },
});

const args = process.argv.slice(2);
const i = args.indexOf('--iterations');
const ITERATIONS = i >= 0 ? Number(args[i + 1]) : 30;
const WARMUP = 3;

const { encodeCall, loadContract, protocolContract, withConstructor, deployed } = await import(
  '../../test/helpers/avm/contracts.js'
);
const { OurSession, avmGlobalsFor } = await import('../../test/helpers/avm/ours.js');
const { resolveWorld } = await import('../../test/helpers/avm/world-description.js');
const { executeEnqueuedCall } = await import('../../dist/core/avm/index.js');
const { CallTreeTracer } = await import('../../dist/daemon/tracing/call-tree-tracer.js');

const ADMIN = 42n;
const ALICE = 111n;
const BOB = 222n;
const token = await loadContract('@aztec/noir-contracts.js', 'token_contract-Token');
const avmTest = await loadContract('@aztec/noir-test-contracts.js', 'avm_test_contract-AvmTest');
const t0 = await withConstructor(token, [ADMIN, 'Token', 'TOK', 18], ADMIN, 0);
const avmTestAt = 0xa7e5_7001n;
const world = await resolveWorld({
  contracts: [
    t0,
    deployed(avmTest, avmTestAt, 0xc1a5_5a01n, { deployer: 0x77n, initializationHash: 0x88n }),
    await protocolContract('AuthRegistry'),
    await protocolContract('FeeJuice'),
  ],
});
const call = (contract, address, sender, fn, fnArgs) => ({
  address,
  sender,
  calldata: encodeCall(contract, fn, fnArgs),
});

// The Token's state (constructor, a mint) goes into the world through the tests' session, as blocks would.
const session = new OurSession(world);
for (const tx of [
  [call(token, t0.address, ADMIN, 'constructor', [ADMIN, 'Token', 'TOK', 18])],
  [call(token, t0.address, ADMIN, 'mint_to_public', [ALICE, 10n ** 9n])],
]) {
  session.newTx();
  for (const c of tx) {
    const r = session.call(c);
    if (r.reverted) throw new Error(`setup reverted: ${r.revertReason?.message}`);
  }
}
session.newTx();

const bulkArgs = [
  Array.from({ length: 10 }, (_, k) => BigInt(k + 1)),
  Array.from({ length: 10 }, (_, k) => k + 1),
  avmTestAt,
  0x77n,
  { inner: 0xc1a5_5a01n },
  0x88n,
  false,
];
const CASES = [
  {
    name: 'Token transfer_in_public',
    request: call(token, t0.address, ALICE, 'transfer_in_public', [ALICE, BOB, 1n, 0n]),
  },
  { name: 'AvmTest bulk_testing', request: call(avmTest, avmTestAt, ALICE, 'bulk_testing', bulkArgs) },
];

const MODES = {
  plain: () => undefined,
  traced: () => new CallTreeTracer(() => undefined, undefined),
  opcodes: () => new CallTreeTracer(() => undefined, { maxSteps: 10_000_000, maxBytes: 2 ** 31 }),
};

function run(request, tracer) {
  return executeEnqueuedCall({
    world: session.world,
    contracts: session.world,
    globals: avmGlobalsFor(world),
    address: request.address,
    sender: request.sender,
    calldata: request.calldata,
    gasLimit: { l2Gas: 6_000_000, daGas: 1_000_000 },
    firstNullifier: 0xf1n,
    ...(tracer ? { tracer } : {}),
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const figures = [];
for (const c of CASES) {
  const times = { plain: [], traced: [], opcodes: [] };
  let steps = 0;
  const reference = run(c.request, undefined);
  if (reference.reverted) throw new Error(`${c.name} reverted: ${reference.revertReason?.message}`);
  for (let k = 0; k < WARMUP + ITERATIONS; k++) {
    for (const [mode, make] of Object.entries(MODES)) {
      const tracer = make();
      const t = performance.now();
      const r = run(c.request, tracer);
      const ms = performance.now() - t;
      if (r.reverted !== reference.reverted || r.gasUsed.l2Gas !== reference.gasUsed.l2Gas) {
        throw new Error(`${c.name}: the ${mode} run differs from the plain one`);
      }
      if (mode === 'opcodes') steps = tracer.instructionCount;
      if (k >= WARMUP) times[mode].push(ms);
    }
  }
  const plain = median(times.plain);
  for (const mode of ['traced', 'opcodes']) {
    const ms = median(times[mode]);
    figures.push({
      name: `${c.name}: ${mode === 'traced' ? 'call-tree trace' : `trace with opcodes (${steps} steps)`}`,
      value: Number(ms.toFixed(3)),
      unit: 'ms',
      baseline: { name: 'plain execution, same call', value: Number(plain.toFixed(3)) },
      ratio: Number((ms / plain).toFixed(2)),
      lowerIsBetter: true,
    });
  }
  console.log(
    `${c.name}: plain ${plain.toFixed(3)} ms, traced ${median(times.traced).toFixed(3)} ms, with opcodes ${median(times.opcodes).toFixed(3)} ms (${steps} steps)`,
  );
}

benchResult('trace', figures, {
  method: `median of ${ITERATIONS} interleaved runs per mode, after ${WARMUP} warm-up runs`,
});
