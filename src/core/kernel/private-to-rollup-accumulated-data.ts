import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import {
  PrivateAccumulatedSideEffects,
  padSideEffects,
  readSideEffectArrays,
  type SideEffects,
} from './private-accumulated-side-effects.js';

/** The side effects of a tx without public calls, as the kernel tail hands them to the rollup (37,860 B). */
export class PrivateToRollupAccumulatedData extends PrivateAccumulatedSideEffects {
  static empty(): PrivateToRollupAccumulatedData {
    return PrivateToRollupAccumulatedData.fromSideEffects({});
  }

  /** Pads the chosen side effects to the fixed lengths. */
  static fromSideEffects(s: SideEffects): PrivateToRollupAccumulatedData {
    const p = padSideEffects(s);
    return new PrivateToRollupAccumulatedData(
      p.noteHashes,
      p.nullifiers,
      p.l2ToL1Msgs,
      p.privateLogs,
      p.contractClassLogsHashes,
    );
  }

  static read(r: BufferReader, name: string): PrivateToRollupAccumulatedData {
    const a = readSideEffectArrays(r, name);
    return new PrivateToRollupAccumulatedData(
      a.noteHashes,
      a.nullifiers,
      a.l2ToL1Msgs,
      a.privateLogs,
      a.contractClassLogsHashes,
    );
  }

  write(w: BufferWriter): void {
    this.writeSideEffects(w);
  }

  writeFields(f: FieldWriter): void {
    this.writeSideEffectFields(f);
  }
}
