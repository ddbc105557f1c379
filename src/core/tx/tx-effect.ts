import {
  FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH,
  MAX_CONTRACT_CLASS_LOGS_PER_TX,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX,
} from '../constants.js';
import { Fr } from '../fr.js';
import { ContractClassLog, type ContractClassLogJson } from '../logs/contract-class-log.js';
import { PrivateLog, type PrivateLogJson } from '../logs/private-log.js';
import { PublicLog, type PublicLogJson } from '../logs/public-log.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { DecodeError, joinPath } from '../serialize/decode-error.js';
import { readField32 } from '../serialize/field-bytes.js';
import { readArray, readFr, readFrArray, readObject, readTxHash } from '../serialize/json-reader.js';
import { TxHash } from '../tx-hash.js';
import { PublicDataWrite, type PublicDataWriteJson } from './public-data-write.js';
import { isRevertCode, RevertCode } from './revert-code.js';

export interface TxEffectJson {
  revertCode: number;
  txHash: string;
  transactionFee: string;
  noteHashes: string[];
  nullifiers: string[];
  l2ToL1Msgs: string[];
  publicDataWrites: PublicDataWriteJson[];
  privateLogs: PrivateLogJson[];
  publicLogs: PublicLogJson[];
  contractClassLogs: ContractClassLogJson[];
}

export interface TxEffectFields {
  revertCode: RevertCode;
  txHash: TxHash;
  transactionFee: Fr;
  noteHashes: readonly Fr[];
  nullifiers: readonly Fr[];
  l2ToL1Msgs: readonly Fr[];
  publicDataWrites: readonly PublicDataWrite[];
  privateLogs: readonly PrivateLog[];
  publicLogs: readonly PublicLog[];
  contractClassLogs: readonly ContractClassLog[];
}

/**
 * What one tx did to the chain (4.1.2 tx/tx_effect.ts): the entries a block applies to the trees and the logs
 * it publishes. Arrays hold only real entries (no zero padding): zero note hashes, nullifiers or messages,
 * empty public data writes and empty private logs are rejected, as 4.1.2 does. nullifiers[0] is the tx's
 * first nullifier. The constructor enforces the per-tx maxima.
 *
 * Binary (4.1.2 TxEffect.toBuffer, used for our storage): revertCode (1 B), txHash, transactionFee (32 B
 * each), then note hashes, nullifiers, L2-to-L1 messages, public data writes and private logs each behind a
 * one-byte count, public logs behind a u32 count, contract class logs behind a one-byte count.
 */
export class TxEffect implements TxEffectFields {
  constructor(
    readonly revertCode: RevertCode,
    readonly txHash: TxHash,
    /** The fee paid, in fee juice; an Fr hex on the wire (a decimal string in receipts). */
    readonly transactionFee: Fr,
    readonly noteHashes: readonly Fr[],
    readonly nullifiers: readonly Fr[],
    /** L2-to-L1 message hashes. */
    readonly l2ToL1Msgs: readonly Fr[],
    readonly publicDataWrites: readonly PublicDataWrite[],
    readonly privateLogs: readonly PrivateLog[],
    readonly publicLogs: readonly PublicLog[],
    readonly contractClassLogs: readonly ContractClassLog[],
  ) {
    const problem = findTxEffectProblem(this);
    if (problem) throw new RangeError(`${problem.key}: ${problem.reason}`);
  }

  static from(f: TxEffectFields): TxEffect {
    return new TxEffect(
      f.revertCode,
      f.txHash,
      f.transactionFee,
      f.noteHashes,
      f.nullifiers,
      f.l2ToL1Msgs,
      f.publicDataWrites,
      f.privateLogs,
      f.publicLogs,
      f.contractClassLogs,
    );
  }

  static empty(): TxEffect {
    return new TxEffect(RevertCode.OK, new TxHash(0n), Fr.ZERO, [], [], [], [], [], [], []);
  }

  /** The nullifier that makes this tx unique (note hash nonces derive from it). */
  get firstNullifier(): Fr | undefined {
    return this.nullifiers[0];
  }

  equals(other: TxEffect): boolean {
    return this.toBuffer().equals(other.toBuffer());
  }

  static read(r: BufferReader, name = 'txEffect'): TxEffect {
    const revertCode = r.readU8(name, 'revertCode');
    if (!isRevertCode(revertCode)) throw r.error(name, 'revertCode', `unknown revert code ${revertCode}`);
    const txHash = new TxHash(readField32(r.readBytes(32, name, 'txHash')));
    const transactionFee = r.readFr(name, 'transactionFee');
    const noteHashes = readFrVector(r, r.readU8(name, 'noteHashes'), name, 'noteHashes');
    const nullifiers = readFrVector(r, r.readU8(name, 'nullifiers'), name, 'nullifiers');
    const l2ToL1Msgs = readFrVector(r, r.readU8(name, 'l2ToL1Msgs'), name, 'l2ToL1Msgs');
    const nWrites = r.readU8(name, 'publicDataWrites');
    const wName = joinPath(name, 'publicDataWrites');
    const publicDataWrites = new Array<PublicDataWrite>(nWrites);
    for (let i = 0; i < nWrites; i++) publicDataWrites[i] = PublicDataWrite.read(r, wName, i);
    const nPrivate = r.readU8(name, 'privateLogs');
    const pName = joinPath(name, 'privateLogs');
    const privateLogs = new Array<PrivateLog>(nPrivate);
    for (let i = 0; i < nPrivate; i++) privateLogs[i] = PrivateLog.read(r, pName, i);
    const nPublic = r.readU32(name, 'publicLogs');
    if (nPublic > FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH) throw r.error(name, 'publicLogs', `${nPublic} public logs`);
    const uName = joinPath(name, 'publicLogs');
    const publicLogs = new Array<PublicLog>(nPublic);
    for (let i = 0; i < nPublic; i++) publicLogs[i] = PublicLog.read(r, uName, i);
    const nClass = r.readU8(name, 'contractClassLogs');
    const cName = joinPath(name, 'contractClassLogs');
    const contractClassLogs = new Array<ContractClassLog>(nClass);
    for (let i = 0; i < nClass; i++) contractClassLogs[i] = ContractClassLog.read(r, cName, i);
    const fields: TxEffectFields = {
      revertCode,
      txHash,
      transactionFee,
      noteHashes,
      nullifiers,
      l2ToL1Msgs,
      publicDataWrites,
      privateLogs,
      publicLogs,
      contractClassLogs,
    };
    const problem = findTxEffectProblem(fields);
    if (problem) throw r.error(name, problem.key, problem.reason);
    return TxEffect.from(fields);
  }

  write(w: BufferWriter): void {
    w.writeU8(this.revertCode);
    w.writeField(this.txHash.value);
    w.writeFr(this.transactionFee);
    writeFrVector(w, this.noteHashes);
    writeFrVector(w, this.nullifiers);
    writeFrVector(w, this.l2ToL1Msgs);
    w.writeU8(this.publicDataWrites.length);
    for (const x of this.publicDataWrites) x.write(w);
    w.writeU8(this.privateLogs.length);
    for (const x of this.privateLogs) x.write(w);
    w.writeU32(this.publicLogs.length);
    for (const x of this.publicLogs) x.write(w);
    w.writeU8(this.contractClassLogs.length);
    for (const x of this.contractClassLogs) x.write(w);
  }

  /** Exact size of the binary form. */
  getSize(): number {
    let n = 1 + 32 + 32 + 3 + 32 * (this.noteHashes.length + this.nullifiers.length + this.l2ToL1Msgs.length);
    n += 1 + PublicDataWrite.SIZE_IN_BYTES * this.publicDataWrites.length;
    n += 1 + PrivateLog.SIZE_IN_BYTES * this.privateLogs.length;
    n += 4;
    for (const l of this.publicLogs) n += 4 + 32 + 32 * l.fields.length;
    n += 1 + ContractClassLog.SIZE_IN_BYTES * this.contractClassLogs.length;
    return n;
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(this.getSize());
    this.write(w);
    return w.toBuffer();
  }

  static fromBuffer(buf: Uint8Array, name = 'txEffect'): TxEffect {
    const r = new BufferReader(buf);
    const e = TxEffect.read(r, name);
    r.assertEnd(name);
    return e;
  }

  toJSON(): TxEffectJson {
    return {
      revertCode: this.revertCode,
      txHash: this.txHash.toString(),
      transactionFee: this.transactionFee.toString(),
      noteHashes: this.noteHashes.map((f) => f.toString()),
      nullifiers: this.nullifiers.map((f) => f.toString()),
      l2ToL1Msgs: this.l2ToL1Msgs.map((f) => f.toString()),
      publicDataWrites: this.publicDataWrites.map((x) => x.toJSON()),
      privateLogs: this.privateLogs.map((x) => x.toJSON()),
      publicLogs: this.publicLogs.map((x) => x.toJSON()),
      contractClassLogs: this.contractClassLogs.map((x) => x.toJSON()),
    };
  }

  static fromJSON(json: unknown, path = 'txEffect'): TxEffect {
    const o = readObject(json, path);
    const revertCode = o.revertCode;
    if (!isRevertCode(revertCode)) {
      throw new DecodeError(
        joinPath(path, 'revertCode'),
        `expected 0, 1, 2 or 3, received ${JSON.stringify(revertCode)}`,
      );
    }
    const writesPath = joinPath(path, 'publicDataWrites');
    const privatePath = joinPath(path, 'privateLogs');
    const publicPath = joinPath(path, 'publicLogs');
    const classPath = joinPath(path, 'contractClassLogs');
    const fields: TxEffectFields = {
      revertCode,
      txHash: readTxHash(o.txHash, path, 'txHash'),
      transactionFee: readFr(o.transactionFee, path, 'transactionFee'),
      noteHashes: readFrArray(o.noteHashes, path, 'noteHashes', MAX_NOTE_HASHES_PER_TX),
      nullifiers: readFrArray(o.nullifiers, path, 'nullifiers', MAX_NULLIFIERS_PER_TX),
      l2ToL1Msgs: readFrArray(o.l2ToL1Msgs, path, 'l2ToL1Msgs', MAX_L2_TO_L1_MSGS_PER_TX),
      publicDataWrites: readArray(
        o.publicDataWrites,
        path,
        'publicDataWrites',
        MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX,
      ).map((x, i) => PublicDataWrite.fromJSON(x, joinPath(writesPath, i))),
      privateLogs: readArray(o.privateLogs, path, 'privateLogs', MAX_PRIVATE_LOGS_PER_TX).map((x, i) =>
        PrivateLog.fromJSON(x, joinPath(privatePath, i)),
      ),
      publicLogs: readArray(o.publicLogs, path, 'publicLogs').map((x, i) =>
        PublicLog.fromJSON(x, joinPath(publicPath, i)),
      ),
      contractClassLogs: readArray(o.contractClassLogs, path, 'contractClassLogs', MAX_CONTRACT_CLASS_LOGS_PER_TX).map(
        (x, i) => ContractClassLog.fromJSON(x, joinPath(classPath, i)),
      ),
    };
    const problem = findTxEffectProblem(fields);
    if (problem) throw new DecodeError(joinPath(path, problem.key), problem.reason);
    return TxEffect.from(fields);
  }
}

interface Problem {
  key: string;
  reason: string;
}

/** The first rule of 4.1.2's TxEffect constructor that the fields break, with the key it concerns. */
export function findTxEffectProblem(f: TxEffectFields): Problem | undefined {
  if (!isRevertCode(f.revertCode)) return { key: 'revertCode', reason: `unknown revert code ${String(f.revertCode)}` };
  const p =
    fieldsProblem('noteHashes', f.noteHashes, MAX_NOTE_HASHES_PER_TX, 'note hash') ??
    fieldsProblem('nullifiers', f.nullifiers, MAX_NULLIFIERS_PER_TX, 'nullifier') ??
    fieldsProblem('l2ToL1Msgs', f.l2ToL1Msgs, MAX_L2_TO_L1_MSGS_PER_TX, 'L2-to-L1 message');
  if (p) return p;
  if (f.publicDataWrites.length > MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX) {
    return {
      key: 'publicDataWrites',
      reason: tooMany(MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX, f.publicDataWrites),
    };
  }
  for (let i = 0; i < f.publicDataWrites.length; i++) {
    if ((f.publicDataWrites[i] as PublicDataWrite).isEmpty()) {
      return { key: `publicDataWrites[${i}]`, reason: 'a public data write must not be empty' };
    }
  }
  if (f.privateLogs.length > MAX_PRIVATE_LOGS_PER_TX) {
    return { key: 'privateLogs', reason: tooMany(MAX_PRIVATE_LOGS_PER_TX, f.privateLogs) };
  }
  for (let i = 0; i < f.privateLogs.length; i++) {
    if ((f.privateLogs[i] as PrivateLog).isEmpty()) {
      return { key: `privateLogs[${i}]`, reason: 'a private log must not be empty' };
    }
  }
  let publicLogFields = 0;
  for (const l of f.publicLogs) publicLogFields += l.sizeInFields();
  if (publicLogFields > FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH) {
    return {
      key: 'publicLogs',
      reason: `${publicLogFields} fields with headers, the per-tx payload holds ${FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH}`,
    };
  }
  if (f.contractClassLogs.length > MAX_CONTRACT_CLASS_LOGS_PER_TX) {
    return { key: 'contractClassLogs', reason: tooMany(MAX_CONTRACT_CLASS_LOGS_PER_TX, f.contractClassLogs) };
  }
  return undefined;
}

function tooMany(max: number, values: readonly unknown[]): string {
  return `at most ${max} per tx, got ${values.length}`;
}

function fieldsProblem(key: string, values: readonly Fr[], max: number, what: string): Problem | undefined {
  if (values.length > max) return { key, reason: tooMany(max, values) };
  for (let i = 0; i < values.length; i++) {
    if ((values[i] as Fr).isZero()) return { key: `${key}[${i}]`, reason: `a ${what} must not be zero` };
  }
  return undefined;
}

function readFrVector(r: BufferReader, n: number, name: string, key: string): Fr[] {
  const path = joinPath(name, key);
  const out = new Array<Fr>(n);
  for (let i = 0; i < n; i++) out[i] = r.readFr(path, i);
  return out;
}

function writeFrVector(w: BufferWriter, values: readonly Fr[]): void {
  w.writeU8(values.length);
  for (const v of values) w.writeFr(v);
}
