/**
 * Aztec 4.1.2's production baseline for bench/avm: its C++ simulator (`@aztec/native`), which needs glibc 2.38+
 * and so runs only inside the aztec-reference root (../shared/tools/aztec-reference/setup.sh builds it, by
 * default at /var/tmp/aztec-ref; AZTEC_REFERENCE_ROOT names another). The bench hands it the txs its harness
 * built and what our public processor made of each; bench/avm/cpp-simulator.mjs runs them there, 4.1.2's
 * TypeScript and C++ simulators interleaved in one process, and checks both against ours.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const hex = (v) => `0x${v.toString(16)}`;

/** Why the C++ rows cannot be measured here, or undefined when they can. */
export function cppBaselineUnavailable() {
  const root = process.env.AZTEC_REFERENCE_ROOT ?? '/var/tmp/aztec-ref';
  const missing = ['inchroot.sh', 'trixie/usr/bin/env', 'aztec/node_modules/@aztec/native/package.json', 'work'].find(
    (p) => !existsSync(`${root}/${p}`),
  );
  if (missing !== undefined)
    return (
      `the aztec-reference root is not built at ${root} (no ${missing}; build it with ` +
      '../shared/tools/aztec-reference/setup.sh, or name another with AZTEC_REFERENCE_ROOT)'
    );
  if (process.getuid?.() !== 0) return 'the aztec-reference root is entered with unshare and chroot, which need root';
  return undefined;
}

/** The world as plain JSON: bigints as hex, bytecode as base64. */
function worldJson(world) {
  return {
    contracts: world.contracts.map((c) => ({
      address: hex(c.address),
      classId: hex(c.classId),
      packedBytecode: Buffer.from(c.packedBytecode).toString('base64'),
      deployer: hex(c.deployer ?? 0n),
      initializationHash: hex(c.initializationHash ?? 0n),
      functionNames: [...(c.functionNames ?? [])],
    })),
    nullifiers: world.nullifiers.map(hex),
    publicData: world.publicData.map((d) => ({ leafSlot: hex(d.leafSlot), value: hex(d.value) })),
    noteHashes: world.noteHashes.map(hex),
    l1ToL2Messages: world.l1ToL2Messages.map(hex),
    globals: Object.fromEntries(Object.entries(world.globals).map(([k, v]) => [k, String(v)])),
  };
}

/** What bench/avm compares of our processed tx: its TxEffect bytes, four gas figures and revert code. */
function observed(processed) {
  const gas = Object.fromEntries(
    ['totalGas', 'teardownGas', 'publicGas', 'billedGas'].map((k) => [
      k,
      { daGas: processed.gasUsed[k].daGas, l2Gas: processed.gasUsed[k].l2Gas },
    ]),
  );
  return { txEffect: processed.txEffect.toBuffer().toString('hex'), gas, revertCode: processed.revertCode };
}

/**
 * Runs the block's txs (`runs`, from runBlockDifferential, ours and the TypeScript oracle already agreeing) on
 * 4.1.2's TypeScript and C++ simulators in the reference root, each tx's probe (a doubled tx: its calls and the
 * next timed tx's) first on the same state and undone. Returns the root's Node version, per tx the wall time of
 * each simulator's `simulate` (`times`), and the same for the probes (`doubledTimes`, with their tx's `index`);
 * throws if either simulator's TxEffect, gas or revert code differs from ours on any of them.
 */
export function runCppBaseline(runs) {
  const root = realpathSync(process.env.AZTEC_REFERENCE_ROOT ?? '/var/tmp/aztec-ref');
  // The root sees only its own files and work/ (bind-mounted at the same path): the job goes there, removed after.
  const dir = mkdtempSync(`${root}/work/bench-avm-`);
  try {
    copyFileSync(fileURLToPath(new URL('./cpp-simulator.mjs', import.meta.url)), `${dir}/cpp-simulator.mjs`);
    const txs = runs.map((run) => ({
      tx: run.stdTx.toBuffer().toString('hex'),
      expected: observed(run.ours.processed),
      doubled:
        run.probeStdTx === undefined
          ? undefined
          : { tx: run.probeStdTx.toBuffer().toString('hex'), expected: observed(run.ours.probe.processed) },
    }));
    writeFileSync(`${dir}/job.json`, JSON.stringify({ world: worldJson(runs[0].world), txs }));
    // Its output goes to our stderr: stdout carries only the bench's result line. The C++ world state's
    // temporary directory goes into the job's too.
    const child = spawnSync(
      `${root}/inchroot.sh`,
      [`TMPDIR=${dir} node ${dir}/cpp-simulator.mjs ${dir}/job.json ${dir}/result.json`],
      { stdio: ['ignore', 2, 2] },
    );
    if (child.status !== 0)
      throw new Error(
        `the C++ baseline failed in ${root} (exit ${child.status ?? child.signal}): see its output above`,
      );
    return JSON.parse(readFileSync(`${dir}/result.json`, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
