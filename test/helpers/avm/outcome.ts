/**
 * What a differential test compares: the observable result of one enqueued call (or raw program), in plain
 * values, filled in the same shape by Aztec's simulator (oracle.ts) and by our interpreter (ours.ts).
 */

export interface CallEffects {
  /** Every storage write in execution order (not squashed): leaf slot and value. */
  publicDataWrites: { leafSlot: bigint; value: bigint }[];
  /** Unique (siloed, nonced) note hashes. */
  noteHashes: bigint[];
  /** Siloed nullifiers. */
  nullifiers: bigint[];
  l2ToL1Messages: { recipient: bigint; content: bigint; contractAddress: bigint }[];
  publicLogs: { contractAddress: bigint; fields: bigint[] }[];
}

export interface RevertReasonSummary {
  message: string;
  failingFunctions: { contractAddress: bigint; functionSelector?: number; functionName?: string }[];
  noirCallStack: string[];
}

export interface CallOutcome {
  /** The simulator threw instead of returning (an error 4.1.2 treats as unrecoverable: the tx cannot be
   *  simulated). Only that both sides aborted is compared, not the message. */
  aborted?: string;
  reverted: boolean;
  /** Return data after RETURN, revert data after REVERT, empty after an exceptional halt. */
  output: bigint[];
  gasUsed: { l2Gas: number; daGas: number };
  /** When reverted: the revert reason as 4.1.2 finalizes it (root-cause message, failing functions outermost
   *  first, the innermost frame's opcode locations). */
  revertReason?: RevertReasonSummary;
  /** The effects the call leaves in the tx: none when it reverted (the tx drops them). */
  effects: CallEffects;
  /** Debug logs the call recorded (only with collectDebugLogs; kept even when it reverted). */
  debugLogs: { contractAddress: bigint; level: string; message: string; fields: bigint[] }[];
}

export const NO_EFFECTS: CallEffects = {
  publicDataWrites: [],
  noteHashes: [],
  nullifiers: [],
  l2ToL1Messages: [],
  publicLogs: [],
};

/** The outcome of a simulator that threw. */
export function abortedOutcome(error: unknown): CallOutcome {
  return {
    aborted: String((error as Error)?.message ?? error),
    reverted: true,
    output: [],
    gasUsed: { l2Gas: 0, daGas: 0 },
    effects: NO_EFFECTS,
    debugLogs: [],
  };
}

const hex = (v: bigint) => `0x${v.toString(16)}`;

/** A readable, stable rendering (bigints as hex) for failure messages and AVM-DIFFS.md. */
export function renderOutcome(o: CallOutcome): string {
  return JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? hex(v) : v), 2);
}

/**
 * The fields on which two outcomes differ, as `path: ours vs oracle` lines (empty when equal). Every field is
 * compared; the caller decides nothing away.
 */
export function diffOutcomes(ours: CallOutcome, oracle: CallOutcome): string[] {
  const diffs: string[] = [];
  if (ours.aborted !== undefined || oracle.aborted !== undefined) {
    if (ours.aborted === undefined || oracle.aborted === undefined) {
      diffs.push(
        `aborted: ours ${fmt(ours.aborted ?? renderOutcome(ours))} vs oracle ${fmt(oracle.aborted ?? renderOutcome(oracle))}`,
      );
    }
    return diffs;
  }
  const walk = (path: string, a: unknown, b: unknown) => {
    if (typeof a === 'bigint' || typeof b === 'bigint' || typeof a !== 'object' || typeof b !== 'object') {
      if (a !== b) diffs.push(`${path}: ours ${fmt(a)} vs oracle ${fmt(b)}`);
      return;
    }
    if (a === null || b === null) {
      if (a !== b) diffs.push(`${path}: ours ${fmt(a)} vs oracle ${fmt(b)}`);
      return;
    }
    if (Array.isArray(a) || Array.isArray(b)) {
      const aa = a as unknown[];
      const bb = b as unknown[];
      if (!Array.isArray(a) || !Array.isArray(b) || aa.length !== bb.length) {
        diffs.push(`${path}: ours ${fmt(a)} vs oracle ${fmt(b)}`);
        return;
      }
      for (let i = 0; i < aa.length; i++) walk(`${path}[${i}]`, aa[i], bb[i]);
      return;
    }
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    for (const k of keys) {
      walk(path ? `${path}.${k}` : k, (a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]);
    }
  };
  walk('', ours, oracle);
  return diffs;
}

function fmt(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? hex(x) : x)) ?? 'undefined';
}
