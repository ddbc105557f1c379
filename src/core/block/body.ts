import { BLOBS_PER_CHECKPOINT, FIELDS_PER_BLOB } from '../constants.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import { readArray, readObject } from '../serialize/json-reader.js';
import { TxEffect, type TxEffectJson } from '../tx/tx-effect.js';

export interface BodyJson {
  txEffects: TxEffectJson[];
}

/** 4.1.2's bound when reading a body: one blob field per tx effect at the very least. */
export const MAX_TX_EFFECTS_PER_BODY = BLOBS_PER_CHECKPOINT * FIELDS_PER_BLOB;

/** A block's tx effects in block order. Binary: u32 count then each TxEffect. */
export class Body {
  constructor(readonly txEffects: readonly TxEffect[]) {}

  static empty(): Body {
    return new Body([]);
  }

  equals(other: Body): boolean {
    return (
      this.txEffects.length === other.txEffects.length &&
      this.txEffects.every((e, i) => e.equals(other.txEffects[i] as TxEffect))
    );
  }

  static read(r: BufferReader, name = 'body'): Body {
    const n = r.readU32(name, 'txEffects');
    if (n > MAX_TX_EFFECTS_PER_BODY) {
      throw r.error(name, 'txEffects', `${n} tx effects, at most ${MAX_TX_EFFECTS_PER_BODY} allowed`);
    }
    const path = joinPath(name, 'txEffects');
    const effects = new Array<TxEffect>(n);
    for (let i = 0; i < n; i++) effects[i] = TxEffect.read(r, joinPath(path, i));
    return new Body(effects);
  }

  write(w: BufferWriter): void {
    w.writeU32(this.txEffects.length);
    for (const e of this.txEffects) e.write(w);
  }

  getSize(): number {
    let n = 4;
    for (const e of this.txEffects) n += e.getSize();
    return n;
  }

  toJSON(): BodyJson {
    return { txEffects: this.txEffects.map((e) => e.toJSON()) };
  }

  static fromJSON(json: unknown, path = 'body'): Body {
    const o = readObject(json, path);
    const effectsPath = joinPath(path, 'txEffects');
    const arr = readArray(o.txEffects, path, 'txEffects', MAX_TX_EFFECTS_PER_BODY);
    return new Body(arr.map((e, i) => TxEffect.fromJSON(e, joinPath(effectsPath, i))));
  }
}
