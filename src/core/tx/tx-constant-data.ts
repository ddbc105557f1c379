import { BlockHeader } from '../block/block-header.js';
import { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import { TxContext } from './tx-context.js';

/**
 * What a tx was built against: the anchor block header (whose hash must be in the archive), the chain and
 * gas settings, and the circuit and protocol contract commitments. Binary 648 B; 34 fields.
 */
export class TxConstantData {
  static readonly SIZE_IN_BYTES = BlockHeader.SIZE_IN_BYTES + TxContext.SIZE_IN_BYTES + 64;
  static readonly FIELD_COUNT = BlockHeader.FIELD_COUNT + TxContext.FIELD_COUNT + 2;

  constructor(
    readonly anchorBlockHeader: BlockHeader,
    readonly txContext: TxContext,
    readonly vkTreeRoot: Fr,
    readonly protocolContractsHash: Fr,
  ) {}

  static empty(): TxConstantData {
    return new TxConstantData(BlockHeader.empty(), TxContext.empty(), Fr.ZERO, Fr.ZERO);
  }

  static read(r: BufferReader, name: string): TxConstantData {
    return new TxConstantData(
      BlockHeader.read(r, `${name}.anchorBlockHeader`),
      TxContext.read(r, `${name}.txContext`),
      r.readFr(name, 'vkTreeRoot'),
      r.readFr(name, 'protocolContractsHash'),
    );
  }

  write(w: BufferWriter): void {
    this.anchorBlockHeader.write(w);
    this.txContext.write(w);
    w.writeFr(this.vkTreeRoot);
    w.writeFr(this.protocolContractsHash);
  }

  writeFields(f: FieldWriter): void {
    this.anchorBlockHeader.writeFields(f);
    this.txContext.writeFields(f);
    f.fr(this.vkTreeRoot);
    f.fr(this.protocolContractsHash);
  }
}
