/**
 * The C++ half of bench/avm: runs inside the aztec-reference root (a Debian trixie root where `@aztec/native`
 * loads; see bench/avm/cpp-baseline.js, which starts it), never on the host.
 *
 * It reads a job written by the bench (the world state, contracts and globals the bench's harness resolved, the
 * very Tx bytes both of the bench's sides ran, and what our public processor produced for each), builds that
 * state twice on Aztec 4.1.2's C++ world state (NativeWorldStateService, one fork per simulator), and runs each
 * tx through 4.1.2's TypeScript PublicTxSimulator and its C++ CppPublicTxSimulator (what 4.1.2's sequencer runs),
 * interleaved, with the sequencer's block-building configuration. Each side's TxEffect bytes, four gas figures
 * and revert code must equal ours before any time is written. A tx may come with a doubled twin (its calls and
 * the next timed tx's, which ours processed too): that runs first on both sides and is undone, checked the same
 * way. Times are wall clock of `simulate` alone.
 *
 *   node cpp-simulator.mjs <job.json> <result.json>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { BackendType, Barretenberg, BarretenbergSync } from '@aztec/bb.js';
import { BlockNumber, SlotNumber } from '@aztec/foundation/branded-types';
import { Fr } from '@aztec/foundation/curves/bn254';
import { EthAddress } from '@aztec/foundation/eth-address';
import { CppPublicTxSimulator, PublicContractsDB } from '@aztec/simulator/server';
import { PublicDataWrite, PublicSimulatorConfig } from '@aztec/stdlib/avm';
import { AztecAddress } from '@aztec/stdlib/aztec-address';
import { GasFees } from '@aztec/stdlib/gas';
import { PublicKeys } from '@aztec/stdlib/keys';
import { MerkleTreeId } from '@aztec/stdlib/trees';
import { GlobalVariables, makeProcessedTxFromTxWithPublicCalls, Tx } from '@aztec/stdlib/tx';
import { NativeWorldStateService } from '@aztec/world-state/native';

const [jobPath, resultPath] = process.argv.slice(2);
const job = JSON.parse(readFileSync(jobPath, 'utf8'));

// The TypeScript simulator's hashes and Grumpkin arithmetic go through bb.js: WebAssembly, as in the bench's
// host process (bb.js's native backend would start helper processes, and the comparison is about the AVM).
Barretenberg.prototype.initSRSChonk = async () => {};
await Barretenberg.initSingleton({ backend: BackendType.Wasm });
await BarretenbergSync.initSingleton({ backend: BackendType.Wasm });

// PublicTxSimulator is not among @aztec/simulator's exports: it is the file beside the C++ one.
const { PublicTxSimulator } = await import(
  new URL('./public/public_tx_simulator/public_tx_simulator.js', import.meta.resolve('@aztec/simulator/server')).href
);

const fr = (hex) => new Fr(BigInt(hex));
const g = job.world.globals;
const globals = new GlobalVariables(
  fr(g.chainId),
  fr(g.version),
  BlockNumber(Number(g.blockNumber)),
  SlotNumber(Number(g.slotNumber)),
  BigInt(g.timestamp),
  EthAddress.fromField(fr(g.coinbase)),
  new AztecAddress(fr(g.feeRecipient)),
  new GasFees(BigInt(g.feePerDaGas), BigInt(g.feePerL2Gas)),
);

/** The world's contracts as 4.1.2's archiver serves them to PublicContractsDB (function names by selector). */
function contractDataSource() {
  const instances = new Map();
  const classes = new Map();
  const names = new Map();
  for (const c of job.world.contracts) {
    const classId = fr(c.classId);
    instances.set(BigInt(c.address), {
      version: 1,
      salt: Fr.ZERO,
      deployer: new AztecAddress(fr(c.deployer)),
      currentContractClassId: classId,
      originalContractClassId: classId,
      initializationHash: fr(c.initializationHash),
      publicKeys: PublicKeys.default(),
      address: new AztecAddress(fr(c.address)),
    });
    classes.set(BigInt(c.classId), {
      id: classId,
      version: 1,
      artifactHash: Fr.ZERO,
      privateFunctionsRoot: Fr.ZERO,
      packedBytecode: Buffer.from(c.packedBytecode, 'base64'),
      privateFunctions: [],
      utilityFunctions: [],
    });
    for (const [selector, name] of c.functionNames) names.set(BigInt(selector), name);
  }
  return {
    getContract: (address) => Promise.resolve(instances.get(address.toBigInt())),
    getContractClass: (id) => Promise.resolve(classes.get(id.toBigInt())),
    getBytecodeCommitment: () => Promise.resolve(undefined),
    getDebugFunctionName: (_address, selector) => Promise.resolve(names.get(selector.toField().toBigInt())),
  };
}

/** A fork of a fresh C++ world state holding the job's state (genesis already holds some nullifiers). */
async function forkWithState(worldState) {
  const fork = await worldState.fork();
  const w = job.world;
  const nullifiers = w.nullifiers.map(fr);
  const found = await fork.findLeafIndices(
    MerkleTreeId.NULLIFIER_TREE,
    nullifiers.map((n) => n.toBuffer()),
  );
  const missing = nullifiers.filter((_, i) => found[i] === undefined);
  if (missing.length > 0)
    await fork.sequentialInsert(
      MerkleTreeId.NULLIFIER_TREE,
      missing.map((n) => n.toBuffer()),
    );
  if (w.publicData.length > 0)
    await fork.sequentialInsert(
      MerkleTreeId.PUBLIC_DATA_TREE,
      w.publicData.map((d) => new PublicDataWrite(fr(d.leafSlot), fr(d.value)).toBuffer()),
    );
  if (w.noteHashes.length > 0) await fork.appendLeaves(MerkleTreeId.NOTE_HASH_TREE, w.noteHashes.map(fr));
  if (w.l1ToL2Messages.length > 0)
    await fork.appendLeaves(MerkleTreeId.L1_TO_L2_MESSAGE_TREE, w.l1ToL2Messages.map(fr));
  return fork;
}

// The configuration 4.1.2's sequencer builds blocks with (createPublicTxSimulatorForBlockBuilding).
const config = PublicSimulatorConfig.from({
  skipFeeEnforcement: false,
  collectDebugLogs: false,
  collectHints: false,
  collectPublicInputs: false,
  collectStatistics: false,
  collectCallMetadata: false,
});

const worldState = await NativeWorldStateService.tmp();
const sides = [];
for (const [name, Simulator] of [
  ['ts', PublicTxSimulator],
  ['cpp', CppPublicTxSimulator],
]) {
  const fork = await forkWithState(worldState);
  // One contracts DB and one simulator for the block, as 4.1.2's public processor keeps.
  const simulator = new Simulator(fork, new PublicContractsDB(contractDataSource()), globals, config);
  sides.push({ name, fork, simulator });
}

/** What of a result bench/avm compares: the TxEffect bytes, the four gas figures and the revert code. */
function observed(stdTx, r) {
  const processed = makeProcessedTxFromTxWithPublicCalls(
    stdTx,
    globals,
    undefined,
    r.publicTxEffect,
    r.gasUsed,
    r.revertCode,
    r.findRevertReason(),
  );
  const gas = Object.fromEntries(
    ['totalGas', 'teardownGas', 'publicGas', 'billedGas'].map((k) => [
      k,
      { daGas: processed.gasUsed[k].daGas, l2Gas: processed.gasUsed[k].l2Gas },
    ]),
  );
  return { txEffect: processed.txEffect.toBuffer().toString('hex'), gas, revertCode: processed.revertCode.getCode() };
}

/** What differs between two observed results (empty when they agree). */
function differences(a, b) {
  const diffs = [];
  if (a.txEffect !== b.txEffect) diffs.push('TxEffect bytes differ');
  for (const [key, x] of Object.entries(a.gas)) {
    const y = b.gas[key];
    if (x.daGas !== y.daGas || x.l2Gas !== y.l2Gas)
      diffs.push(`${key} ${x.l2Gas}/${x.daGas} against ${y.l2Gas}/${y.daGas}`);
  }
  if (a.revertCode !== b.revertCode) diffs.push(`revert code ${a.revertCode} against ${b.revertCode}`);
  return diffs;
}

/** Runs `stdTx` on one side inside a fork checkpoint (as 4.1.2's public processor takes, outside the timing). */
async function run(side, stdTx, keep) {
  await side.fork.createCheckpoint();
  const started = performance.now();
  const r = await side.simulator.simulate(stdTx);
  const ms = performance.now() - started;
  if (keep) await side.fork.commitCheckpoint();
  else await side.fork.revertCheckpoint();
  return { ms, observed: observed(stdTx, r) };
}

const times = [];
const doubledTimes = [];
for (const [k, t] of job.txs.entries()) {
  // Alternate which side goes first, so that neither always runs on caches the other warmed.
  const order = k % 2 === 0 ? sides : [...sides].reverse();
  if (t.doubled !== undefined) {
    // The tx's calls followed by the next timed tx's, on the state before the tx, then undone: its time less
    // the tx's is what one more call costs inside a tx. It must not revert, and both sides must agree with ours.
    const doubled = Tx.fromBuffer(Buffer.from(t.doubled.tx, 'hex'));
    const ms = {};
    for (const side of order) {
      const r = await run(side, doubled, false);
      ms[side.name] = r.ms;
      const diffs = differences(r.observed, t.doubled.expected);
      if (r.observed.revertCode !== 0) diffs.push('it reverted');
      if (diffs.length > 0)
        throw new Error(`doubled tx ${k}: 4.1.2's ${side.name} simulator and ours differ:\n${diffs.join('\n')}`);
    }
    doubledTimes.push({ index: k, ...ms });
  }
  const stdTx = Tx.fromBuffer(Buffer.from(t.tx, 'hex'));
  const ms = {};
  for (const side of order) {
    const r = await run(side, stdTx, true);
    ms[side.name] = r.ms;
    const diffs = differences(r.observed, t.expected);
    if (diffs.length > 0)
      throw new Error(`tx ${k}: 4.1.2's ${side.name} simulator and ours differ:\n${diffs.join('\n')}`);
  }
  times.push(ms);
}

for (const side of sides) await side.fork.close();
await worldState.close();
writeFileSync(resultPath, JSON.stringify({ node: process.version, times, doubledTimes }));
// bb.js keeps its WebAssembly workers alive: end here.
process.exit(0);
