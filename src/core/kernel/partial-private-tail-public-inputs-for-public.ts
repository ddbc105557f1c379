import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import { PrivateToPublicAccumulatedData } from './private-to-public-accumulated-data.js';
import { PublicCallRequest } from './public-call-request.js';

/**
 * The part of the kernel tail output specific to a tx with public calls: the non-revertible (setup) and
 * revertible (app logic) phases and the teardown call. Binary 82,025 B.
 */
export class PartialPrivateTailPublicInputsForPublic {
  static readonly SIZE_IN_BYTES = 2 * PrivateToPublicAccumulatedData.SIZE_IN_BYTES + PublicCallRequest.SIZE_IN_BYTES;

  constructor(
    readonly nonRevertibleAccumulatedData: PrivateToPublicAccumulatedData,
    readonly revertibleAccumulatedData: PrivateToPublicAccumulatedData,
    readonly publicTeardownCallRequest: PublicCallRequest,
  ) {}

  get needsSetup(): boolean {
    return !(this.nonRevertibleAccumulatedData.publicCallRequests[0] as PublicCallRequest).isEmpty();
  }

  get needsAppLogic(): boolean {
    return !(this.revertibleAccumulatedData.publicCallRequests[0] as PublicCallRequest).isEmpty();
  }

  get needsTeardown(): boolean {
    return !this.publicTeardownCallRequest.isEmpty();
  }

  static read(r: BufferReader, name: string): PartialPrivateTailPublicInputsForPublic {
    return new PartialPrivateTailPublicInputsForPublic(
      PrivateToPublicAccumulatedData.read(r, `${name}.nonRevertibleAccumulatedData`),
      PrivateToPublicAccumulatedData.read(r, `${name}.revertibleAccumulatedData`),
      PublicCallRequest.read(r, name, 'publicTeardownCallRequest'),
    );
  }

  write(w: BufferWriter): void {
    this.nonRevertibleAccumulatedData.write(w);
    this.revertibleAccumulatedData.write(w);
    this.publicTeardownCallRequest.write(w);
  }

  writeFields(f: FieldWriter): void {
    this.nonRevertibleAccumulatedData.writeFields(f);
    this.revertibleAccumulatedData.writeFields(f);
    this.publicTeardownCallRequest.writeFields(f);
  }
}
