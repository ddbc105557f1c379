import type { Statement } from 'better-sqlite3';
import { CommitteeAttestation } from '../../core/block/committee-attestation.js';
import { EthAddress } from '../../core/eth-address.js';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/** The signatures a checkpoint was published with. */
export interface CheckpointSignatures {
  /** The whole committee in order, signed or not (4.1.2 CommitteeAttestation[]). */
  readonly attestations: readonly CommitteeAttestation[];
  /** Known when this node proposed the checkpoint (a synced one carries attestations only). */
  readonly proposer?: EthAddress;
  /** The proposer's 65-byte signature over the checkpoint proposal. */
  readonly proposerSignature?: Buffer;
  /** The L1 account that published it. */
  readonly publisher?: EthAddress;
}

interface Raw {
  attestations: Buffer;
  proposer: Buffer | null;
  proposer_signature: Buffer | null;
  publisher: Buffer | null;
}

/** chain_checkpoint_attestation: a checkpoint's signatures, deleted with the checkpoint (foreign key cascade). */
export class CheckpointAttestationRepository {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[number], Raw>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT INTO chain_checkpoint_attestation (checkpoint, attestations, proposer, proposer_signature, publisher) VALUES (?, ?, ?, ?, ?)',
    );
    this.getStmt = statementOnFirstUse(
      db,
      'SELECT attestations, proposer, proposer_signature, publisher FROM chain_checkpoint_attestation WHERE checkpoint = ?',
    );
  }

  /** Inside the transaction that inserts the checkpoint (the row refers to it). */
  insert(checkpoint: number, s: CheckpointSignatures): void {
    this.insertStmt.run(
      checkpoint,
      CommitteeAttestation.encodeList(s.attestations),
      s.proposer?.bytes ?? null,
      s.proposerSignature ?? null,
      s.publisher?.bytes ?? null,
    );
  }

  get(checkpoint: number): CheckpointSignatures | undefined {
    const r = this.getStmt.get(checkpoint);
    if (!r) return undefined;
    return {
      attestations: CommitteeAttestation.decodeList(r.attestations),
      proposer: r.proposer ? EthAddress.fromBuffer(r.proposer) : undefined,
      proposerSignature: r.proposer_signature ?? undefined,
      publisher: r.publisher ? EthAddress.fromBuffer(r.publisher) : undefined,
    };
  }
}
