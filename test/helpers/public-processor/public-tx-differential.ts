/**
 * One public tx run twice on the same state: by Aztec 4.1.2's TypeScript `PublicTxSimulator` (the oracle, on the
 * in-memory fork of test/helpers/avm) and by our public processor (on a real SQLite world-state fork and chain
 * store). The tx is built by Aztec's own `createTxForPublicCalls` and handed to our processor through its binary
 * form, so both sides process the very same bytes.
 */
import { DEFAULT_TEARDOWN_DA_GAS_LIMIT, DEFAULT_TEARDOWN_L2_GAS_LIMIT } from '@aztec/constants';
import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { EthAddress as StdEthAddress } from '@aztec/foundation/eth-address';
import { jsonStringify } from '@aztec/foundation/json-rpc';
import { protocolContractNames } from '@aztec/protocol-contracts';
import { computeFeePayerBalanceStorageSlot } from '@aztec/protocol-contracts/fee-juice';
import { BundledProtocolContractsProvider } from '@aztec/protocol-contracts/providers/bundle';
import { AztecAddress as StdAztecAddress } from '@aztec/stdlib/aztec-address';
import type { ContractDataSource } from '@aztec/stdlib/contract';
import { Gas as StdGas } from '@aztec/stdlib/gas';
import { computeCalldataHash } from '@aztec/stdlib/hash';
import { PublicCallRequest as StdPublicCallRequest } from '@aztec/stdlib/kernel';
import { L2ToL1Message } from '@aztec/stdlib/messaging';
import {
  makeProcessedTxFromTxWithPublicCalls,
  PublicCallRequestWithCalldata,
  PublicSimulationOutput,
  type Tx as StdTx,
} from '@aztec/stdlib/tx';
import { expect } from 'vitest';
import { createTxForPublicCalls } from '../../../node_modules/@aztec/simulator/dest/public/fixtures/utils.js';
import { PublicContractsDB } from '../../../node_modules/@aztec/simulator/dest/public/public_db_sources.js';
import { PublicTxSimulator } from '../../../node_modules/@aztec/simulator/dest/public/public_tx_simulator/public_tx_simulator.js';
import { AztecAddress } from '../../../src/core/aztec-address.js';
import { GlobalVariables } from '../../../src/core/block/global-variables.js';
import { ContractClassPublic } from '../../../src/core/contract/contract-class-public.js';
import { ContractInstanceUpdatedEvent } from '../../../src/core/contract/contract-instance-updated-event.js';
import { ContractInstanceWithAddress } from '../../../src/core/contract/contract-instance-with-address.js';
import { PublicKeys } from '../../../src/core/contract/public-keys.js';
import { EthAddress } from '../../../src/core/eth-address.js';
import { Fr } from '../../../src/core/fr.js';
import { GasFees } from '../../../src/core/gas/gas-fees.js';
import { computeFeePayerBalanceLeafSlot } from '../../../src/core/hash/siloing.js';
import { PublicSimulationOutput as OurPublicSimulationOutput } from '../../../src/core/tx/public-simulation-output.js';
import { Tx } from '../../../src/core/tx/tx.js';
import { TxEffect } from '../../../src/core/tx/tx-effect.js';
import { applyTxEffectToFork } from '../../../src/daemon/public-processor/apply-tx-effect.js';
import { BlockContracts } from '../../../src/daemon/public-processor/block-contracts.js';
import { chainStoreContracts } from '../../../src/daemon/public-processor/chain-store-contracts.js';
import { toPublicSimulationOutput } from '../../../src/daemon/public-processor/public-simulation-output.js';
import { type ProcessedPublicTx, processPublicTx } from '../../../src/daemon/public-processor/public-tx-processor.js';
import { ChainStore } from '../../../src/daemon/store/chain-store.js';
import { openNodeDatabase } from '../../../src/daemon/store/node-database.js';
import { MerkleTreeId } from '../../../src/daemon/world-state/merkle-tree-id.js';
import { WorldState } from '../../../src/daemon/world-state/world-state.js';
import type { WorldStateFork } from '../../../src/daemon/world-state/world-state-fork.js';
import { initOracleCrypto } from '../avm/oracle-crypto.js';
import type { OracleFork } from '../avm/oracle-fork.js';
import {
  type ContractDescription,
  DescribedContractDataSource,
  type GlobalsDescription,
  isProtocolAddress,
  oracleForkFor,
  type ResolvedWorld,
  resolveWorld,
  toGlobalVariables,
  type WorldDescription,
} from '../avm/world-description.js';

/** The fee payer the scenarios use (fund it with `feePayerBalance`). */
export const FEE_PAYER = 0xfee9a7e7n;

/** Private gas as the kernel reports it: what private used plus the teardown limits createTxForPublicCalls sets. */
export function privateGasWithTeardown(daGas: number, l2Gas: number): { daGas: number; l2Gas: number } {
  return { daGas: daGas + DEFAULT_TEARDOWN_DA_GAS_LIMIT, l2Gas: l2Gas + DEFAULT_TEARDOWN_L2_GAS_LIMIT };
}

/** The FeeJuice storage entry giving FEE_PAYER `balance`. */
export async function feePayerBalance(balance: bigint): Promise<{ contract: bigint; slot: bigint; value: bigint }> {
  await initOracleCrypto();
  const slot = await computeFeePayerBalanceStorageSlot(StdAztecAddress.fromBigInt(FEE_PAYER));
  return { contract: 5n, slot: slot.toBigInt(), value: balance };
}

export interface EnqueuedCall {
  address: bigint;
  sender: bigint;
  calldata: bigint[];
  isStaticCall?: boolean;
}

export interface PrivateSideEffects {
  nullifiers?: bigint[];
  noteHashes?: bigint[];
  l2ToL1Msgs?: { recipient: bigint; content: bigint; contract: bigint }[];
}

const scopedMessages = (m: PrivateSideEffects['l2ToL1Msgs']) =>
  (m ?? []).map((x) =>
    new L2ToL1Message(StdEthAddress.fromField(new StdFr(x.recipient)), new StdFr(x.content)).scope(
      StdAztecAddress.fromBigInt(x.contract),
    ),
  );

export interface TxScenario {
  world: WorldDescription;
  /** At least one nullifier: the tx's first nullifier. */
  nonRevertible: PrivateSideEffects & { nullifiers: bigint[] };
  revertible?: PrivateSideEffects;
  setup?: EnqueuedCall[];
  appLogic?: EnqueuedCall[];
  teardown?: EnqueuedCall;
  /** Zero (the default) only with skipFeeEnforcement; a non-zero payer's max fees are 10 per gas. */
  feePayer?: bigint;
  gasUsedByPrivate?: { daGas: number; l2Gas: number };
  skipFeeEnforcement?: boolean;
  /** Record DEBUGLOG output (node_simulatePublicCalls does). */
  collectDebugLogs?: boolean;
  /**
   * Upgrades scheduled earlier through the instance registry: our chain store indexes them as its event would,
   * the oracle's data source resolves the current class as 4.1.2's archiver does. The registry's delayed storage
   * must be in `world.storage` (the AVM checks the class against it).
   */
  upgrades?: { address: bigint; newClassId: bigint; timestampOfChange: bigint; publishedAt: bigint }[];
  /** Changes the built tx before both sides see it (e.g. Aztec's addNewContractClassToTx). */
  extend?: (tx: StdTx) => Promise<void>;
}

/** What the oracle answered: its processed tx, or the error it threw (an invalid tx). */
/** How many leaves a tx added to the note hash, nullifier and public data trees of its fork. */
export interface TreeGrowth {
  noteHashes: bigint;
  nullifiers: bigint;
  publicData: bigint;
}

const GROWING_TREES = [MerkleTreeId.NOTE_HASH_TREE, MerkleTreeId.NULLIFIER_TREE, MerkleTreeId.PUBLIC_DATA_TREE];

function growth(before: bigint[], after: bigint[]): TreeGrowth {
  const d = after.map((a, i) => a - (before[i] as bigint));
  return { noteHashes: d[0] as bigint, nullifiers: d[1] as bigint, publicData: d[2] as bigint };
}

export type OracleResult =
  | {
      ok: true;
      processed: ReturnType<typeof makeProcessedTxFromTxWithPublicCalls>;
      returnValues: bigint[][];
      /** What 4.1.2's node_simulatePublicCalls would answer for it. */
      output: PublicSimulationOutput;
      fork: OracleFork;
      treeGrowth: TreeGrowth;
      /** Wall time of PublicTxSimulator.simulate (bench/avm reads it). */
      ms: number;
    }
  | { ok: false; error: string };

export type OursResult =
  | {
      ok: true;
      processed: ProcessedPublicTx;
      fork: WorldStateFork;
      treeGrowth: TreeGrowth;
      /** Wall time of processPublicTx, and of applying its effect to the fork after it (bench/avm reads them). */
      ms: number;
      applyMs: number;
      /** The probe given for this tx (runBlockDifferential), processed on the same state, not applied. */
      probe?: { processed: ProcessedPublicTx; ms: number };
    }
  | { ok: false; error: string };

export interface DifferentialRun {
  stdTx: StdTx;
  tx: Tx;
  /** The probe's tx, when one was given for this tx. */
  probeStdTx?: StdTx;
  world: ResolvedWorld;
  oracle: OracleResult;
  ours: OursResult;
}

async function callRequest(c: EnqueuedCall): Promise<PublicCallRequestWithCalldata> {
  const calldata = c.calldata.map((v) => new StdFr(v));
  return new PublicCallRequestWithCalldata(
    new StdPublicCallRequest(
      StdAztecAddress.fromBigInt(c.sender),
      StdAztecAddress.fromBigInt(c.address),
      c.isStaticCall ?? false,
      await computeCalldataHash(calldata),
    ),
    calldata,
  );
}

async function buildStdTx(s: TxScenario, world: ResolvedWorld): Promise<StdTx> {
  const stdTx = await createTxForPublicCalls(
    {
      nonRevertible: {
        nullifiers: s.nonRevertible.nullifiers.map((v) => new StdFr(v)),
        noteHashes: (s.nonRevertible.noteHashes ?? []).map((v) => new StdFr(v)),
        l2ToL1Msgs: scopedMessages(s.nonRevertible.l2ToL1Msgs),
      },
      revertible: {
        nullifiers: (s.revertible?.nullifiers ?? []).map((v) => new StdFr(v)),
        noteHashes: (s.revertible?.noteHashes ?? []).map((v) => new StdFr(v)),
        l2ToL1Msgs: scopedMessages(s.revertible?.l2ToL1Msgs),
      },
    },
    await Promise.all((s.setup ?? []).map(callRequest)),
    await Promise.all((s.appLogic ?? []).map(callRequest)),
    s.teardown ? await callRequest(s.teardown) : undefined,
    StdAztecAddress.fromBigInt(s.feePayer ?? 0n),
    s.gasUsedByPrivate ? new StdGas(s.gasUsedByPrivate.daGas, s.gasUsedByPrivate.l2Gas) : StdGas.empty(),
    toGlobalVariables(world.globals),
  );
  await s.extend?.(stdTx);
  return stdTx;
}

export async function runTxDifferential(s: TxScenario): Promise<DifferentialRun> {
  return (await runBlockDifferential([s]))[0] as DifferentialRun;
}

/**
 * Several txs one after the other on the same state, as a block processes them: the world (state, contracts,
 * upgrades, options) is the first scenario's; each later tx sees what the earlier ones did, the contracts they
 * deployed included. A tx refused by a side leaves that side's state as it was.
 *
 * `probes` (bench/avm) maps a tx's index to another tx that our side processes on the state that tx starts from,
 * just before it, timed and never applied (the oracle does not run it).
 */
export async function runBlockDifferential(
  scenarios: TxScenario[],
  probes = new Map<number, TxScenario>(),
): Promise<DifferentialRun[]> {
  await initOracleCrypto();
  const first = scenarios[0] as TxScenario;
  const world = await resolveWorld(first.world);
  // 4.1.2's archiver serves the six protocol contracts from genesis; our chain store serves them from its data file.
  world.contracts.push(...(await protocolContractDescriptions()));
  const stdTxs: StdTx[] = [];
  for (const s of scenarios) stdTxs.push(await buildStdTx(s, world));
  const txs = stdTxs.map((t) => Tx.fromBuffer(t.toBuffer()));
  const probeStdTxs = new Map<number, StdTx>();
  for (const [k, s] of probes) probeStdTxs.set(k, await buildStdTx(s, world));
  const probeTxs = new Map([...probeStdTxs].map(([k, t]) => [k, Tx.fromBuffer(t.toBuffer())]));
  const options = {
    skipFeeEnforcement: first.skipFeeEnforcement ?? false,
    collectDebugLogs: first.collectDebugLogs ?? false,
  };
  const upgrades = first.upgrades ?? [];
  const oracle = await runOracle(world, upgrades, stdTxs, options);
  const ours = runOurs(world, upgrades, txs, options, probeTxs);
  return scenarios.map((_, k) => ({
    stdTx: stdTxs[k] as StdTx,
    probeStdTx: probeStdTxs.get(k),
    tx: txs[k] as Tx,
    world,
    oracle: oracle[k] as OracleResult,
    ours: ours[k] as OursResult,
  }));
}

interface RunOptions {
  skipFeeEnforcement: boolean;
  collectDebugLogs: boolean;
}

type Upgrade = NonNullable<TxScenario['upgrades']>[number];

async function runOracle(
  world: ResolvedWorld,
  upgrades: Upgrade[],
  stdTxs: StdTx[],
  options: RunOptions,
): Promise<OracleResult[]> {
  const fork = oracleForkFor(world);
  // One contracts DB for the block, as 4.1.2's public processor keeps.
  const contractsDB = new PublicContractsDB(archiverLikeDataSource(world, upgrades));
  const globals = toGlobalVariables(world.globals);
  const results: OracleResult[] = [];
  for (const stdTx of stdTxs) {
    const simulator = new PublicTxSimulator(fork.asMerkleTreeWriteOperations(), contractsDB, globals, options);
    const sizes = () => Promise.all(GROWING_TREES.map(async (id) => (await fork.getTreeInfo(id)).size));
    const before = await sizes();
    await fork.createCheckpoint();
    try {
      const started = performance.now();
      const r = await simulator.simulate(stdTx);
      const ms = performance.now() - started;
      await fork.commitCheckpoint();
      const processed = makeProcessedTxFromTxWithPublicCalls(
        stdTx,
        globals,
        undefined,
        r.publicTxEffect,
        r.gasUsed,
        r.revertCode,
        r.findRevertReason(),
      );
      const appLogic = r.getAppLogicReturnValues();
      const returnValues = appLogic.map((v) => (v.values ?? []).map((f) => f.toBigInt()));
      const output = new PublicSimulationOutput(
        processed.revertReason,
        processed.globalVariables,
        processed.txEffect,
        appLogic,
        processed.gasUsed,
        r.logs ?? [],
      );
      results.push({ ok: true, processed, returnValues, output, fork, treeGrowth: growth(before, await sizes()), ms });
    } catch (err) {
      await fork.revertCheckpoint();
      results.push({ ok: false, error: (err as Error).message });
    }
  }
  return results;
}

/**
 * The world's contracts as 4.1.2's archiver serves them: function names are kept by selector only (registered
 * signatures), so a contract deployed by the tx itself is named too.
 */
function archiverLikeDataSource(world: ResolvedWorld, upgrades: Upgrade[]): ContractDataSource {
  const source = new DescribedContractDataSource(world.contracts).asContractDataSource();
  const names = new Map<bigint, string>();
  for (const c of world.contracts)
    for (const [selector, name] of c.functionNames ?? []) names.set(BigInt(selector), name);
  return {
    ...source,
    getContract: async (address: StdAztecAddress, timestamp: bigint) => {
      const instance = await source.getContract(address, timestamp);
      const upgrade = upgrades.find((u) => u.address === address.toBigInt() && u.publishedAt <= timestamp);
      if (!instance || !upgrade || timestamp < upgrade.timestampOfChange) return instance;
      return { ...instance, currentContractClassId: new StdFr(upgrade.newClassId) };
    },
    getContractClass: source.getContractClass.bind(source),
    getBytecodeCommitment: source.getBytecodeCommitment.bind(source),
    getDebugFunctionName: (_address: unknown, selector: { toField(): StdFr }) =>
      Promise.resolve(names.get(selector.toField().toBigInt())),
  } as ContractDataSource;
}

async function protocolContractDescriptions(): Promise<ContractDescription[]> {
  const provider = new BundledProtocolContractsProvider();
  return Promise.all(
    protocolContractNames.map(async (name) => {
      const c = await provider.getProtocolContractArtifact(name);
      return {
        address: c.address.toBigInt(),
        classId: c.contractClass.id.toBigInt(),
        packedBytecode: c.contractClass.packedBytecode,
        deployer: c.instance.deployer.toBigInt(),
        initializationHash: c.instance.initializationHash.toBigInt(),
      };
    }),
  );
}

export function ourGlobals(g: GlobalsDescription): GlobalVariables {
  return new GlobalVariables(
    new Fr(g.chainId),
    new Fr(g.version),
    g.blockNumber,
    g.slotNumber,
    g.timestamp,
    EthAddress.fromBigInt(g.coinbase),
    new AztecAddress(g.feeRecipient),
    new GasFees(g.feePerDaGas, g.feePerL2Gas),
  );
}

/** Our side: a fresh node database, the world's state written into a world-state fork and the chain store. */
function runOurs(
  world: ResolvedWorld,
  upgrades: Upgrade[],
  txs: Tx[],
  options: RunOptions,
  probes: Map<number, Tx>,
): OursResult[] {
  const db = openNodeDatabase(null);
  const worldState = WorldState.open(db);
  const store = new ChainStore(db);
  // Protocol contracts are not written: the store must serve them by itself.
  for (const c of world.contracts.filter((c) => !isProtocolAddress(c.address))) {
    const classId = new Fr(c.classId);
    store.contractClasses.insert(new ContractClassPublic(classId, Fr.ZERO, Buffer.from(c.packedBytecode), Fr.ZERO), 0);
    store.contractInstances.insert(
      new ContractInstanceWithAddress(
        Fr.ZERO,
        new AztecAddress(c.deployer ?? 0n),
        classId,
        classId,
        new Fr(c.initializationHash ?? 0n),
        PublicKeys.default(),
        new AztecAddress(c.address),
      ),
      0,
    );
    // 4.1.2 names functions by selector only; the oracle's data source is given the same names.
    store.functionSignatures.putAll([...(c.functionNames ?? [])]);
  }
  upgrades.forEach((u, position) => {
    const event = new ContractInstanceUpdatedEvent(new AztecAddress(u.address), 0n, u.newClassId, u.timestampOfChange);
    store.contractInstanceUpdates.insert(event, { blockNumber: 1, blockTimestamp: u.publishedAt, position });
  });
  const fork = worldState.fork();
  // Genesis already holds some nullifiers and slots; only add what it lacks.
  const missing = world.nullifiers.filter(
    (n) => fork.findLeafIndices(MerkleTreeId.NULLIFIER_TREE, [n])[0] === undefined,
  );
  if (missing.length > 0) fork.insertNullifiers(missing);
  if (world.publicData.length > 0) fork.writePublicData(world.publicData);
  // The oracle's fork holds the world's (padded) note hashes and L1-to-L2 messages from the start: so does ours,
  // or NOTEHASHEXISTS and L1TOL2MSGEXISTS would find leaves on one side only.
  if (world.noteHashes.length > 0) fork.appendNoteHashes(world.noteHashes);
  if (world.l1ToL2Messages.length > 0) fork.appendL1ToL2Messages(world.l1ToL2Messages);
  const contracts = new BlockContracts(chainStoreContracts(store));
  const sizes = () => GROWING_TREES.map((id) => fork.getTreeInfo(id).size);
  const globals = ourGlobals(world.globals);
  return txs.map((tx, k): OursResult => {
    const before = sizes();
    try {
      // processPublicTx only reads the fork: the probe sees the state the tx starts from. It goes first, as
      // bench/avm runs it on 4.1.2's simulators (where it is undone before the tx).
      const probeTx = probes.get(k);
      let probe: { processed: ProcessedPublicTx; ms: number } | undefined;
      if (probeTx !== undefined) {
        const probeStarted = performance.now();
        probe = { processed: processPublicTx({ state: fork, contracts, globals, tx: probeTx, options }), ms: 0 };
        probe.ms = performance.now() - probeStarted;
      }
      const started = performance.now();
      const processed = processPublicTx({ state: fork, contracts, globals, tx, options });
      const processedAt = performance.now();
      applyTxEffectToFork(fork, processed.txEffect);
      const applyMs = performance.now() - processedAt;
      contracts.addTxEffect(processed.txEffect);
      return {
        ok: true,
        processed,
        fork,
        treeGrowth: growth(before, sizes()),
        ms: processedAt - started,
        applyMs,
        probe,
      };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  });
}

/**
 * Every observable result of both sides must agree: the TxEffect byte for byte, the four gas figures, the revert
 * code, reason and failing functions, the app-logic return values, node_simulatePublicCalls' answer (and the
 * official schema parses ours), and the fee payer's balance in the fork afterwards. Returns ours for
 * scenario-specific checks (undefined when both sides refused the tx, with the same message).
 */
export function expectSameProcessing(run: DifferentialRun, feePayer = FEE_PAYER) {
  const { oracle, ours } = run;
  if (!oracle.ok || !ours.ok) {
    expect({ ours: ours.ok ? 'processed' : ours.error }).toEqual({ ours: oracle.ok ? 'processed' : oracle.error });
    return undefined;
  }
  const theirs = oracle.processed;
  const mine = ours.processed;
  expect(mine.txEffect.toJSON()).toEqual(TxEffect.fromBuffer(theirs.txEffect.toBuffer()).toJSON());
  expect(mine.txEffect.toBuffer().equals(theirs.txEffect.toBuffer())).toBe(true);
  const gas = (g: { daGas: number; l2Gas: number }) => ({ daGas: g.daGas, l2Gas: g.l2Gas });
  expect({
    totalGas: gas(mine.gasUsed.totalGas),
    teardownGas: gas(mine.gasUsed.teardownGas),
    publicGas: gas(mine.gasUsed.publicGas),
    billedGas: gas(mine.gasUsed.billedGas),
  }).toEqual({
    totalGas: gas(theirs.gasUsed.totalGas),
    teardownGas: gas(theirs.gasUsed.teardownGas),
    publicGas: gas(theirs.gasUsed.publicGas),
    billedGas: gas(theirs.gasUsed.billedGas),
  });
  expect(mine.revertCode).toBe(theirs.revertCode.getCode());
  const reason = theirs.revertReason as unknown as
    | {
        originalMessage?: string;
        functionErrorStack?: { contractAddress: { toBigInt(): bigint }; functionName?: string }[];
      }
    | undefined;
  expect(mine.revertReason?.message).toBe(reason?.originalMessage);
  expect(mine.revertReason?.failingFunctions.map((f) => [f.contractAddress, f.functionName])).toEqual(
    reason?.functionErrorStack?.map((f) => [f.contractAddress.toBigInt(), f.functionName]),
  );
  expect(mine.appLogicReturnValues).toEqual(oracle.returnValues);
  // node_simulatePublicCalls: our answer equals 4.1.2's on the wire, and the official client parses it.
  const ourJson = JSON.parse(JSON.stringify(toPublicSimulationOutput(mine)));
  expect(ourJson).toEqual(JSON.parse(jsonStringify(oracle.output)));
  expect(PublicSimulationOutput.schema.safeParse(ourJson).success).toBe(true);
  // Our result codec reads it back unchanged (what a follower or the CLI decodes).
  expect(JSON.parse(JSON.stringify(OurPublicSimulationOutput.fromJSON(ourJson)))).toEqual(ourJson);
  // The effects reached the fork: the fee payer's balance reads the same on both sides.
  // The effects reached the fork: 64 note hash and nullifier slots (padding included), the same new storage slots.
  expect(ours.treeGrowth).toEqual(oracle.treeGrowth);
  expect(ours.treeGrowth.noteHashes).toBe(64n);
  const leafSlot = computeFeePayerBalanceLeafSlot(feePayer);
  expect(ours.fork.getPublicStorageAt(leafSlot)).toBe(oracle.fork.publicDataAt(leafSlot));
  return mine;
}

/** Both sides refuse the tx as invalid, with the same message. */
export function expectBothRefuse(run: DifferentialRun): void {
  const ours = run.ours.ok ? 'processed by ours' : run.ours.error;
  expect(ours).toBe(run.oracle.ok ? 'processed by the oracle' : run.oracle.error);
}

/**
 * The core of expectSameProcessing without vitest, for bench/avm: which of the TxEffect bytes, the gas figures,
 * the revert code and the app-logic return values differ (empty when they all agree).
 */
export function processingDifferences(run: DifferentialRun): string[] {
  const { oracle, ours } = run;
  if (!oracle.ok || !ours.ok) {
    const side = (r: OracleResult | OursResult) => (r.ok ? 'processed' : `refused: ${r.error}`);
    return [`ours ${side(ours)}, the oracle ${side(oracle)}`];
  }
  const theirs = oracle.processed;
  const mine = ours.processed;
  const diffs: string[] = [];
  if (!mine.txEffect.toBuffer().equals(theirs.txEffect.toBuffer())) diffs.push('TxEffect bytes differ');
  for (const key of ['totalGas', 'teardownGas', 'publicGas', 'billedGas'] as const) {
    const a = mine.gasUsed[key];
    const b = theirs.gasUsed[key];
    if (a.daGas !== b.daGas || a.l2Gas !== b.l2Gas)
      diffs.push(`${key}: ours ${a.l2Gas}/${a.daGas}, oracle ${b.l2Gas}/${b.daGas}`);
  }
  if (mine.revertCode !== theirs.revertCode.getCode()) {
    diffs.push(`revert code: ours ${mine.revertCode}, oracle ${theirs.revertCode.getCode()}`);
  }
  if (
    JSON.stringify(mine.appLogicReturnValues.map((v) => v.map(String))) !==
    JSON.stringify(oracle.returnValues.map((v) => v.map(String)))
  ) {
    diffs.push('app-logic return values differ');
  }
  return diffs;
}
