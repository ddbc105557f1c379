import { AztecAddress } from '../aztec-address.js';
import { EthAddress } from '../eth-address.js';
import { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import type { FieldWriter } from '../serialize/field-writer.js';

/**
 * An L2-to-L1 message as the kernel outputs it: the L1 recipient, the content, and the L2 contract that sent
 * it. Binary: recipient (20 B), content (32 B), contract (32 B); fields: 3 in that order.
 */
export class ScopedL2ToL1Message {
  static readonly SIZE_IN_BYTES = 84;
  static readonly FIELD_COUNT = 3;
  static readonly EMPTY = new ScopedL2ToL1Message(EthAddress.ZERO, Fr.ZERO, AztecAddress.ZERO);

  constructor(
    readonly recipient: EthAddress,
    readonly content: Fr,
    readonly contractAddress: AztecAddress,
  ) {}

  isEmpty(): boolean {
    return this.recipient.isZero() && this.content.isZero() && this.contractAddress.isZero();
  }

  static read(r: BufferReader, name: string, index?: number | string): ScopedL2ToL1Message {
    const recipientBytes = r.readBytes(20, name, index);
    const content = r.readFr(name, index);
    const contract = r.readFieldValue(name, index);
    if (content.isZero() && contract === 0n && recipientBytes.every((b) => b === 0)) return ScopedL2ToL1Message.EMPTY;
    return new ScopedL2ToL1Message(EthAddress.fromBuffer(recipientBytes), content, new AztecAddress(contract));
  }

  write(w: BufferWriter): void {
    w.writeBytes(this.recipient.bytes);
    w.writeFr(this.content);
    w.writeField(this.contractAddress.value);
  }

  writeFields(f: FieldWriter): void {
    f.bytesAsField(this.recipient.bytes);
    f.fr(this.content);
    f.field(this.contractAddress.value);
  }
}
