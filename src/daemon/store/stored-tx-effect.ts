import { PRIVATE_LOG_SIZE_IN_FIELDS } from '../../core/constants.js';
import { ContractClassLog } from '../../core/logs/contract-class-log.js';
import { PublicLog } from '../../core/logs/public-log.js';
import { BufferReader } from '../../core/serialize/buffer-reader.js';
import { readField32 } from '../../core/serialize/field-bytes.js';
import { TxEffect } from '../../core/tx/tx-effect.js';

const PRIVATE_LOG_BYTES = PRIVATE_LOG_SIZE_IN_FIELDS * 32 + 4;
const HEAD = 1 + 32 + 32;

/**
 * A tx effect as the chain store keeps it: the 4.1.2 binary TxEffect layout (revert code, tx hash, fee, then
 * length-prefixed note hashes, nullifiers, L2-to-L1 messages, public data writes, private logs, public logs,
 * contract class logs). Queries that need one part (a tag, the note hashes, one log) read it in place from the
 * offsets found by one pass over the counts, instead of decoding the whole effect.
 */
export class StoredTxEffect {
  private readonly noteHashesAt: number;
  private readonly nullifiersAt: number;
  private readonly messagesAt: number;
  private readonly privateLogsAt: number;
  private readonly publicLogOffsets: number[] = [];
  private readonly classLogsAt: number;

  constructor(readonly bytes: Buffer) {
    let o = HEAD;
    this.noteHashesAt = o;
    o += 1 + 32 * this.u8(o);
    this.nullifiersAt = o;
    o += 1 + 32 * this.u8(o);
    this.messagesAt = o;
    o += 1 + 32 * this.u8(o);
    o += 1 + 64 * this.u8(o);
    this.privateLogsAt = o;
    o += 1 + PRIVATE_LOG_BYTES * this.u8(o);
    const publicLogs = bytes.readUInt32BE(o);
    o += 4;
    for (let i = 0; i < publicLogs; i++) {
      this.publicLogOffsets.push(o);
      o += 4 + 32 + 32 * bytes.readUInt32BE(o);
    }
    this.classLogsAt = o;
  }

  static of(effect: TxEffect): StoredTxEffect {
    return new StoredTxEffect(effect.toBuffer());
  }

  decode(): TxEffect {
    return TxEffect.fromBuffer(this.bytes);
  }

  get txHash(): bigint {
    return readField32(this.bytes, 1);
  }

  get noteHashes(): bigint[] {
    return this.fields(this.noteHashesAt);
  }

  get firstNullifier(): bigint {
    return this.u8(this.nullifiersAt) > 0 ? readField32(this.bytes, this.nullifiersAt + 1) : 0n;
  }

  get l2ToL1Msgs(): bigint[] {
    return this.fields(this.messagesAt);
  }

  get privateLogCount(): number {
    return this.u8(this.privateLogsAt);
  }

  get publicLogCount(): number {
    return this.publicLogOffsets.length;
  }

  get contractClassLogCount(): number {
    return this.u8(this.classLogsAt);
  }

  /** The emitted fields of private log i (tag first). */
  privateLogData(i: number): bigint[] {
    const at = this.privateLogsAt + 1 + i * PRIVATE_LOG_BYTES;
    const emitted = this.bytes.readUInt32BE(at + PRIVATE_LOG_SIZE_IN_FIELDS * 32);
    const out = new Array<bigint>(emitted);
    for (let k = 0; k < emitted; k++) out[k] = readField32(this.bytes, at + 32 * k);
    return out;
  }

  /** The tag (first field) of private log i, as stored: a view on the row, not a copy. */
  privateLogTag(i: number): Buffer | undefined {
    const at = this.privateLogsAt + 1 + i * PRIVATE_LOG_BYTES;
    return this.bytes.readUInt32BE(at + PRIVATE_LOG_SIZE_IN_FIELDS * 32) > 0
      ? this.bytes.subarray(at, at + 32)
      : undefined;
  }

  publicLog(i: number): PublicLog {
    return PublicLog.read(new BufferReader(this.bytes, this.publicLogOffsets[i] as number), 'publicLog', i);
  }

  /** The contract (32 B) of public log i, as stored. */
  publicLogContract(i: number): Buffer {
    const at = (this.publicLogOffsets[i] as number) + 4;
    return this.bytes.subarray(at, at + 32);
  }

  /** The tag of public log i, or undefined for a log without fields. */
  publicLogTag(i: number): Buffer | undefined {
    const at = this.publicLogOffsets[i] as number;
    return this.bytes.readUInt32BE(at) > 0 ? this.bytes.subarray(at + 36, at + 68) : undefined;
  }

  /** The emitted fields of public log i. */
  publicLogData(i: number): bigint[] {
    const at = this.publicLogOffsets[i] as number;
    const n = this.bytes.readUInt32BE(at);
    const out = new Array<bigint>(n);
    for (let k = 0; k < n; k++) out[k] = readField32(this.bytes, at + 36 + 32 * k);
    return out;
  }

  contractClassLog(i: number): ContractClassLog {
    return ContractClassLog.read(
      new BufferReader(this.bytes, this.classLogsAt + 1 + i * ContractClassLog.SIZE_IN_BYTES),
      'contractClassLog',
      i,
    );
  }

  private u8(o: number): number {
    return this.bytes[o] as number;
  }

  private fields(at: number): bigint[] {
    const n = this.u8(at);
    const out = new Array<bigint>(n);
    for (let k = 0; k < n; k++) out[k] = readField32(this.bytes, at + 1 + 32 * k);
    return out;
  }
}
