import { worldStateMigration } from './100-world-state.js';
import { worldStateChecksumsMigration } from './110-world-state-checksums.js';
import { chainMigration } from './200-chain.js';
import { functionSignatureOrderMigration } from './201-function-signature-order.js';
import { contractInstanceUpdatesMigration } from './210-contract-instance-updates.js';
import { chainChecksumsMigration } from './220-chain-checksums.js';
import { stateOverridesMigration } from './230-state-overrides.js';
import { forkUpstreamMigration } from './240-fork-upstream.js';
import { mempoolMigration } from './300-mempool.js';
import { feeHeadersMigration } from './301-fee-headers.js';
import { validatorsMigration } from './400-validators.js';
import { l1Migration } from './600-l1.js';
import type { Migration } from './migration.js';

/** Every schema step of the node database, in version order. Add new steps at the end of their range. */
export const MIGRATIONS: readonly Migration[] = [
  worldStateMigration,
  worldStateChecksumsMigration,
  chainMigration,
  functionSignatureOrderMigration,
  contractInstanceUpdatesMigration,
  chainChecksumsMigration,
  stateOverridesMigration,
  forkUpstreamMigration,
  mempoolMigration,
  feeHeadersMigration,
  validatorsMigration,
  l1Migration,
];
