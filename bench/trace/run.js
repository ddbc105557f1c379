#!/usr/bin/env node
/**
 * Trace cost (issue 30), in two parts, each traced figure beside its plain baseline measured in the same run:
 *
 * 1. the AVM alone: the same enqueued call run plain, traced (call tree, effects, per-opcode gas) and traced with
 *    its instruction trace, interleaved on the same in-memory world (test/helpers/avm): a Token
 *    `transfer_in_public` and AvmTest's opcode-heavy `bulk_testing`;
 * 2. through the node's public execution workers: a tx calling AvmTest `bulk_testing`, published on a dev chain
 *    (a database file), run by the worker pool as node_simulatePublicCalls runs it (the baseline), as
 *    nodeDev_traceCall runs it, and with its instruction trace (the jobs of src/daemon/public-execution), on the
 *    same block, interleaved.
 *
 * Every run's outcome (revert status, gas used) must equal the plain one's.
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

/** The traced modes' medians as figures, each beside the plain median of the same run, and a line for the log. */
function addFigures(label, times, steps, names, baseline) {
  const plain = median(times.plain);
  for (const mode of ['traced', 'opcodes']) {
    const ms = median(times[mode]);
    figures.push({
      name: `${label}: ${mode === 'traced' ? names.traced : `${names.opcodes} (${steps} steps)`}`,
      value: Number(ms.toFixed(3)),
      unit: 'ms',
      baseline: { name: baseline, value: Number(plain.toFixed(3)) },
      ratio: Number((ms / plain).toFixed(2)),
      lowerIsBetter: true,
    });
  }
  console.log(
    `${label}: plain ${plain.toFixed(3)} ms, ${names.traced} ${median(times.traced).toFixed(3)} ms, ` +
      `${names.opcodes} ${median(times.opcodes).toFixed(3)} ms (${steps} steps)`,
  );
}
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
  addFigures(
    c.name,
    times,
    steps,
    { traced: 'call-tree trace', opcodes: 'trace with opcodes' },
    'plain execution, same call',
  );
}

// ---- 2. through the public execution workers ----

const { mkdtempSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const pino = (await import('pino')).default;
const { startBenchDevChain } = await import('../bench-dev-chain.js');
const { AztecAddress } = await import('../../dist/core/aztec-address.js');
const { ContractClassPublishedEvent } = await import('../../dist/core/contract/contract-class-published-event.js');
const { PublicKeys } = await import('../../dist/core/contract/public-keys.js');
const { Fr } = await import('../../dist/core/fr.js');
const { GasFees } = await import('../../dist/core/gas/gas-fees.js');
const { TxBuilder } = await import('../../dist/core/tx/tx-builder.js');
const { PublicExecutionPool } = await import('../../dist/daemon/public-execution/public-execution-pool.js');
const { genesisPublicData } = await import('../../dist/daemon/sequencer/genesis-funding.js');

const dir = mkdtempSync(join(tmpdir(), 'l2node-bench-trace-'));
const dbPath = join(dir, 'chain.sqlite');
const PAYER = new AztecAddress(0x9001n);
const chain = await startBenchDevChain(
  { 'prefunded-accounts': `${PAYER}:${10n ** 30n}`, 'max-l2-block-gas': String(2 ** 32 - 1) },
  dbPath,
);
const avmClass = {
  artifactHash: new Fr(0xb1n),
  privateFunctionsRoot: new Fr(0xb2n),
  packedBytecode: Buffer.from(avmTest.packedBytecode),
};
const avmClassId = ContractClassPublishedEvent.create(
  avmClass.artifactHash,
  avmClass.privateFunctionsRoot,
  avmClass.packedBytecode,
).contractClassId;
const avmInstance = {
  salt: new Fr(0xa7e5n),
  contractClassId: avmClassId,
  initializationHash: new Fr(0x88n),
  publicKeys: PublicKeys.default(),
  deployer: new AztecAddress(0x77n),
};
const AVM_TEST = TxBuilder.instanceAddress(avmInstance);
let request = 1n;
const chainTx = (options) =>
  chain.builder.build({
    feePayer: PAYER,
    maxFeesPerGas: new GasFees(0n, 2000n),
    now: BigInt(Math.floor(chain.clock.now() / 1000)),
    txRequestHash: new Fr(request++),
    ...options,
  });
await chain.service.sequencer.start();
chain.pending.push(chainTx({ publishContractClass: avmClass, publishContractInstances: [avmInstance] }));
chain.clock.advance(chain.service.slots.blockIntervalMs);
const atBlock = chain.service.chain.latestBlockNumber;
if (atBlock < 1) throw new Error('the AvmTest publication was not mined');
await chain.service.sequencer.stop();

const bulkTx = chainTx({
  publicCalls: {
    appLogic: [
      {
        contractAddress: AVM_TEST,
        msgSender: PAYER,
        calldata: encodeCall(avmTest, 'bulk_testing', [
          bulkArgs[0],
          bulkArgs[1],
          AVM_TEST.value,
          0x77n,
          { inner: avmClassId.value },
          0x88n,
          false,
        ]).map((v) => new Fr(v)),
      },
    ],
  },
});
const header = chain.service.chain.store.getBlock(atBlock).header.globalVariables.toJSON();
const globals = { ...header, blockNumber: atBlock + 1 };
const pool = new PublicExecutionPool({
  config: { ...chain.config, publicExecutionWorkers: 1, publicSimulationTimeoutMs: 600_000 },
  databaseFile: () => dbPath,
  genesisPublicData: genesisPublicData(chain.config),
  sequencer: false,
  log: pino({ level: 'silent' }),
});
await pool.start();
const POOL_MODES = {
  plain: () =>
    pool.simulatePublicCalls({ tx: bulkTx.toBuffer(), globals, atBlock, skipFeeEnforcement: false }).then((a) => {
      if (a.kind !== 'simulated') throw new Error(`simulation refused: ${a.message}`);
      return { reverted: a.output.revertReason !== undefined, l2Gas: a.output.gasUsed.totalGas.l2Gas };
    }),
  traced: (opcodes) =>
    pool
      .traceUnminedTx({
        tx: bulkTx.toBuffer(),
        globals,
        atBlock,
        options: opcodes ? { opcodes: { maxSteps: 10_000_000, maxBytes: 2 ** 31 } } : {},
      })
      .then((a) => {
        if (a.kind !== 'traced') throw new Error(`trace refused: ${a.message}`);
        return {
          reverted: a.trace.executionResult !== 'success',
          l2Gas: a.trace.gasUsed.totalGas.l2Gas,
          steps: a.trace.instructionCount,
        };
      }),
};
try {
  const times = { plain: [], traced: [], opcodes: [] };
  const reference = await POOL_MODES.plain();
  if (reference.reverted) throw new Error('bulk_testing reverted in the worker');
  let steps = 0;
  for (let k = 0; k < WARMUP + ITERATIONS; k++) {
    for (const mode of ['plain', 'traced', 'opcodes']) {
      const t = performance.now();
      const r = await (mode === 'plain' ? POOL_MODES.plain() : POOL_MODES.traced(mode === 'opcodes'));
      const ms = performance.now() - t;
      if (r.reverted !== reference.reverted || r.l2Gas !== reference.l2Gas) {
        throw new Error(`workers: the ${mode} run differs from the simulation`);
      }
      if (mode === 'opcodes') steps = r.steps;
      if (k >= WARMUP) times[mode].push(ms);
    }
  }
  addFigures(
    'workers, AvmTest bulk_testing tx',
    times,
    steps,
    { traced: 'nodeDev_traceCall job', opcodes: 'traceCall job with opcodes' },
    'node_simulatePublicCalls job, same tx and block',
  );
} finally {
  await pool.stop();
  chain.db.close();
  rmSync(dir, { recursive: true, force: true });
}

benchResult('trace', figures, {
  method: `median of ${ITERATIONS} interleaved runs per mode, after ${WARMUP} warm-up runs`,
});
