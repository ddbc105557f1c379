import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import { readObject } from '../serialize/json-reader.js';
import { AppendOnlyTreeSnapshot, type AppendOnlyTreeSnapshotJson } from './append-only-tree-snapshot.js';

export interface PartialStateReferenceJson {
  noteHashTree: AppendOnlyTreeSnapshotJson;
  nullifierTree: AppendOnlyTreeSnapshotJson;
  publicDataTree: AppendOnlyTreeSnapshotJson;
}

/** Snapshots of the trees a block's txs write: note hashes, nullifiers, public data (in that order). */
export class PartialStateReference {
  static readonly SIZE_IN_BYTES = 3 * AppendOnlyTreeSnapshot.SIZE_IN_BYTES;
  static readonly FIELD_COUNT = 6;

  constructor(
    readonly noteHashTree: AppendOnlyTreeSnapshot,
    readonly nullifierTree: AppendOnlyTreeSnapshot,
    readonly publicDataTree: AppendOnlyTreeSnapshot,
  ) {}

  static empty(): PartialStateReference {
    const e = AppendOnlyTreeSnapshot.EMPTY;
    return new PartialStateReference(e, e, e);
  }

  isEmpty(): boolean {
    return this.noteHashTree.isEmpty() && this.nullifierTree.isEmpty() && this.publicDataTree.isEmpty();
  }

  equals(other: PartialStateReference): boolean {
    return (
      this.noteHashTree.equals(other.noteHashTree) &&
      this.nullifierTree.equals(other.nullifierTree) &&
      this.publicDataTree.equals(other.publicDataTree)
    );
  }

  static read(r: BufferReader, name: string): PartialStateReference {
    return new PartialStateReference(
      AppendOnlyTreeSnapshot.read(r, `${name}.noteHashTree`),
      AppendOnlyTreeSnapshot.read(r, `${name}.nullifierTree`),
      AppendOnlyTreeSnapshot.read(r, `${name}.publicDataTree`),
    );
  }

  write(w: BufferWriter): void {
    this.noteHashTree.write(w);
    this.nullifierTree.write(w);
    this.publicDataTree.write(w);
  }

  writeFields(f: FieldWriter): void {
    this.noteHashTree.writeFields(f);
    this.nullifierTree.writeFields(f);
    this.publicDataTree.writeFields(f);
  }

  toJSON(): PartialStateReferenceJson {
    return {
      noteHashTree: this.noteHashTree.toJSON(),
      nullifierTree: this.nullifierTree.toJSON(),
      publicDataTree: this.publicDataTree.toJSON(),
    };
  }

  static fromJSON(json: unknown, path = 'partial'): PartialStateReference {
    const o = readObject(json, path);
    return new PartialStateReference(
      AppendOnlyTreeSnapshot.fromJSON(o.noteHashTree, joinPath(path, 'noteHashTree')),
      AppendOnlyTreeSnapshot.fromJSON(o.nullifierTree, joinPath(path, 'nullifierTree')),
      AppendOnlyTreeSnapshot.fromJSON(o.publicDataTree, joinPath(path, 'publicDataTree')),
    );
  }
}
