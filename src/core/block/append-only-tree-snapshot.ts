import { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import { readFr, readObject, readU32 } from '../serialize/json-reader.js';

export interface AppendOnlyTreeSnapshotJson {
  root: string;
  nextAvailableLeafIndex: number;
}

/** A tree's root and size (the index the next leaf goes to). Binary: root (32 B) then u32 size. */
export class AppendOnlyTreeSnapshot {
  static readonly SIZE_IN_BYTES = 36;
  static readonly FIELD_COUNT = 2;
  static readonly EMPTY = new AppendOnlyTreeSnapshot(Fr.ZERO, 0);

  constructor(
    readonly root: Fr,
    readonly nextAvailableLeafIndex: number,
  ) {
    if (
      !Number.isInteger(nextAvailableLeafIndex) ||
      nextAvailableLeafIndex < 0 ||
      nextAvailableLeafIndex > 0xffffffff
    ) {
      throw new RangeError(`nextAvailableLeafIndex must be a u32, got ${nextAvailableLeafIndex}`);
    }
  }

  static empty(): AppendOnlyTreeSnapshot {
    return AppendOnlyTreeSnapshot.EMPTY;
  }

  isEmpty(): boolean {
    return this.root.isZero() && this.nextAvailableLeafIndex === 0;
  }

  equals(other: AppendOnlyTreeSnapshot): boolean {
    return this.root.equals(other.root) && this.nextAvailableLeafIndex === other.nextAvailableLeafIndex;
  }

  static read(r: BufferReader, name: string): AppendOnlyTreeSnapshot {
    const root = r.readFr(name, 'root');
    return new AppendOnlyTreeSnapshot(root, r.readU32(name, 'nextAvailableLeafIndex'));
  }

  write(w: BufferWriter): void {
    w.writeFr(this.root);
    w.writeU32(this.nextAvailableLeafIndex);
  }

  writeFields(f: FieldWriter): void {
    f.fr(this.root);
    f.u32(this.nextAvailableLeafIndex);
  }

  toJSON(): AppendOnlyTreeSnapshotJson {
    return { root: this.root.toString(), nextAvailableLeafIndex: this.nextAvailableLeafIndex };
  }

  static fromJSON(json: unknown, path = 'snapshot'): AppendOnlyTreeSnapshot {
    const o = readObject(json, path);
    return new AppendOnlyTreeSnapshot(
      readFr(o.root, path, 'root'),
      readU32(o.nextAvailableLeafIndex, path, 'nextAvailableLeafIndex'),
    );
  }
}
