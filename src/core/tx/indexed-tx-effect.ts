import { BlockHash } from '../block-hash.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import { readBlockHash, readInteger, readObject } from '../serialize/json-reader.js';
import { TxEffect, type TxEffectJson } from './tx-effect.js';

export interface IndexedTxEffectJson {
  l2BlockNumber: number;
  l2BlockHash: string;
  data: TxEffectJson;
  txIndexInBlock: number;
}

/** A tx effect with the block it is in and its position there (`node_getTxEffect`, docs/aztec-facts.md section 2.3). */
export class IndexedTxEffect {
  constructor(
    readonly l2BlockNumber: number,
    readonly l2BlockHash: BlockHash,
    readonly data: TxEffect,
    readonly txIndexInBlock: number,
  ) {}

  toJSON(): IndexedTxEffectJson {
    return {
      l2BlockNumber: this.l2BlockNumber,
      l2BlockHash: this.l2BlockHash.toString(),
      data: this.data.toJSON(),
      txIndexInBlock: this.txIndexInBlock,
    };
  }

  static fromJSON(json: unknown, path = 'indexedTxEffect'): IndexedTxEffect {
    const o = readObject(json, path);
    return new IndexedTxEffect(
      readInteger(o.l2BlockNumber, path, 'l2BlockNumber'),
      readBlockHash(o.l2BlockHash, path, 'l2BlockHash'),
      TxEffect.fromJSON(o.data, joinPath(path, 'data')),
      readInteger(o.txIndexInBlock, path, 'txIndexInBlock'),
    );
  }

  /** 4.1.2's archiver layout: block hash, u32 block number, u32 index, tx effect. */
  toBuffer(): Buffer {
    const w = new BufferWriter(40 + this.data.getSize());
    w.writeField(this.l2BlockHash.value);
    w.writeU32(this.l2BlockNumber);
    w.writeU32(this.txIndexInBlock);
    this.data.write(w);
    return w.toBuffer();
  }

  static fromBuffer(buf: Uint8Array, name = 'indexedTxEffect'): IndexedTxEffect {
    const r = new BufferReader(buf);
    const hash = new BlockHash(r.readFieldValue(name, 'l2BlockHash'));
    const blockNumber = r.readU32(name, 'l2BlockNumber');
    const index = r.readU32(name, 'txIndexInBlock');
    const data = TxEffect.read(r, joinPath(name, 'data'));
    r.assertEnd(name);
    return new IndexedTxEffect(blockNumber, hash, data, index);
  }
}
