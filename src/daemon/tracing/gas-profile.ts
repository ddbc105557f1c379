import { DA_GAS_PER_FIELD } from '../../core/constants.js';
import type { GasFees } from '../../core/gas/gas-fees.js';
import {
  type CallTrace,
  type FeePart,
  type GasProfile,
  TRACE_PHASES,
  type TraceGas,
} from '../../core/trace/tx-trace.js';
import type { Tx } from '../../core/tx/tx.js';
import type { OpcodeUse } from './call-tree-tracer.js';

/** Opcode families of the profile (names without their _8/_16 width suffix). */
const FAMILIES: Record<string, readonly string[]> = {
  arithmetic: ['ADD', 'SUB', 'MUL', 'DIV', 'FDIV'],
  comparison: ['EQ', 'LT', 'LTE'],
  bitwise: ['AND', 'OR', 'XOR', 'NOT', 'SHL', 'SHR'],
  memory: ['SET', 'MOV', 'CAST'],
  'control flow': ['JUMP', 'JUMPI', 'INTERNALCALL', 'INTERNALRETURN', 'RETURN', 'REVERT'],
  environment: ['GETENVVAR', 'CALLDATACOPY', 'SUCCESSCOPY', 'RETURNDATASIZE', 'RETURNDATACOPY', 'GETCONTRACTINSTANCE'],
  storage: ['SLOAD', 'SSTORE'],
  'tree checks': ['NOTEHASHEXISTS', 'NULLIFIEREXISTS', 'L1TOL2MSGEXISTS'],
  'side effects': ['EMITNOTEHASH', 'EMITNULLIFIER', 'EMITPUBLICLOG', 'SENDL2TOL1MSG'],
  calls: ['CALL', 'STATICCALL'],
  gadgets: ['POSEIDON2', 'SHA256COMPRESSION', 'KECCAKF1600', 'ECADD', 'TORADIXBE'],
  debug: ['DEBUGLOG'],
};
const FAMILY_OF = new Map(Object.entries(FAMILIES).flatMap(([family, ops]) => ops.map((op) => [op, family] as const)));

/** Which effect each DA-charging opcode pays for. */
const DA_EFFECT_OF: Record<string, string> = {
  SSTORE: 'public data writes',
  EMITNOTEHASH: 'note hashes (public)',
  EMITNULLIFIER: 'nullifiers (public)',
  EMITPUBLICLOG: 'public logs',
  SENDL2TOL1MSG: 'L2-to-L1 messages (public)',
};

export interface ProfileInput {
  readonly tx: Tx;
  readonly calls: readonly CallTrace[];
  readonly opcodeUse: ReadonlyMap<string, OpcodeUse>;
  /** The fees per gas the tx paid (computeEffectiveGasFees of the block's fees). */
  readonly fees: GasFees;
  /** The gas the fee was charged on. */
  readonly billed: TraceGas;
}

/**
 * The tx's gas profile: the billed gas split into private (with the tx overhead), setup and app logic, and the
 * teardown's limit; each call's own gas; opcodes by family and the most expensive ones; DA gas by effect kind.
 * Each part carries its fee at the tx's fees per gas, so the parts of `billed` add up to the tx's fee.
 */
export function gasProfile(input: ProfileInput): GasProfile {
  const { tx, fees } = input;
  const part = (l2Gas: number, daGas: number): FeePart => ({
    l2Gas,
    daGas,
    fee: (BigInt(l2Gas) * fees.feePerL2Gas + BigInt(daGas) * fees.feePerDaGas).toString(),
  });
  const hasTeardown = tx.data.getTeardownPublicCallRequest() !== undefined;
  const teardownLimits = tx.gasSettings.teardownGasLimits;
  const privateL2 = tx.data.gasUsed.l2Gas - (hasTeardown ? teardownLimits.l2Gas : 0);
  const privateDa = tx.data.gasUsed.daGas - (hasTeardown ? teardownLimits.daGas : 0);

  const byPhase = TRACE_PHASES.map((phase) => {
    let l2 = 0;
    let da = 0;
    for (const c of input.calls) {
      if (c.phase !== phase) continue;
      l2 += c.gasUsed.l2Gas;
      da += c.gasUsed.daGas;
    }
    return { phase, ...part(l2, da) };
  });

  const byCall: GasProfile['byCall'] = [];
  const walk = (c: CallTrace, path: string) => {
    let l2 = c.gasUsed.l2Gas;
    let da = c.gasUsed.daGas;
    for (const child of c.calls) {
      l2 -= child.gasUsed.l2Gas;
      da -= child.gasUsed.daGas;
    }
    byCall.push({
      path,
      contractAddress: c.contractAddress,
      ...(c.functionName === undefined ? {} : { functionName: c.functionName }),
      ...part(l2, da),
    });
    c.calls.forEach((child, i) => {
      walk(child, `${path}.${i}`);
    });
  };
  input.calls.forEach((c, i) => {
    walk(c, String(i));
  });

  const families = new Map<string, { count: number; l2: number; da: number }>();
  const daEffects = new Map<string, { count: number; da: number }>();
  for (const [opcode, use] of input.opcodeUse) {
    const family = FAMILY_OF.get(opcode) ?? 'other';
    const f = families.get(family) ?? { count: 0, l2: 0, da: 0 };
    f.count += use.count;
    f.l2 += use.l2Gas;
    f.da += use.daGas;
    families.set(family, f);
    const effect = DA_EFFECT_OF[opcode];
    if (effect !== undefined && use.daGas > 0) daEffects.set(effect, { count: use.count, da: use.daGas });
  }
  const byOpcodeFamily = [...families]
    .map(([family, f]) => ({ family, count: f.count, ...part(f.l2, f.da) }))
    .sort((a, b) => b.l2Gas - a.l2Gas);
  const topOpcodes = [...input.opcodeUse]
    .map(([opcode, u]) => ({ opcode, count: u.count, ...part(u.l2Gas, u.daGas) }))
    .sort((a, b) => b.l2Gas - a.l2Gas || b.daGas - a.daGas)
    .slice(0, 10);

  const daByEffect: GasProfile['daByEffect'] = [];
  const effect = (kind: string, count: number, daGas: number) =>
    daByEffect.push({ kind, count, daGas, fee: (BigInt(daGas) * fees.feePerDaGas).toString() });
  // Private's side effects: one blob field each for note hashes, nullifiers and messages; the rest of private's
  // DA gas is its logs and the tx overhead.
  const forPublic = tx.data.forPublic;
  let privateRest = privateDa;
  if (forPublic) {
    const data = [forPublic.nonRevertibleAccumulatedData, forPublic.revertibleAccumulatedData];
    const counted = [
      ['note hashes (private)', data.reduce((n, d) => n + d.getNonEmptyNoteHashes().length, 0)],
      ['nullifiers (private)', data.reduce((n, d) => n + d.getNonEmptyNullifiers().length, 0)],
      ['L2-to-L1 messages (private)', data.reduce((n, d) => n + d.getNonEmptyL2ToL1Msgs().length, 0)],
    ] as const;
    const countedDa = counted.reduce((n, [, count]) => n + count * DA_GAS_PER_FIELD, 0);
    if (countedDa <= privateRest) {
      for (const [kind, count] of counted) if (count > 0) effect(kind, count, count * DA_GAS_PER_FIELD);
      privateRest -= countedDa;
    }
  }
  effect('private logs and tx overhead', 1, privateRest);
  for (const [kind, e] of daEffects) effect(kind, e.count, e.da);

  return {
    feesPerGas: { feePerL2Gas: fees.feePerL2Gas.toString(), feePerDaGas: fees.feePerDaGas.toString() },
    billed: part(input.billed.l2Gas, input.billed.daGas),
    private: part(privateL2, privateDa),
    teardownBilled: hasTeardown ? part(teardownLimits.l2Gas, teardownLimits.daGas) : part(0, 0),
    byPhase,
    byCall,
    byOpcodeFamily,
    topOpcodes,
    daByEffect,
  };
}
