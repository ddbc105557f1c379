/** 4.1.2 OffenseType (docs/aztec-facts.md section 7.2), a JSON number on the wire. */
export const OffenseType = {
  UNKNOWN: 0,
  DATA_WITHHOLDING: 1,
  VALID_EPOCH_PRUNED: 2,
  INACTIVITY: 3,
  BROADCASTED_INVALID_BLOCK_PROPOSAL: 4,
  PROPOSED_INSUFFICIENT_ATTESTATIONS: 5,
  PROPOSED_INCORRECT_ATTESTATIONS: 6,
  ATTESTED_DESCENDANT_OF_INVALID: 7,
  DUPLICATE_PROPOSAL: 8,
  DUPLICATE_ATTESTATION: 9,
} as const;

export type OffenseType = (typeof OffenseType)[keyof typeof OffenseType];

/** Whether an offense's `epochOrSlot` is an epoch (the others name a slot), as 4.1.2's getTimeUnitForOffense. */
export function isEpochOffense(type: OffenseType): boolean {
  return (
    type === OffenseType.INACTIVITY ||
    type === OffenseType.DATA_WITHHOLDING ||
    type === OffenseType.VALID_EPOCH_PRUNED ||
    type === OffenseType.UNKNOWN
  );
}
