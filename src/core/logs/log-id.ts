import { BlockHash } from '../block-hash.js';
import { INITIAL_L2_BLOCK_NUM } from '../constants.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { DecodeError, joinPath } from '../serialize/decode-error.js';
import { readField32 } from '../serialize/field-bytes.js';
import { readBlockHash, readInteger, readObject, readTxHash } from '../serialize/json-reader.js';
import { TxHash } from '../tx-hash.js';

export interface LogIdJson {
  blockNumber: number;
  blockHash: string;
  txHash: string;
  txIndex: number;
  logIndex: number;
}

/**
 * Where a public or contract class log sits: block, tx within the block, log within the tx
 * (docs/aztec-facts.md section 2.5). Used as the paging cursor (`LogFilter.afterLog`). Binary (4.1.2 LogId.toBuffer):
 * u32 block number, block hash, tx hash, u32 tx index, u32 log index.
 */
export class LogId {
  static readonly SIZE_IN_BYTES = 4 + 32 + 32 + 4 + 4;

  constructor(
    readonly blockNumber: number,
    readonly blockHash: BlockHash,
    readonly txHash: TxHash,
    readonly txIndex: number,
    readonly logIndex: number,
  ) {
    if (!Number.isInteger(blockNumber) || blockNumber < INITIAL_L2_BLOCK_NUM || blockNumber > 0xffffffff) {
      throw new RangeError(`Invalid block number: ${blockNumber}`);
    }
    if (!Number.isInteger(txIndex) || txIndex < 0 || txIndex > 0xffffffff) {
      throw new RangeError(`Invalid tx index: ${txIndex}`);
    }
    if (!Number.isInteger(logIndex) || logIndex < 0 || logIndex > 0xffffffff) {
      throw new RangeError(`Invalid log index: ${logIndex}`);
    }
  }

  /** Orders log ids by position in the chain (block, then tx, then log). */
  static compare(a: LogId, b: LogId): number {
    return a.blockNumber - b.blockNumber || a.txIndex - b.txIndex || a.logIndex - b.logIndex;
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(LogId.SIZE_IN_BYTES);
    w.writeU32(this.blockNumber);
    w.writeField(this.blockHash.value);
    w.writeField(this.txHash.value);
    w.writeU32(this.txIndex);
    w.writeU32(this.logIndex);
    return w.toBuffer();
  }

  static fromBuffer(buf: Uint8Array, name = 'logId'): LogId {
    const r = new BufferReader(buf);
    const blockNumber = r.readU32(name, 'blockNumber');
    const blockHash = new BlockHash(r.readFieldValue(name, 'blockHash'));
    const txHash = new TxHash(readField32(r.readBytes(32, name, 'txHash')));
    const id = newLogId(name, blockNumber, blockHash, txHash, r.readU32(name, 'txIndex'), r.readU32(name, 'logIndex'));
    r.assertEnd(name);
    return id;
  }

  toJSON(): LogIdJson {
    return {
      blockNumber: this.blockNumber,
      blockHash: this.blockHash.toString(),
      txHash: this.txHash.toString(),
      txIndex: this.txIndex,
      logIndex: this.logIndex,
    };
  }

  static fromJSON(json: unknown, path = 'logId'): LogId {
    const o = readObject(json, path);
    return newLogId(
      path,
      readInteger(o.blockNumber, path, 'blockNumber'),
      readBlockHash(o.blockHash, path, 'blockHash'),
      readTxHash(o.txHash, path, 'txHash'),
      readInteger(o.txIndex, path, 'txIndex'),
      readInteger(o.logIndex, path, 'logIndex'),
    );
  }
}

function newLogId(path: string, ...args: ConstructorParameters<typeof LogId>): LogId {
  if (args[0] < INITIAL_L2_BLOCK_NUM) {
    throw new DecodeError(joinPath(path, 'blockNumber'), `logs live in blocks ${INITIAL_L2_BLOCK_NUM} and up`);
  }
  return new LogId(...args);
}
