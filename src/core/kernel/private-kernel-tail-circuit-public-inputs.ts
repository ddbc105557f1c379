import { AztecAddress } from '../aztec-address.js';
import {
  DomainSeparator,
  PRIVATE_TO_PUBLIC_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
  PRIVATE_TO_ROLLUP_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
} from '../constants.js';
import type { Fr } from '../fr.js';
import { Gas } from '../gas/gas.js';
import type { GasSettings } from '../gas/gas-settings.js';
import type { PrivateLog } from '../logs/private-log.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import { FieldWriter } from '../serialize/field-writer.js';
import { TxConstantData } from '../tx/tx-constant-data.js';
import { TxHash } from '../tx-hash.js';
import { PartialPrivateTailPublicInputsForPublic } from './partial-private-tail-public-inputs-for-public.js';
import { PrivateToRollupAccumulatedData } from './private-to-rollup-accumulated-data.js';
import type { PublicCallRequest } from './public-call-request.js';
import type { ScopedL2ToL1Message } from './scoped-l2-to-l1-message.js';
import type { ScopedLogHash } from './scoped-log-hash.js';

/**
 * The public output of the private kernel tail circuit: the binary `Tx.data` (4.1.2
 * kernel/private_kernel_tail_circuit_public_inputs.ts, docs/aztec-facts.md section 2.1).
 *
 * Binary: isForPublic (1 B), constants (648 B), gasUsed (8 B), feePayer (32 B), expirationTimestamp (u64),
 * then either the public part (82,025 B; 82,722 B in all) or the rollup side effects (37,860 B; 38,557 B).
 *
 * Exactly one of `forRollup` (a tx without public calls) and `forPublic` is set. The tx hash is
 * Poseidon2 over the fields of the circuit's public inputs "to rollup" (separator PRIVATE_TX_HASH,
 * 1,281 fields: constants, side effects, gasUsed, feePayer, expirationTimestamp) or "to public"
 * (PUBLIC_TX_HASH, 2,784 fields: constants, non-revertible, revertible, teardown call, gasUsed, feePayer,
 * expirationTimestamp). Note the order differs from the binary: the flag goes away and the gas, fee payer and
 * expiration move after the side effects.
 */
export class PrivateKernelTailCircuitPublicInputs {
  static readonly HEADER_SIZE_IN_BYTES = 1 + TxConstantData.SIZE_IN_BYTES + Gas.SIZE_IN_BYTES + 32 + 8;
  static readonly ROLLUP_SIZE_IN_BYTES =
    PrivateKernelTailCircuitPublicInputs.HEADER_SIZE_IN_BYTES + PrivateToRollupAccumulatedData.SIZE_IN_BYTES;
  static readonly PUBLIC_SIZE_IN_BYTES =
    PrivateKernelTailCircuitPublicInputs.HEADER_SIZE_IN_BYTES + PartialPrivateTailPublicInputsForPublic.SIZE_IN_BYTES;

  constructor(
    readonly constants: TxConstantData,
    /** Gas used by private execution (plus teardown limits when there is a teardown). */
    readonly gasUsed: Gas,
    readonly feePayer: AztecAddress,
    /** Unix seconds after which the tx may no longer be included. */
    readonly expirationTimestamp: bigint,
    readonly forRollup: PrivateToRollupAccumulatedData | undefined,
    readonly forPublic: PartialPrivateTailPublicInputsForPublic | undefined,
  ) {
    if ((forRollup === undefined) === (forPublic === undefined)) {
      throw new Error('Exactly one of forRollup and forPublic must be set');
    }
    if (expirationTimestamp < 0n || expirationTimestamp > 0xffffffffffffffffn) {
      throw new RangeError(`expirationTimestamp must be a u64, got ${expirationTimestamp}`);
    }
  }

  get isForPublic(): boolean {
    return this.forPublic !== undefined;
  }

  get gasSettings(): GasSettings {
    return this.constants.txContext.gasSettings;
  }

  /** The tx hash (see the class comment). */
  computeTxHash(): TxHash {
    if (this.forPublic) {
      const f = new FieldWriter(PRIVATE_TO_PUBLIC_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH);
      this.writeHashFields(f);
      return new TxHash(f.hashWithSeparator(DomainSeparator.PUBLIC_TX_HASH));
    }
    const f = new FieldWriter(PRIVATE_TO_ROLLUP_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH);
    this.writeHashFields(f);
    return new TxHash(f.hashWithSeparator(DomainSeparator.PRIVATE_TX_HASH));
  }

  /** The fields the tx hash is computed over (the "to rollup" or "to public" public inputs). */
  toHashFields(): bigint[] {
    const f = new FieldWriter(
      this.forPublic
        ? PRIVATE_TO_PUBLIC_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH
        : PRIVATE_TO_ROLLUP_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH,
    );
    this.writeHashFields(f);
    return f.toBigInts();
  }

  private writeHashFields(f: FieldWriter): void {
    this.constants.writeFields(f);
    if (this.forPublic) this.forPublic.writeFields(f);
    else (this.forRollup as PrivateToRollupAccumulatedData).writeFields(f);
    this.gasUsed.writeFields(f);
    f.field(this.feePayer.value);
    f.u128(this.expirationTimestamp);
  }

  // Side effects across both phases (non-revertible first), as 4.1.2's getNonEmpty* helpers return them.

  getNonEmptyNullifiers(): Fr[] {
    return this.collect((d) => d.getNonEmptyNullifiers());
  }

  getNonEmptyNoteHashes(): Fr[] {
    return this.collect((d) => d.getNonEmptyNoteHashes());
  }

  getNonEmptyL2ToL1Msgs(): ScopedL2ToL1Message[] {
    return this.collect((d) => d.getNonEmptyL2ToL1Msgs());
  }

  getNonEmptyPrivateLogs(): PrivateLog[] {
    return this.collect((d) => d.getNonEmptyPrivateLogs());
  }

  getNonEmptyContractClassLogsHashes(): ScopedLogHash[] {
    return this.collect((d) => d.getNonEmptyContractClassLogsHashes());
  }

  getNonRevertiblePublicCallRequests(): PublicCallRequest[] {
    return this.forPublic ? this.forPublic.nonRevertibleAccumulatedData.getNonEmptyPublicCallRequests() : [];
  }

  getRevertiblePublicCallRequests(): PublicCallRequest[] {
    return this.forPublic ? this.forPublic.revertibleAccumulatedData.getNonEmptyPublicCallRequests() : [];
  }

  getTeardownPublicCallRequest(): PublicCallRequest | undefined {
    const t = this.forPublic?.publicTeardownCallRequest;
    return t && !t.isEmpty() ? t : undefined;
  }

  /** Every enqueued public call in execution order: setup, app logic, teardown. */
  getPublicCallRequests(): PublicCallRequest[] {
    const teardown = this.getTeardownPublicCallRequest();
    return [
      ...this.getNonRevertiblePublicCallRequests(),
      ...this.getRevertiblePublicCallRequests(),
      ...(teardown ? [teardown] : []),
    ];
  }

  numberOfPublicCallRequests(): number {
    return this.getPublicCallRequests().length;
  }

  private collect<T>(
    pick: (
      d: PrivateToRollupAccumulatedData | PartialPrivateTailPublicInputsForPublic['revertibleAccumulatedData'],
    ) => T[],
  ): T[] {
    if (this.forPublic) {
      return pick(this.forPublic.nonRevertibleAccumulatedData).concat(pick(this.forPublic.revertibleAccumulatedData));
    }
    return pick(this.forRollup as PrivateToRollupAccumulatedData);
  }

  static read(r: BufferReader, name = 'data'): PrivateKernelTailCircuitPublicInputs {
    const isForPublic = r.readBool(name, 'isForPublic');
    const constants = TxConstantData.read(r, joinPath(name, 'constants'));
    const gasUsed = Gas.read(r, joinPath(name, 'gasUsed'));
    const feePayer = new AztecAddress(r.readFieldValue(name, 'feePayer'));
    const expirationTimestamp = r.readU64(name, 'expirationTimestamp');
    if (isForPublic) {
      const forPublic = PartialPrivateTailPublicInputsForPublic.read(r, joinPath(name, 'forPublic'));
      return new PrivateKernelTailCircuitPublicInputs(
        constants,
        gasUsed,
        feePayer,
        expirationTimestamp,
        undefined,
        forPublic,
      );
    }
    const end = PrivateToRollupAccumulatedData.read(r, joinPath(name, 'forRollup.end'));
    return new PrivateKernelTailCircuitPublicInputs(constants, gasUsed, feePayer, expirationTimestamp, end, undefined);
  }

  write(w: BufferWriter): void {
    w.writeBool(this.isForPublic);
    this.constants.write(w);
    this.gasUsed.write(w);
    w.writeField(this.feePayer.value);
    w.writeU64(this.expirationTimestamp);
    if (this.forPublic) this.forPublic.write(w);
    else (this.forRollup as PrivateToRollupAccumulatedData).write(w);
  }

  getSize(): number {
    return this.isForPublic
      ? PrivateKernelTailCircuitPublicInputs.PUBLIC_SIZE_IN_BYTES
      : PrivateKernelTailCircuitPublicInputs.ROLLUP_SIZE_IN_BYTES;
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(this.getSize());
    this.write(w);
    return w.toBuffer();
  }

  /** Parses exactly one serialisation (38,557 or 82,722 bytes). */
  static fromBuffer(buf: Uint8Array, name = 'data'): PrivateKernelTailCircuitPublicInputs {
    const r = new BufferReader(buf);
    const d = PrivateKernelTailCircuitPublicInputs.read(r, name);
    r.assertEnd(name);
    return d;
  }
}
