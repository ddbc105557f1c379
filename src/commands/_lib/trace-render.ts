import { styleText } from 'node:util';
import type { CallTrace, GasProfile, TxTrace } from '../../core/trace/tx-trace.js';
import type { ContractArtifact } from './contract-artifact.js';

/** Colours only on a terminal (styleText checks the stream and NO_COLOR). */
const paint = (format: Parameters<typeof styleText>[0], text: string) =>
  styleText(format, text, { stream: process.stdout });

const short = (hex: string) => (hex.length > 14 ? `${hex.slice(0, 8)}…${hex.slice(-4)}` : hex);

function callName(c: CallTrace, artifact: ContractArtifact | undefined): string {
  const selector = c.selector === undefined ? undefined : Number(c.selector);
  const fromArtifact = selector === undefined ? undefined : artifact?.functionAt(selector)?.name;
  return fromArtifact ?? c.functionName ?? c.selector ?? '(no selector)';
}

/** What the artifact decodes of one call: its function, arguments and return value. */
export function decodeCall(c: CallTrace, artifact: ContractArtifact) {
  const selector = c.selector === undefined ? undefined : Number(c.selector);
  const fn = selector === undefined ? undefined : artifact.functionAt(selector);
  if (!fn) return undefined;
  const values = (xs: string[]) => xs.map((x) => BigInt(x));
  return {
    functionName: fn.name,
    args: artifact.decodeArgs(fn, values(c.calldata).slice(1)),
    ...(c.success ? { returns: artifact.decodeReturn(fn, values(c.returnData)) } : {}),
  };
}

/** The failing function and the revert data's message as the artifact names them. */
export function decodeRevert(trace: TxTrace, artifact: ContractArtifact) {
  const reason = trace.revertReason;
  if (!reason) return undefined;
  const innermost = reason.failingFunctions[reason.failingFunctions.length - 1];
  const selector = innermost?.selector === undefined ? undefined : Number(innermost.selector);
  const fn = selector === undefined ? undefined : artifact.functionAt(selector);
  const message = artifact.decodeRevert(reason.revertData.map((x) => BigInt(x)));
  // The failing pc is in the artifact's bytecode only when the innermost failing function is one of its own.
  const source = fn && artifact.debugInfo ? artifact.debugInfo.callStack(reason.noirCallStack) : [];
  return {
    ...(fn ? { functionName: fn.name } : innermost?.functionName ? { functionName: innermost.functionName } : {}),
    message: message === undefined ? reason.message : `${reason.message}${message}`,
    ...(source.length > 0 ? { sourceCallStack: source } : {}),
  };
}

function renderCall(c: CallTrace, indent: string, artifact: ContractArtifact | undefined, lines: string[]): void {
  const status = c.success ? paint('green', 'ok') : paint('red', `REVERTED ${c.revertMessage ?? ''}`.trim());
  const gas = `L2 ${c.gasUsed.l2Gas}/${c.gasGiven.l2Gas}, DA ${c.gasUsed.daGas}`;
  const kind = c.isStatic ? ' static' : '';
  lines.push(
    `${indent}${paint('bold', callName(c, artifact))}${kind} @ ${short(c.contractAddress)}  ${paint('dim', gas)}  ${status}`,
  );
  const inner = `${indent}    `;
  if (artifact) {
    const decoded = decodeCall(c, artifact);
    if (decoded) lines.push(`${inner}args ${JSON.stringify(decoded.args)}`);
  }
  for (const w of c.storageWrites) {
    lines.push(`${inner}${paint('yellow', 'write')} ${short(w.slot)}: ${short(w.before)} -> ${short(w.after)}`);
  }
  for (const r of c.storageReads) lines.push(`${inner}${paint('dim', 'read')}  ${short(r.slot)} = ${short(r.value)}`);
  for (const n of c.nullifiers) lines.push(`${inner}nullifier ${short(n.siloed)}${n.inserted ? '' : ' (collision)'}`);
  for (const h of c.noteHashes) lines.push(`${inner}note hash ${short(h.unique)}`);
  for (const l of c.publicLogs) lines.push(`${inner}public log (${l.fields.length} fields)`);
  for (const m of c.l2ToL1Messages) lines.push(`${inner}L2-to-L1 message to ${m.recipient}`);
  for (const d of c.debugLogs) lines.push(`${inner}${paint('cyan', `debug_log ${d.level}`)}: ${d.message}`);
  for (const s of c.opcodes ?? []) {
    const imm = s.immediate === undefined ? '' : ` #${s.immediate}`;
    lines.push(
      `${inner}${paint('dim', `${String(s.pc).padStart(6)} ${s.opcode} ${s.operands.join(' ')}${imm}  L2 left ${s.l2GasLeft}`)}`,
    );
  }
  for (const child of c.calls) renderCall(child, inner, artifact, lines);
}

/** The call tree as `l2node tx trace` prints it. */
export function renderTrace(trace: TxTrace, artifact: ContractArtifact | undefined): string {
  const where =
    trace.blockNumber === undefined
      ? 'not mined (as the next block)'
      : `block ${trace.blockNumber}, tx ${trace.txIndex}`;
  const result = trace.executionResult === 'success' ? paint('green', 'success') : paint('red', trace.executionResult);
  const lines = [`tx ${trace.txHash}  ${where}  ${result}`];
  let phase = '';
  for (const c of trace.calls) {
    if (c.phase !== phase) {
      phase = c.phase;
      lines.push(paint('underline', phase));
    }
    renderCall(c, '  ', artifact, lines);
  }
  if (trace.feePayment)
    lines.push(`fee payment: balance ${BigInt(trace.feePayment.before)} -> ${BigInt(trace.feePayment.after)}`);
  if (trace.revertReason) {
    const decoded = artifact ? decodeRevert(trace, artifact) : undefined;
    const failing = trace.revertReason.failingFunctions.map(
      (f) => f.functionName ?? f.selector ?? short(f.contractAddress),
    );
    lines.push(paint('red', `revert: ${decoded?.message ?? trace.revertReason.message} (in ${failing.join(' > ')})`));
    for (const f of [...(decoded?.sourceCallStack ?? [])].reverse()) {
      lines.push(`    at ${f.path}:${f.line}:${f.column}  ${paint('dim', f.text.trim())}`);
    }
  }
  const g = trace.gasUsed;
  lines.push(
    `gas used: L2 ${g.totalGas.l2Gas}, DA ${g.totalGas.daGas} (public L2 ${g.publicGas.l2Gas}); fee ${trace.transactionFee}; ${trace.instructionCount} instructions`,
  );
  return lines.join('\n');
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  '))
    .join('\n');
}

/** The gas profile as `l2node tx profile` prints it. */
export function renderProfile(trace: TxTrace): string {
  const p: GasProfile = trace.profile;
  const head = ['', 'L2 gas', 'DA gas', 'fee'];
  const row = (name: string, x: { l2Gas: number; daGas: number; fee: string }) => [
    name,
    String(x.l2Gas),
    String(x.daGas),
    x.fee,
  ];
  const out = [
    `tx ${trace.txHash}: fee ${trace.transactionFee} at ${p.feesPerGas.feePerL2Gas} per L2 gas, ${p.feesPerGas.feePerDaGas} per DA gas`,
    '',
    paint('bold', 'billed, by part'),
    table([
      head,
      row('private + tx overhead', p.private),
      ...p.byPhase.filter((x) => x.phase !== 'teardown').map((x) => row(x.phase, x)),
      row('teardown (at its limit)', p.teardownBilled),
      row('total', p.billed),
    ]),
    '',
    paint('bold', 'by phase (gas used)'),
    table([head, ...p.byPhase.map((x) => row(x.phase, x))]),
    '',
    paint('bold', 'by call (own gas)'),
    table([head, ...p.byCall.map((x) => row(`${x.path} ${x.functionName ?? short(x.contractAddress)}`, x))]),
    '',
    paint('bold', 'by opcode family'),
    table([
      ['', 'count', 'L2 gas', 'DA gas', 'fee'],
      ...p.byOpcodeFamily.map((x) => [x.family, String(x.count), String(x.l2Gas), String(x.daGas), x.fee]),
    ]),
    '',
    paint('bold', 'top opcodes'),
    table([
      ['', 'count', 'L2 gas', 'DA gas', 'fee'],
      ...p.topOpcodes.map((x) => [x.opcode, String(x.count), String(x.l2Gas), String(x.daGas), x.fee]),
    ]),
    '',
    paint('bold', 'DA gas by effect'),
    table([
      ['', 'count', 'DA gas', 'fee'],
      ...p.daByEffect.map((x) => [x.kind, String(x.count), String(x.daGas), x.fee]),
    ]),
  ];
  return out.join('\n');
}
