import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import { readObject } from '../serialize/json-reader.js';
import { AppendOnlyTreeSnapshot, type AppendOnlyTreeSnapshotJson } from './append-only-tree-snapshot.js';
import { PartialStateReference, type PartialStateReferenceJson } from './partial-state-reference.js';

export interface StateReferenceJson {
  l1ToL2MessageTree: AppendOnlyTreeSnapshotJson;
  partial: PartialStateReferenceJson;
}

/** Snapshots of every tree but the archive: the L1-to-L2 message tree first, then the partial state. */
export class StateReference {
  static readonly SIZE_IN_BYTES = AppendOnlyTreeSnapshot.SIZE_IN_BYTES + PartialStateReference.SIZE_IN_BYTES;
  static readonly FIELD_COUNT = 8;

  constructor(
    readonly l1ToL2MessageTree: AppendOnlyTreeSnapshot,
    readonly partial: PartialStateReference,
  ) {}

  static empty(): StateReference {
    return new StateReference(AppendOnlyTreeSnapshot.EMPTY, PartialStateReference.empty());
  }

  isEmpty(): boolean {
    return this.l1ToL2MessageTree.isEmpty() && this.partial.isEmpty();
  }

  equals(other: StateReference): boolean {
    return this.l1ToL2MessageTree.equals(other.l1ToL2MessageTree) && this.partial.equals(other.partial);
  }

  static read(r: BufferReader, name: string): StateReference {
    return new StateReference(
      AppendOnlyTreeSnapshot.read(r, `${name}.l1ToL2MessageTree`),
      PartialStateReference.read(r, `${name}.partial`),
    );
  }

  write(w: BufferWriter): void {
    this.l1ToL2MessageTree.write(w);
    this.partial.write(w);
  }

  writeFields(f: FieldWriter): void {
    this.l1ToL2MessageTree.writeFields(f);
    this.partial.writeFields(f);
  }

  toJSON(): StateReferenceJson {
    return { l1ToL2MessageTree: this.l1ToL2MessageTree.toJSON(), partial: this.partial.toJSON() };
  }

  static fromJSON(json: unknown, path = 'state'): StateReference {
    const o = readObject(json, path);
    return new StateReference(
      AppendOnlyTreeSnapshot.fromJSON(o.l1ToL2MessageTree, joinPath(path, 'l1ToL2MessageTree')),
      PartialStateReference.fromJSON(o.partial, joinPath(path, 'partial')),
    );
  }
}
