/**
 * Runs the same steps (enqueued calls or raw programs, in one tx) on Aztec's simulator and on our interpreter,
 * each on its own copy of one described world, and reports both outcomes per step with their differences.
 */
import { type CallRequest, OracleSession, type SessionOptions } from './oracle.js';
import { OurSession } from './ours.js';
import { abortedOutcome, type CallOutcome, diffOutcomes } from './outcome.js';
import type { ResolvedWorld } from './world-description.js';

export interface Step {
  request: CallRequest;
  /** Run this program as the code of `request.address` instead of the contract's own bytecode. */
  bytecode?: Uint8Array;
  label?: string;
  /** Run this step in a new tx (the earlier txs' effects stay in the world). */
  newTx?: boolean;
}

export interface StepComparison {
  step: Step;
  ours: CallOutcome;
  oracle: CallOutcome;
  diffs: string[];
}

export async function runBoth(
  world: ResolvedWorld,
  steps: Step[],
  options: SessionOptions = {},
): Promise<StepComparison[]> {
  const oracle = await OracleSession.create(world, options);
  const ours = new OurSession(world, options);
  const out: StepComparison[] = [];
  for (const step of steps) {
    if (step.newTx) {
      oracle.newTx();
      ours.newTx();
    }
    let o: CallOutcome;
    try {
      o =
        step.bytecode === undefined
          ? await oracle.call(step.request)
          : await oracle.runBytecode(step.bytecode, step.request);
    } catch (e) {
      o = abortedOutcome(e);
    }
    let u: CallOutcome;
    try {
      u = step.bytecode === undefined ? ours.call(step.request) : ours.runBytecode(step.bytecode, step.request);
    } catch (e) {
      u = abortedOutcome(e);
    }
    out.push({ step, ours: u, oracle: o, diffs: diffOutcomes(u, o) });
    // A step that aborted leaves the sessions in states nobody defines; stop there.
    if (o.aborted !== undefined || u.aborted !== undefined) break;
  }
  return out;
}
