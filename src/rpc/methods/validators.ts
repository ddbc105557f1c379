import {
  arrayResult,
  integerResult,
  nullable,
  numberResult,
  objectResult,
  optionalKey,
  recordResult,
  stringResult,
  type ValueOf,
} from '../result-codecs.js';
import { defineMethod, optional, required } from '../rpc-method.js';
import { ethAddress, unsignedBigInt } from '../wire-types.js';
import { SAME } from './shared-params.js';

/** Validator queries: the sentinel's statistics (4.1.2 ValidatorsStats and SingleValidatorStats). */

/** A slot with its timestamp (decimal seconds) and ISO date. */
const timeStatResult = objectResult('ValidatorTimeStat', {
  timestamp: stringResult,
  slot: integerResult,
  date: stringResult,
});

const missedStatsResult = objectResult('ValidatorMissedStats', {
  currentStreak: integerResult,
  rate: optionalKey(numberResult),
  count: integerResult,
  total: integerResult,
});

export const validatorStatsResult = objectResult('ValidatorStats', {
  address: stringResult,
  lastProposal: optionalKey(timeStatResult),
  lastAttestation: optionalKey(timeStatResult),
  totalSlots: integerResult,
  missedProposals: missedStatsResult,
  missedAttestations: missedStatsResult,
  history: arrayResult(objectResult('ValidatorStatusInSlot', { slot: integerResult, status: stringResult })),
});
export type ValidatorStats = ValueOf<typeof validatorStatsResult>;

export const validatorsStatsResult = objectResult('ValidatorsStats', {
  stats: recordResult('Record<address, ValidatorStats>', validatorStatsResult),
  lastProcessedSlot: optionalKey(integerResult),
  initialSlot: optionalKey(integerResult),
  slotWindow: integerResult,
});
export type ValidatorsStats = ValueOf<typeof validatorsStatsResult>;

export const singleValidatorStatsResult = objectResult('SingleValidatorStats', {
  validator: validatorStatsResult,
  allTimeProvenPerformance: arrayResult(
    objectResult('EpochPerformance', { missed: integerResult, total: integerResult, epoch: integerResult }),
  ),
  lastProcessedSlot: optionalKey(integerResult),
  initialSlot: optionalKey(integerResult),
  slotWindow: integerResult,
});
export type SingleValidatorStats = ValueOf<typeof singleValidatorStatsResult>;

export const VALIDATOR_METHODS = {
  node_getValidatorsStats: defineMethod({
    summary: 'Statistics of every validator seen.',
    params: [],
    result: validatorsStatsResult,
    compat: SAME,
  }),
  node_getValidatorStats: defineMethod({
    summary: 'Statistics of one validator over a slot range, or null.',
    params: [
      required('validatorAddress', ethAddress, 'Validator (attester) address.'),
      optional('fromSlot', unsignedBigInt, 'First slot (bigint as decimal string).'),
      optional('toSlot', unsignedBigInt, 'Last slot (bigint as decimal string).'),
    ],
    result: nullable(singleValidatorStatsResult),
    compat: SAME,
  }),
};
