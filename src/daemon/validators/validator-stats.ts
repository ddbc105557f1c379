import type { StatusInSlot } from './store/sentinel-history-repository.js';
import { isProposerStatus, type ValidatorStatus } from './validator-status.js';

/** 4.1.2 ValidatorStats time stat (docs/aztec-facts.md section 2.9): the slot, its timestamp and ISO date. */
export interface ValidatorTimeStatJson {
  timestamp: string;
  slot: number;
  date: string;
}

export interface ValidatorMissedStatsJson {
  currentStreak: number;
  /** Left out when there were no relevant slots. */
  rate?: number;
  count: number;
  total: number;
}

/** 4.1.2 ValidatorStats, in wire JSON. */
export interface ValidatorStatsJson {
  address: string;
  lastProposal?: ValidatorTimeStatJson;
  lastAttestation?: ValidatorTimeStatJson;
  totalSlots: number;
  missedProposals: ValidatorMissedStatsJson;
  missedAttestations: ValidatorMissedStatsJson;
  history: { slot: number; status: ValidatorStatus }[];
}

/**
 * A validator's stats over a slot range (4.1.2 sentinel computeStatsForValidator): its last proposal (a checkpoint
 * mined or proposed) and last attestation, and for proposals and attestations apart how many of the relevant
 * slots it missed, the rate, and the streak of misses up to the latest one. `timestampOf` gives a slot's time.
 */
export function computeValidatorStats(
  address: string,
  history: readonly StatusInSlot[],
  fromSlot: number,
  toSlot: number,
  timestampOf: (slot: number) => bigint,
): ValidatorStatsJson {
  const inRange = history.filter((h) => h.slot >= fromSlot && h.slot <= toSlot);
  const time = (slot: number | undefined): ValidatorTimeStatJson | undefined => {
    if (slot === undefined) return undefined;
    const timestamp = timestampOf(slot);
    return { timestamp: timestamp.toString(), slot, date: new Date(Number(timestamp) * 1000).toISOString() };
  };
  const lastProposal = inRange
    .filter((h) => h.status === 'checkpoint-mined' || h.status === 'checkpoint-proposed')
    .at(-1);
  const lastAttestation = inRange.filter((h) => h.status === 'attestation-sent').at(-1);
  const proposal = time(lastProposal?.slot);
  const attestation = time(lastAttestation?.slot);
  // Optional keys are left out rather than null: 4.1.2's schema reads them as optional, not nullable.
  return {
    address,
    ...(proposal ? { lastProposal: proposal } : {}),
    ...(attestation ? { lastAttestation: attestation } : {}),
    totalSlots: inRange.length,
    missedProposals: missed(
      inRange.filter((h) => isProposerStatus(h.status)),
      (s) => s === 'checkpoint-missed' || s === 'blocks-missed',
    ),
    missedAttestations: missed(
      inRange.filter((h) => !isProposerStatus(h.status)),
      (s) => s === 'attestation-missed',
    ),
    history: inRange.map((h) => ({ slot: h.slot, status: h.status })),
  };
}

function missed(relevant: readonly StatusInSlot[], isMiss: (s: ValidatorStatus) => boolean): ValidatorMissedStatsJson {
  const count = relevant.filter((h) => isMiss(h.status)).length;
  let currentStreak = 0;
  for (let i = relevant.length - 1; i >= 0 && isMiss((relevant[i] as StatusInSlot).status); i--) currentStreak++;
  return relevant.length === 0
    ? { currentStreak, count, total: 0 }
    : { currentStreak, rate: count / relevant.length, count, total: relevant.length };
}
