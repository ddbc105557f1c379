import type { BlockHash } from '../block-hash.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import { readInteger, readObject } from '../serialize/json-reader.js';
import { AppendOnlyTreeSnapshot, type AppendOnlyTreeSnapshotJson } from './append-only-tree-snapshot.js';
import { BlockHeader, type BlockHeaderJson } from './block-header.js';
import { Body, type BodyJson } from './body.js';

export interface L2BlockJson {
  archive: AppendOnlyTreeSnapshotJson;
  header: BlockHeaderJson;
  body: BodyJson;
  checkpointNumber: number;
  indexWithinCheckpoint: number;
}

/**
 * An L2 block (4.1.2 block/l2_block.ts): the archive after it, its header, its tx effects, and where it sits
 * in its checkpoint. The block number is the header's; the block hash is the header hash (not a field).
 * Binary (our storage, 4.1.2's L2Block.toBuffer order): header, archive, body, u32 checkpointNumber,
 * u32 indexWithinCheckpoint.
 */
export class L2Block {
  constructor(
    /** The archive tree after this block (its size is blockNumber + 1). */
    readonly archive: AppendOnlyTreeSnapshot,
    readonly header: BlockHeader,
    readonly body: Body,
    readonly checkpointNumber: number,
    /** 0 for the first block of its checkpoint, which alone inserts the checkpoint's L1-to-L2 messages. */
    readonly indexWithinCheckpoint: number,
  ) {
    for (const [k, v] of [
      ['checkpointNumber', checkpointNumber],
      ['indexWithinCheckpoint', indexWithinCheckpoint],
    ] as const) {
      if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`${k} must be a u32, got ${v}`);
    }
  }

  /** An empty block on this header: empty archive and body, checkpoint 0 (Chain.getBlock gives block 0 its genesis archive). */
  static empty(header: BlockHeader = BlockHeader.empty()): L2Block {
    return new L2Block(AppendOnlyTreeSnapshot.EMPTY, header, Body.empty(), 0, 0);
  }

  get number(): number {
    return this.header.globalVariables.blockNumber;
  }

  get slot(): number {
    return this.header.globalVariables.slotNumber;
  }

  get timestamp(): bigint {
    return this.header.globalVariables.timestamp;
  }

  hash(): BlockHash {
    return this.header.hash();
  }

  equals(other: L2Block): boolean {
    return this.toBuffer().equals(other.toBuffer());
  }

  static read(r: BufferReader, name = 'block'): L2Block {
    const header = BlockHeader.read(r, joinPath(name, 'header'));
    const archive = AppendOnlyTreeSnapshot.read(r, joinPath(name, 'archive'));
    const body = Body.read(r, joinPath(name, 'body'));
    return new L2Block(
      archive,
      header,
      body,
      r.readU32(name, 'checkpointNumber'),
      r.readU32(name, 'indexWithinCheckpoint'),
    );
  }

  write(w: BufferWriter): void {
    this.header.write(w);
    this.archive.write(w);
    this.body.write(w);
    w.writeU32(this.checkpointNumber);
    w.writeU32(this.indexWithinCheckpoint);
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(
      BlockHeader.SIZE_IN_BYTES + AppendOnlyTreeSnapshot.SIZE_IN_BYTES + this.body.getSize() + 8,
    );
    this.write(w);
    return w.toBuffer();
  }

  static fromBuffer(buf: Uint8Array, name = 'block'): L2Block {
    const r = new BufferReader(buf);
    const b = L2Block.read(r, name);
    r.assertEnd(name);
    return b;
  }

  toJSON(): L2BlockJson {
    return {
      archive: this.archive.toJSON(),
      header: this.header.toJSON(),
      body: this.body.toJSON(),
      checkpointNumber: this.checkpointNumber,
      indexWithinCheckpoint: this.indexWithinCheckpoint,
    };
  }

  static fromJSON(json: unknown, path = 'block'): L2Block {
    const o = readObject(json, path);
    return new L2Block(
      AppendOnlyTreeSnapshot.fromJSON(o.archive, joinPath(path, 'archive')),
      BlockHeader.fromJSON(o.header, joinPath(path, 'header')),
      Body.fromJSON(o.body, joinPath(path, 'body')),
      readInteger(o.checkpointNumber, path, 'checkpointNumber', 0, 0xffffffff),
      readInteger(o.indexWithinCheckpoint, path, 'indexWithinCheckpoint', 0, 0xffffffff),
    );
  }
}
