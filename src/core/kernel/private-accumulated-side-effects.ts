import {
  MAX_CONTRACT_CLASS_LOGS_PER_TX,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  PRIVATE_LOG_LENGTH,
} from '../constants.js';
import { Fr } from '../fr.js';
import { PrivateLog } from '../logs/private-log.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import { ScopedL2ToL1Message } from './scoped-l2-to-l1-message.js';
import { ScopedLogHash } from './scoped-log-hash.js';

/** The side effects a tx's private execution leaves, unpadded (what a tx builder chooses). */
export interface SideEffects {
  noteHashes?: readonly Fr[];
  nullifiers?: readonly Fr[];
  l2ToL1Msgs?: readonly ScopedL2ToL1Message[];
  privateLogs?: readonly PrivateLog[];
  contractClassLogsHashes?: readonly ScopedLogHash[];
}

/**
 * The side-effect arrays the private kernel tail outputs, each padded to its fixed maximum (4.1.2
 * PrivateToRollupAccumulatedData; the "to public" variant adds public call requests). Binary and field
 * order: note hashes (64), nullifiers (64), L2-to-L1 messages (8), private logs (64), contract class log
 * hashes (1). Non-empty entries come first; readers use the getNonEmpty* views.
 */
export abstract class PrivateAccumulatedSideEffects {
  static readonly SIZE_IN_BYTES =
    32 * MAX_NOTE_HASHES_PER_TX +
    32 * MAX_NULLIFIERS_PER_TX +
    ScopedL2ToL1Message.SIZE_IN_BYTES * MAX_L2_TO_L1_MSGS_PER_TX +
    PrivateLog.SIZE_IN_BYTES * MAX_PRIVATE_LOGS_PER_TX +
    ScopedLogHash.SIZE_IN_BYTES * MAX_CONTRACT_CLASS_LOGS_PER_TX;
  static readonly FIELD_COUNT =
    MAX_NOTE_HASHES_PER_TX +
    MAX_NULLIFIERS_PER_TX +
    ScopedL2ToL1Message.FIELD_COUNT * MAX_L2_TO_L1_MSGS_PER_TX +
    PRIVATE_LOG_LENGTH * MAX_PRIVATE_LOGS_PER_TX +
    ScopedLogHash.FIELD_COUNT * MAX_CONTRACT_CLASS_LOGS_PER_TX;

  constructor(
    readonly noteHashes: readonly Fr[],
    readonly nullifiers: readonly Fr[],
    readonly l2ToL1Msgs: readonly ScopedL2ToL1Message[],
    readonly privateLogs: readonly PrivateLog[],
    readonly contractClassLogsHashes: readonly ScopedLogHash[],
  ) {
    checkLength('noteHashes', noteHashes, MAX_NOTE_HASHES_PER_TX);
    checkLength('nullifiers', nullifiers, MAX_NULLIFIERS_PER_TX);
    checkLength('l2ToL1Msgs', l2ToL1Msgs, MAX_L2_TO_L1_MSGS_PER_TX);
    checkLength('privateLogs', privateLogs, MAX_PRIVATE_LOGS_PER_TX);
    checkLength('contractClassLogsHashes', contractClassLogsHashes, MAX_CONTRACT_CLASS_LOGS_PER_TX);
  }

  getNonEmptyNoteHashes(): Fr[] {
    return this.noteHashes.filter((x) => !x.isZero());
  }

  getNonEmptyNullifiers(): Fr[] {
    return this.nullifiers.filter((x) => !x.isZero());
  }

  getNonEmptyL2ToL1Msgs(): ScopedL2ToL1Message[] {
    return this.l2ToL1Msgs.filter((x) => !x.isEmpty());
  }

  getNonEmptyPrivateLogs(): PrivateLog[] {
    return this.privateLogs.filter((x) => !x.isEmpty());
  }

  getNonEmptyContractClassLogsHashes(): ScopedLogHash[] {
    return this.contractClassLogsHashes.filter((x) => !x.isEmpty());
  }

  protected writeSideEffects(w: BufferWriter): void {
    for (const x of this.noteHashes) w.writeFr(x);
    for (const x of this.nullifiers) w.writeFr(x);
    for (const x of this.l2ToL1Msgs) x.write(w);
    for (const x of this.privateLogs) x.write(w);
    for (const x of this.contractClassLogsHashes) x.write(w);
  }

  protected writeSideEffectFields(f: FieldWriter): void {
    for (const x of this.noteHashes) f.fr(x);
    for (const x of this.nullifiers) f.fr(x);
    for (const x of this.l2ToL1Msgs) x.writeFields(f);
    for (const x of this.privateLogs) x.writeFields(f);
    for (const x of this.contractClassLogsHashes) x.writeFields(f);
  }
}

/** The five padded arrays, read in layout order. */
export function readSideEffectArrays(r: BufferReader, name: string): Required<SideEffects> {
  const nh = joinPath(name, 'noteHashes');
  const noteHashes = new Array<Fr>(MAX_NOTE_HASHES_PER_TX);
  for (let i = 0; i < MAX_NOTE_HASHES_PER_TX; i++) noteHashes[i] = r.readFr(nh, i);
  const nu = joinPath(name, 'nullifiers');
  const nullifiers = new Array<Fr>(MAX_NULLIFIERS_PER_TX);
  for (let i = 0; i < MAX_NULLIFIERS_PER_TX; i++) nullifiers[i] = r.readFr(nu, i);
  const ms = joinPath(name, 'l2ToL1Msgs');
  const l2ToL1Msgs = new Array<ScopedL2ToL1Message>(MAX_L2_TO_L1_MSGS_PER_TX);
  for (let i = 0; i < MAX_L2_TO_L1_MSGS_PER_TX; i++) l2ToL1Msgs[i] = ScopedL2ToL1Message.read(r, ms, i);
  const pl = joinPath(name, 'privateLogs');
  const privateLogs = new Array<PrivateLog>(MAX_PRIVATE_LOGS_PER_TX);
  for (let i = 0; i < MAX_PRIVATE_LOGS_PER_TX; i++) privateLogs[i] = readPrivateLog(r, pl, i);
  const cl = joinPath(name, 'contractClassLogsHashes');
  const contractClassLogsHashes = new Array<ScopedLogHash>(MAX_CONTRACT_CLASS_LOGS_PER_TX);
  for (let i = 0; i < MAX_CONTRACT_CLASS_LOGS_PER_TX; i++) contractClassLogsHashes[i] = ScopedLogHash.read(r, cl, i);
  return { noteHashes, nullifiers, l2ToL1Msgs, privateLogs, contractClassLogsHashes };
}

/** Pads chosen side effects to the fixed array lengths (empty entries at the end). */
export function padSideEffects(s: SideEffects): Required<SideEffects> {
  return {
    noteHashes: pad('noteHashes', s.noteHashes ?? [], MAX_NOTE_HASHES_PER_TX, Fr.ZERO),
    nullifiers: pad('nullifiers', s.nullifiers ?? [], MAX_NULLIFIERS_PER_TX, Fr.ZERO),
    l2ToL1Msgs: pad('l2ToL1Msgs', s.l2ToL1Msgs ?? [], MAX_L2_TO_L1_MSGS_PER_TX, ScopedL2ToL1Message.EMPTY),
    privateLogs: pad('privateLogs', s.privateLogs ?? [], MAX_PRIVATE_LOGS_PER_TX, PrivateLog.EMPTY),
    contractClassLogsHashes: pad(
      'contractClassLogsHashes',
      s.contractClassLogsHashes ?? [],
      MAX_CONTRACT_CLASS_LOGS_PER_TX,
      ScopedLogHash.EMPTY,
    ),
  };
}

/** Padding logs (nothing emitted, all zero) share one instance: a tx carries 64 log slots, most unused. */
function readPrivateLog(r: BufferReader, name: string, index: number): PrivateLog {
  const log = PrivateLog.read(r, name, index);
  if (log.emittedLength === 0 && log.fields.every((f) => f.isZero())) return PrivateLog.EMPTY;
  return log;
}

export function pad<T>(name: string, values: readonly T[], length: number, empty: T): T[] {
  if (values.length > length) throw new RangeError(`${name}: at most ${length} per tx, got ${values.length}`);
  const out = values.slice();
  while (out.length < length) out.push(empty);
  return out;
}

function checkLength(name: string, values: readonly unknown[], length: number): void {
  if (values.length !== length)
    throw new RangeError(`${name} must have exactly ${length} entries, got ${values.length}`);
}
