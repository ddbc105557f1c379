import { MAX_ENQUEUED_CALLS_PER_TX } from '../constants.js';
import type { Fr } from '../fr.js';
import type { PrivateLog } from '../logs/private-log.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import {
  PrivateAccumulatedSideEffects,
  pad,
  padSideEffects,
  readSideEffectArrays,
  type SideEffects,
} from './private-accumulated-side-effects.js';
import { PublicCallRequest } from './public-call-request.js';
import type { ScopedL2ToL1Message } from './scoped-l2-to-l1-message.js';
import type { ScopedLogHash } from './scoped-log-hash.js';

/**
 * The side effects of one phase (non-revertible or revertible) of a tx with public calls, plus the public
 * calls enqueued in that phase (32 slots). 40,964 B; 1,371 fields.
 */
export class PrivateToPublicAccumulatedData extends PrivateAccumulatedSideEffects {
  static override readonly SIZE_IN_BYTES =
    PrivateAccumulatedSideEffects.SIZE_IN_BYTES + PublicCallRequest.SIZE_IN_BYTES * MAX_ENQUEUED_CALLS_PER_TX;
  static override readonly FIELD_COUNT =
    PrivateAccumulatedSideEffects.FIELD_COUNT + PublicCallRequest.FIELD_COUNT * MAX_ENQUEUED_CALLS_PER_TX;

  constructor(
    noteHashes: readonly Fr[],
    nullifiers: readonly Fr[],
    l2ToL1Msgs: readonly ScopedL2ToL1Message[],
    privateLogs: readonly PrivateLog[],
    contractClassLogsHashes: readonly ScopedLogHash[],
    readonly publicCallRequests: readonly PublicCallRequest[],
  ) {
    super(noteHashes, nullifiers, l2ToL1Msgs, privateLogs, contractClassLogsHashes);
    if (publicCallRequests.length !== MAX_ENQUEUED_CALLS_PER_TX) {
      throw new RangeError(
        `publicCallRequests must have exactly ${MAX_ENQUEUED_CALLS_PER_TX} entries, got ${publicCallRequests.length}`,
      );
    }
  }

  static empty(): PrivateToPublicAccumulatedData {
    return PrivateToPublicAccumulatedData.fromSideEffects({}, []);
  }

  static fromSideEffects(s: SideEffects, calls: readonly PublicCallRequest[]): PrivateToPublicAccumulatedData {
    const p = padSideEffects(s);
    return new PrivateToPublicAccumulatedData(
      p.noteHashes,
      p.nullifiers,
      p.l2ToL1Msgs,
      p.privateLogs,
      p.contractClassLogsHashes,
      pad('publicCallRequests', calls, MAX_ENQUEUED_CALLS_PER_TX, PublicCallRequest.EMPTY),
    );
  }

  getNonEmptyPublicCallRequests(): PublicCallRequest[] {
    return this.publicCallRequests.filter((c) => !c.isEmpty());
  }

  static read(r: BufferReader, name: string): PrivateToPublicAccumulatedData {
    const a = readSideEffectArrays(r, name);
    const path = joinPath(name, 'publicCallRequests');
    const calls = new Array<PublicCallRequest>(MAX_ENQUEUED_CALLS_PER_TX);
    for (let i = 0; i < MAX_ENQUEUED_CALLS_PER_TX; i++) calls[i] = PublicCallRequest.read(r, path, i);
    return new PrivateToPublicAccumulatedData(
      a.noteHashes,
      a.nullifiers,
      a.l2ToL1Msgs,
      a.privateLogs,
      a.contractClassLogsHashes,
      calls,
    );
  }

  write(w: BufferWriter): void {
    this.writeSideEffects(w);
    for (const c of this.publicCallRequests) c.write(w);
  }

  writeFields(f: FieldWriter): void {
    this.writeSideEffectFields(f);
    for (const c of this.publicCallRequests) c.writeFields(f);
  }
}
