/**
 * Our interpreter on the same world and calls as the oracle (oracle.ts), reporting the same `CallOutcome`. One
 * session is one tx: a journal over an `InMemoryAvmWorld`, each call checkpointed and dropped when it reverts, so
 * effects, warm slots and per-tx limits carry from call to call exactly as in the oracle's session.
 */
import {
  type AvmCallResult,
  type AvmGlobals,
  AvmJournal,
  executeBytecode,
  executeEnqueuedCall,
  InMemoryAvmWorld,
} from '../../../src/core/avm/index.js';
import { type CallRequest, DEFAULT_CALL_GAS, type SessionOptions, txFirstNullifier } from './oracle.js';
import { type CallEffects, type CallOutcome, NO_EFFECTS } from './outcome.js';
import type { ResolvedWorld } from './world-description.js';

export function inMemoryWorldFor(w: ResolvedWorld): InMemoryAvmWorld {
  const world = new InMemoryAvmWorld();
  for (const d of w.publicData) world.publicData.set(d.leafSlot, d.value);
  for (const n of w.nullifiers) world.nullifiers.add(n);
  world.noteHashes.push(...w.noteHashes);
  world.l1ToL2Messages.push(...w.l1ToL2Messages);
  for (const c of w.contracts) {
    world.deploy(c.address, c.classId, c.packedBytecode, c.deployer ?? 0n, c.initializationHash ?? 0n);
    for (const [selector, name] of c.functionNames ?? []) world.setFunctionName(c.address, selector, name);
  }
  return world;
}

export function avmGlobalsFor(w: ResolvedWorld): AvmGlobals {
  const g = w.globals;
  return {
    chainId: g.chainId,
    version: g.version,
    blockNumber: g.blockNumber,
    timestamp: g.timestamp,
    feePerDaGas: g.feePerDaGas,
    feePerL2Gas: g.feePerL2Gas,
  };
}

export class OurSession {
  readonly world: InMemoryAvmWorld;
  private journal: AvmJournal;
  private readonly globals: AvmGlobals;
  private readonly options: SessionOptions;
  private txCount = 0;

  constructor(w: ResolvedWorld, options: SessionOptions = {}) {
    this.options = options;
    this.world = inMemoryWorldFor(w);
    this.globals = avmGlobalsFor(w);
    this.journal = this.journalForTx();
  }

  private journalForTx(): AvmJournal {
    return new AvmJournal({
      world: this.world,
      contracts: this.world,
      firstNullifier: txFirstNullifier(this.options, this.txCount),
      timestamp: this.globals.timestamp,
    });
  }

  /** Ends the current tx: its surviving effects go into the world (as a block would), then the next tx starts. */
  newTx(): void {
    const fx = this.journal.getSideEffects();
    for (const w of fx.publicDataWrites) this.world.publicData.set(w.leafSlot, w.value);
    for (const n of fx.nullifiers) this.world.nullifiers.add(n);
    this.world.noteHashes.push(...fx.noteHashes);
    this.txCount++;
    this.journal = this.journalForTx();
  }

  call(request: CallRequest): CallOutcome {
    return this.run(request, undefined);
  }

  runBytecode(bytecode: Uint8Array, request: CallRequest): CallOutcome {
    return this.run(request, bytecode);
  }

  private run(request: CallRequest, bytecode: Uint8Array | undefined): CallOutcome {
    const before = this.journal.snapshotSideEffects();
    const logsBefore = this.journal.debugLogs.length;
    this.journal.checkpoint();
    const params = {
      world: this.world,
      contracts: this.world,
      globals: this.globals,
      address: request.address,
      sender: request.sender,
      isStaticCall: request.isStaticCall ?? false,
      calldata: request.calldata,
      gasLimit: request.gasLimit ?? DEFAULT_CALL_GAS,
      transactionFee: request.transactionFee ?? 0n,
      journal: this.journal,
      config: { collectDebugLogs: this.options.collectDebugLogs ?? false },
    };
    let r: AvmCallResult;
    try {
      r = bytecode === undefined ? executeEnqueuedCall(params) : executeBytecode(bytecode, params);
    } catch (e) {
      this.journal.revertCheckpoint();
      throw e;
    }
    if (r.reverted) this.journal.revertCheckpoint();
    else this.journal.commitCheckpoint();
    const outcome: CallOutcome = {
      reverted: r.reverted,
      output: r.output,
      gasUsed: { ...r.gasUsed },
      effects: r.reverted ? NO_EFFECTS : since(before, this.journal.snapshotSideEffects()),
      debugLogs: r.debugLogs.slice(logsBefore).map((l) => ({
        contractAddress: l.contractAddress,
        level: l.level,
        message: l.message,
        fields: l.fields.slice(),
      })),
    };
    if (r.reverted) {
      const reason = r.revertReason;
      outcome.revertReason =
        reason === undefined
          ? { message: '<no revert reason>', failingFunctions: [], noirCallStack: [] }
          : {
              message: reason.message,
              failingFunctions: reason.failingFunctions.map((f) => ({ ...f })),
              noirCallStack: reason.noirCallStack,
            };
    }
    return outcome;
  }
}

/** The effects emitted between two snapshots of the journal (a successful call only appends). */
function since(before: ReturnType<AvmJournal['snapshotSideEffects']>, after: typeof before): CallEffects {
  return {
    publicDataWrites: after.publicDataWrites
      .slice(before.publicDataWrites.length)
      .map((w) => ({ leafSlot: w.leafSlot, value: w.value })),
    noteHashes: after.noteHashes.slice(before.noteHashes.length),
    nullifiers: after.nullifiers.slice(before.nullifiers.length),
    l2ToL1Messages: after.l2ToL1Messages.slice(before.l2ToL1Messages.length).map((m) => ({ ...m })),
    publicLogs: after.publicLogs.slice(before.publicLogs.length).map((l) => ({ ...l })),
  };
}
