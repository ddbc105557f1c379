import type { SqliteDatabase } from '../../store/node-database.js';
import { CommitteeRepository } from './committee-repository.js';
import { SentinelHistoryRepository } from './sentinel-history-repository.js';
import { SentinelPerformanceRepository } from './sentinel-performance-repository.js';
import { ValidatorSignatureRepository } from './signature-repository.js';
import { SlashOffenseRepository } from './slash-offense-repository.js';
import { SlashVoteRepository } from './slash-vote-repository.js';
import { ValidatorMetaRepository } from './validator-meta-repository.js';

/** The validator tables (migration 400), one repository each, over the node's single database. */
export class ValidatorStore {
  readonly committees: CommitteeRepository;
  readonly signatures: ValidatorSignatureRepository;
  readonly history: SentinelHistoryRepository;
  readonly performance: SentinelPerformanceRepository;
  readonly offenses: SlashOffenseRepository;
  readonly votes: SlashVoteRepository;
  readonly meta: ValidatorMetaRepository;

  constructor(readonly db: SqliteDatabase) {
    this.committees = new CommitteeRepository(db);
    this.signatures = new ValidatorSignatureRepository(db);
    this.history = new SentinelHistoryRepository(db);
    this.performance = new SentinelPerformanceRepository(db);
    this.offenses = new SlashOffenseRepository(db);
    this.votes = new SlashVoteRepository(db);
    this.meta = new ValidatorMetaRepository(db);
  }
}
