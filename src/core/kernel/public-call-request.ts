import { AztecAddress } from '../aztec-address.js';
import { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import type { FieldWriter } from '../serialize/field-writer.js';

/**
 * A public function call enqueued by private execution. The calldata itself travels beside the kernel output
 * (`Tx.publicFunctionCalldata`); the request commits to it by hash. Binary: msgSender, contract (32 B each),
 * isStaticCall (1 B), calldataHash (32 B) = 97 B; fields: 4.
 */
export class PublicCallRequest {
  static readonly SIZE_IN_BYTES = 97;
  static readonly FIELD_COUNT = 4;
  static readonly EMPTY = new PublicCallRequest(AztecAddress.ZERO, AztecAddress.ZERO, false, Fr.ZERO);

  constructor(
    readonly msgSender: AztecAddress,
    readonly contractAddress: AztecAddress,
    readonly isStaticCall: boolean,
    readonly calldataHash: Fr,
  ) {}

  isEmpty(): boolean {
    return this.msgSender.isZero() && this.contractAddress.isZero() && !this.isStaticCall && this.calldataHash.isZero();
  }

  static read(r: BufferReader, name: string, index?: number | string): PublicCallRequest {
    const sender = r.readFieldValue(name, index);
    const contract = r.readFieldValue(name, index);
    const isStatic = r.readBool(name, index);
    const calldataHash = r.readFr(name, index);
    if (sender === 0n && contract === 0n && !isStatic && calldataHash.isZero()) return PublicCallRequest.EMPTY;
    return new PublicCallRequest(new AztecAddress(sender), new AztecAddress(contract), isStatic, calldataHash);
  }

  write(w: BufferWriter): void {
    w.writeField(this.msgSender.value);
    w.writeField(this.contractAddress.value);
    w.writeBool(this.isStaticCall);
    w.writeFr(this.calldataHash);
  }

  writeFields(f: FieldWriter): void {
    f.field(this.msgSender.value);
    f.field(this.contractAddress.value);
    f.bool(this.isStaticCall);
    f.fr(this.calldataHash);
  }
}
