import { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { readFr, readObject } from '../serialize/json-reader.js';

export interface PublicDataWriteJson {
  leafSlot: string;
  value: string;
}

/** A write to the public data tree: the (already siloed) leaf slot and its new value. Binary: 2 x 32 B. */
export class PublicDataWrite {
  static readonly SIZE_IN_BYTES = 64;

  constructor(
    readonly leafSlot: Fr,
    readonly value: Fr,
  ) {}

  static empty(): PublicDataWrite {
    return new PublicDataWrite(Fr.ZERO, Fr.ZERO);
  }

  isEmpty(): boolean {
    return this.leafSlot.isZero() && this.value.isZero();
  }

  equals(other: PublicDataWrite): boolean {
    return this.leafSlot.equals(other.leafSlot) && this.value.equals(other.value);
  }

  static read(r: BufferReader, name: string, index?: number | string): PublicDataWrite {
    const leafSlot = r.readFr(name, index);
    return new PublicDataWrite(leafSlot, r.readFr(name, index));
  }

  write(w: BufferWriter): void {
    w.writeFr(this.leafSlot);
    w.writeFr(this.value);
  }

  toJSON(): PublicDataWriteJson {
    return { leafSlot: this.leafSlot.toString(), value: this.value.toString() };
  }

  static fromJSON(json: unknown, path = 'publicDataWrite'): PublicDataWrite {
    const o = readObject(json, path);
    return new PublicDataWrite(readFr(o.leafSlot, path, 'leafSlot'), readFr(o.value, path, 'value'));
  }
}
