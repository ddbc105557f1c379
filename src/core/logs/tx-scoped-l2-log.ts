import type { Fr } from '../fr.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { readField32 } from '../serialize/field-bytes.js';
import { readBigInt, readFr, readFrArray, readObject, readTxHash, readU32, U64_MAX } from '../serialize/json-reader.js';
import { TxHash } from '../tx-hash.js';

export interface TxScopedL2LogJson {
  txHash: string;
  blockNumber: number;
  blockTimestamp: string;
  logData: string[];
  noteHashes: string[];
  firstNullifier: string;
}

/**
 * A tagged log with what a wallet needs to process it (4.x form, docs/aztec-facts.md section 2.5): the emitted
 * fields (tag first), the tx's note hashes and first nullifier (for note nonces), and where and when it was
 * mined. Binary (4.1.2 toBuffer, for storage): tx hash, u32 block number, u64 timestamp, u32-counted log
 * data, u32-counted note hashes, first nullifier.
 */
export class TxScopedL2Log {
  constructor(
    readonly txHash: TxHash,
    readonly blockNumber: number,
    readonly blockTimestamp: bigint,
    readonly logData: readonly Fr[],
    readonly noteHashes: readonly Fr[],
    readonly firstNullifier: Fr,
  ) {}

  toJSON(): TxScopedL2LogJson {
    return {
      txHash: this.txHash.toString(),
      blockNumber: this.blockNumber,
      blockTimestamp: this.blockTimestamp.toString(),
      logData: this.logData.map((f) => f.toString()),
      noteHashes: this.noteHashes.map((f) => f.toString()),
      firstNullifier: this.firstNullifier.toString(),
    };
  }

  static fromJSON(json: unknown, path = 'log'): TxScopedL2Log {
    const o = readObject(json, path);
    return new TxScopedL2Log(
      readTxHash(o.txHash, path, 'txHash'),
      readU32(o.blockNumber, path, 'blockNumber'),
      readBigInt(o.blockTimestamp, path, 'blockTimestamp', U64_MAX),
      readFrArray(o.logData, path, 'logData'),
      readFrArray(o.noteHashes, path, 'noteHashes'),
      readFr(o.firstNullifier, path, 'firstNullifier'),
    );
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(32 + 4 + 8 + 8 + 32 * (this.logData.length + this.noteHashes.length + 1));
    w.writeField(this.txHash.value);
    w.writeU32(this.blockNumber);
    w.writeU64(this.blockTimestamp);
    w.writeU32(this.logData.length);
    for (const f of this.logData) w.writeFr(f);
    w.writeU32(this.noteHashes.length);
    for (const f of this.noteHashes) w.writeFr(f);
    w.writeFr(this.firstNullifier);
    return w.toBuffer();
  }

  static fromBuffer(buf: Uint8Array, name = 'txScopedL2Log'): TxScopedL2Log {
    const r = new BufferReader(buf);
    const txHash = new TxHash(readField32(r.readBytes(32, name, 'txHash')));
    const blockNumber = r.readU32(name, 'blockNumber');
    const blockTimestamp = r.readU64(name, 'blockTimestamp');
    const logData = readVector(r, name, 'logData');
    const noteHashes = readVector(r, name, 'noteHashes');
    const firstNullifier = r.readFr(name, 'firstNullifier');
    r.assertEnd(name);
    return new TxScopedL2Log(txHash, blockNumber, blockTimestamp, logData, noteHashes, firstNullifier);
  }
}

function readVector(r: BufferReader, name: string, key: string): Fr[] {
  const n = r.readU32(name, key);
  if (n * 32 > r.remaining) throw r.error(name, key, `claims ${n} fields, more than the bytes left`);
  const out = new Array<Fr>(n);
  for (let i = 0; i < n; i++) out[i] = r.readFr(name, key);
  return out;
}
