import { Fr } from '../fr.js';
import { GasSettings } from '../gas/gas-settings.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import type { FieldWriter } from '../serialize/field-writer.js';

/** Which chain a tx is for (replay protection) and its gas settings. Binary: chainId, version, gas settings. */
export class TxContext {
  static readonly SIZE_IN_BYTES = 64 + GasSettings.SIZE_IN_BYTES;
  static readonly FIELD_COUNT = 2 + GasSettings.FIELD_COUNT;

  constructor(
    /** The L1 chain id. */
    readonly chainId: Fr,
    /** The rollup version. */
    readonly version: Fr,
    readonly gasSettings: GasSettings,
  ) {}

  static empty(): TxContext {
    return new TxContext(Fr.ZERO, Fr.ZERO, GasSettings.empty());
  }

  static read(r: BufferReader, name: string): TxContext {
    return new TxContext(
      r.readFr(name, 'chainId'),
      r.readFr(name, 'version'),
      GasSettings.read(r, `${name}.gasSettings`),
    );
  }

  write(w: BufferWriter): void {
    w.writeFr(this.chainId);
    w.writeFr(this.version);
    this.gasSettings.write(w);
  }

  writeFields(f: FieldWriter): void {
    f.fr(this.chainId);
    f.fr(this.version);
    this.gasSettings.writeFields(f);
  }
}
