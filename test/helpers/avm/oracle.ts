/**
 * Aztec 4.1.2's TypeScript AVM (`AvmSimulator` over a `PublicPersistableStateManager`) as the differential
 * oracle, at the level of one enqueued call: exactly what `PublicTxSimulator.simulateEnqueuedCallInternal`
 * does, on a fork of the session's state that is merged when the call succeeds and dropped when it reverts (as
 * the tx drops an app-logic call that reverts). The simulator's package entry loads `@aztec/native`, which does
 * not load here, so its files are imported by path; bb.js runs on its WebAssembly backend.
 */
import { Fr } from '@aztec/foundation/curves/bn254';
import { PublicSimulatorConfig } from '@aztec/stdlib/avm';
import { AztecAddress } from '@aztec/stdlib/aztec-address';
import type { SimulationError } from '@aztec/stdlib/errors';
import type { GlobalVariables } from '@aztec/stdlib/tx';
import { AvmContext } from '../../../node_modules/@aztec/simulator/dest/public/avm/avm_context.js';
import type { AvmContractCallResult } from '../../../node_modules/@aztec/simulator/dest/public/avm/avm_contract_call_result.js';
import { AvmExecutionEnvironment } from '../../../node_modules/@aztec/simulator/dest/public/avm/avm_execution_environment.js';
import { AvmMachineState } from '../../../node_modules/@aztec/simulator/dest/public/avm/avm_machine_state.js';
import { AvmSimulator } from '../../../node_modules/@aztec/simulator/dest/public/avm/avm_simulator.js';
import { CallDataArray } from '../../../node_modules/@aztec/simulator/dest/public/avm/calldata.js';
import {
  PublicContractsDB,
  PublicTreesDB,
} from '../../../node_modules/@aztec/simulator/dest/public/public_db_sources.js';
import { SideEffectTrace } from '../../../node_modules/@aztec/simulator/dest/public/side_effect_trace.js';
import { PublicPersistableStateManager } from '../../../node_modules/@aztec/simulator/dest/public/state_manager/state_manager.js';
import { initOracleCrypto } from './oracle-crypto.js';
import type { OracleFork } from './oracle-fork.js';
import { type CallEffects, type CallOutcome, NO_EFFECTS, type RevertReasonSummary } from './outcome.js';
import {
  DescribedContractDataSource,
  oracleForkFor,
  type ResolvedWorld,
  toGlobalVariables,
} from './world-description.js';

/** One enqueued call (or raw program) to run. */
export interface CallRequest {
  address: bigint;
  sender: bigint;
  /** The calldata, function selector first for a contract's `public_dispatch`. */
  calldata: bigint[];
  isStaticCall?: boolean;
  /** Gas allocated to the call (default: what an app-logic call of a default tx gets). */
  gasLimit?: { l2Gas: number; daGas: number };
  transactionFee?: bigint;
}

/** L2: the default tx limit minus the public tx overhead; DA: the default limit minus the tx DA overhead. */
export const DEFAULT_CALL_GAS = { l2Gas: 6_000_000, daGas: 196_512 };
/** The tx's first nullifier, seeding note hash nonces (any value not in the nullifier tree). */
export const DEFAULT_FIRST_NULLIFIER = 0x4200_0000n;

/** The first nullifier of the session's n-th tx (each tx needs its own, as a real one would have). */
export function txFirstNullifier(options: SessionOptions, txIndex: number): bigint {
  return (options.firstNullifier ?? DEFAULT_FIRST_NULLIFIER) + BigInt(txIndex);
}

export interface SessionOptions {
  firstNullifier?: bigint;
  collectDebugLogs?: boolean;
}

/**
 * A sequence of enqueued calls on one world, in one tx until `newTx`: effects of a call that succeeded stay for
 * the next ones (and count against the tx's limits); a call that reverted leaves nothing.
 */
export class OracleSession {
  // Plain fields, no parameter properties: bench/avm loads this file with Node's type stripping.
  readonly fork: OracleFork;
  private readonly treesDB: PublicTreesDB;
  private readonly contractsDB: PublicContractsDB;
  private readonly world: ResolvedWorld;
  private readonly options: SessionOptions;
  private readonly globals: GlobalVariables;
  private readonly config: PublicSimulatorConfig;
  private state: PublicPersistableStateManager;
  private txCount = 0;

  private constructor(fork: OracleFork, world: ResolvedWorld, options: SessionOptions) {
    this.fork = fork;
    this.world = world;
    this.options = options;
    this.treesDB = new PublicTreesDB(fork.asMerkleTreeWriteOperations());
    this.contractsDB = new PublicContractsDB(new DescribedContractDataSource(world.contracts).asContractDataSource());
    this.globals = toGlobalVariables(world.globals);
    this.config = PublicSimulatorConfig.from({ collectDebugLogs: options.collectDebugLogs ?? false });
    this.state = this.stateForTx();
  }

  static async create(world: ResolvedWorld, options: SessionOptions = {}): Promise<OracleSession> {
    await initOracleCrypto();
    return new OracleSession(oracleForkFor(world), world, options);
  }

  /** A fresh side-effect trace (limits, warm slots, nonces) over the state so far, as the next tx would see it. */
  private stateForTx(): PublicPersistableStateManager {
    return PublicPersistableStateManager.create(
      this.treesDB,
      this.contractsDB,
      new SideEffectTrace(),
      new Fr(txFirstNullifier(this.options, this.txCount)),
      this.world.globals.timestamp,
    );
  }

  /** Ends the current tx (its surviving effects stay in the trees) and starts the next one. */
  newTx(): void {
    this.txCount++;
    this.state = this.stateForTx();
  }

  /** Runs the bytecode of the contract at `request.address` (its class's `public_dispatch`). */
  call(request: CallRequest): Promise<CallOutcome> {
    return this.run(request, undefined);
  }

  /** Runs `bytecode` as if it were the code of `request.address` (nested calls reach the world's contracts). */
  runBytecode(bytecode: Uint8Array, request: CallRequest): Promise<CallOutcome> {
    return this.run(request, bytecode);
  }

  private async run(request: CallRequest, bytecode: Uint8Array | undefined): Promise<CallOutcome> {
    const gas = request.gasLimit ?? DEFAULT_CALL_GAS;
    const logsBefore = this.state.getLogs().length;
    const forked = await this.state.fork();
    const env = new AvmExecutionEnvironment(
      new AztecAddress(new Fr(request.address)),
      new AztecAddress(new Fr(request.sender)),
      Fr.ZERO,
      new Fr(request.transactionFee ?? 0n),
      this.globals,
      request.isStaticCall ?? false,
      new CallDataArray(request.calldata.map((v) => new Fr(v))),
      this.config,
    );
    const context = new AvmContext(forked, env, new AvmMachineState({ ...gas }));
    const simulator = new AvmSimulator(context);
    const raw: AvmContractCallResult =
      bytecode === undefined ? await simulator.execute() : await simulator.executeBytecode(Buffer.from(bytecode));
    const result = raw.finalize();
    const effects = result.reverted ? NO_EFFECTS : effectsOf(forked);
    if (result.reverted) await this.state.reject(forked);
    else await this.state.merge(forked);
    return {
      reverted: result.reverted,
      output: result.output.bestEffortReadAll().map((f) => f.toBigInt()),
      gasUsed: { l2Gas: gas.l2Gas - result.gasLeft.l2Gas, daGas: gas.daGas - result.gasLeft.daGas },
      ...(result.reverted ? { revertReason: summarize(result.revertReason) } : {}),
      effects,
      debugLogs: forked
        .getLogs()
        .slice(logsBefore)
        .map((l) => ({
          contractAddress: l.contractAddress.toBigInt(),
          level: l.level,
          message: l.message,
          fields: l.fields.map((f) => f.toBigInt()),
        })),
    };
  }
}

function summarize(e: SimulationError | undefined): RevertReasonSummary {
  if (e === undefined) return { message: '<no revert reason>', failingFunctions: [], noirCallStack: [] };
  return {
    message: e.getOriginalMessage(),
    failingFunctions: e.getCallStack().map((f) => ({
      contractAddress: f.contractAddress.toBigInt(),
      ...(f.functionSelector === undefined
        ? {}
        : { functionSelector: Number(f.functionSelector.toField().toBigInt()) }),
      ...(f.functionName === undefined ? {} : { functionName: f.functionName }),
    })),
    noirCallStack: (e.getNoirCallStack() ?? []).map(String),
  };
}

function effectsOf(state: PublicPersistableStateManager): CallEffects {
  // The trace is private in the typings; the fork made for this call holds exactly this call's effects.
  const fx = (state as unknown as { trace: SideEffectTrace }).trace.getSideEffects();
  return {
    publicDataWrites: fx.publicDataWrites.map((w) => ({
      leafSlot: w.leafSlot.toBigInt(),
      value: w.newValue.toBigInt(),
    })),
    noteHashes: fx.noteHashes.map((n) => n.value.toBigInt()),
    nullifiers: fx.nullifiers.map((n) => n.value.toBigInt()),
    l2ToL1Messages: fx.l2ToL1Msgs.map((m) => ({
      recipient: m.message.recipient.toField().toBigInt(),
      content: m.message.content.toBigInt(),
      contractAddress: m.contractAddress.toBigInt(),
    })),
    publicLogs: fx.publicLogs.map((l) => ({
      contractAddress: l.contractAddress.toBigInt(),
      fields: l.fields.map((f) => f.toBigInt()),
    })),
  };
}
