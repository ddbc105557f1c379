/** The 4.1.2 status of a validator in a slot (docs/aztec-facts.md section 2.9), in storage order. */
export const VALIDATOR_STATUSES = [
  'checkpoint-mined',
  'checkpoint-proposed',
  'checkpoint-missed',
  'blocks-missed',
  'attestation-sent',
  'attestation-missed',
] as const;

export type ValidatorStatus = (typeof VALIDATOR_STATUSES)[number];

/** Proposer statuses count towards missedProposals, the others towards missedAttestations. */
export function isProposerStatus(status: ValidatorStatus): boolean {
  return status !== 'attestation-sent' && status !== 'attestation-missed';
}

export function statusCode(status: ValidatorStatus): number {
  return VALIDATOR_STATUSES.indexOf(status);
}

export function statusOf(code: number): ValidatorStatus {
  const s = VALIDATOR_STATUSES[code];
  if (!s) throw new RangeError(`Unknown validator status code ${code}`);
  return s;
}
