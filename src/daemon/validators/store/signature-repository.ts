import type { Statement } from 'better-sqlite3';
import { EthAddress } from '../../../core/eth-address.js';
import type { SqliteDatabase } from '../../store/node-database.js';
import { statementOnFirstUse } from '../../store/statement-on-first-use.js';

/** What a signature was for (the 4.1.2 duties this node signs). */
export const SignatureKind = { proposal: 0, attestation: 1 } as const;
export type SignatureKind = (typeof SignatureKind)[keyof typeof SignatureKind];

/** One signature seen: by whom, for which slot, over which digest. */
export interface SignatureRecord {
  readonly slot: number;
  readonly kind: SignatureKind;
  readonly signer: EthAddress;
  /** The 32-byte digest signed. */
  readonly digest: Buffer;
  /** 65 bytes. */
  readonly signature: Buffer;
}

interface Raw {
  slot: number;
  kind: number;
  signer: Buffer;
  digest: Buffer;
  signature: Buffer;
}

/** validator_signature: every proposal and attestation signature seen, signed here or synced. */
export class ValidatorSignatureRepository {
  private readonly insertStmt: Statement<[number, number, Buffer, Buffer, Buffer]>;
  private readonly bySignerStmt: Statement<[number, number, Buffer], Raw>;
  private readonly bySlotStmt: Statement<[number], Raw>;
  private readonly pruneStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT OR IGNORE INTO validator_signature (slot, kind, signer, digest, signature) VALUES (?, ?, ?, ?, ?)',
    );
    this.bySignerStmt = statementOnFirstUse(
      db,
      'SELECT slot, kind, signer, digest, signature FROM validator_signature WHERE slot = ? AND kind = ? AND signer = ?',
    );
    this.bySlotStmt = statementOnFirstUse(
      db,
      'SELECT slot, kind, signer, digest, signature FROM validator_signature WHERE slot = ?',
    );
    this.pruneStmt = statementOnFirstUse(db, 'DELETE FROM validator_signature WHERE slot < ?');
  }

  /** Records a signature; returns false when the same signer already signed this exact digest for the slot. */
  insert(r: SignatureRecord): boolean {
    return this.insertStmt.run(r.slot, r.kind, r.signer.bytes, r.digest, r.signature).changes > 0;
  }

  /** What a signer signed for a slot and duty (more than one digest is equivocation). */
  bySigner(slot: number, kind: SignatureKind, signer: EthAddress): SignatureRecord[] {
    return this.bySignerStmt.all(slot, kind, signer.bytes).map(toRecord);
  }

  bySlot(slot: number): SignatureRecord[] {
    return this.bySlotStmt.all(slot).map(toRecord);
  }

  pruneBefore(slot: number): void {
    this.pruneStmt.run(slot);
  }
}

function toRecord(r: Raw): SignatureRecord {
  return {
    slot: r.slot,
    kind: r.kind as SignatureKind,
    signer: EthAddress.fromBuffer(r.signer),
    digest: r.digest,
    signature: r.signature,
  };
}
