import { encodeAbiParameters, keccak256, parseAbiParameters } from 'viem';
import type { EthAddress } from '../../core/eth-address.js';
import type { Logger } from '../logging/logger.js';
import type { SlotClock } from '../sequencer/slot-clock.js';
import { isEpochOffense, OffenseType } from './offense-type.js';
import type { OffenseRecord } from './store/slash-offense-repository.js';
import type { ValidatorStore } from './store/validator-store.js';

/** The slashing settings (rows of the settings table, read live: the slash* ones change at runtime). */
export interface SlashingConfig {
  readonly slashingRoundSizeInEpochs: number;
  readonly slashingOffsetInRounds: number;
  readonly slashInactivityPenalty: bigint;
  readonly slashProposeInvalidAttestationsPenalty: bigint;
  readonly slashDuplicateProposalPenalty: bigint;
  readonly slashDuplicateAttestationPenalty: bigint;
  readonly slashOffenseExpirationRounds: number;
  readonly slashMaxPayloadSize: number;
  readonly slashGracePeriodL2Slots: number;
  readonly slashSelfAllowed: boolean;
  readonly slashValidatorsNever: readonly EthAddress[];
}

/** 4.1.2 Offense in wire JSON (docs/aztec-facts.md section 2.9). */
export interface OffenseJson {
  validator: string;
  amount: string;
  offenseType: number;
  epochOrSlot: string;
}

/** 4.1.2 SlashPayloadRound in wire JSON. */
export interface SlashPayloadRoundJson {
  address: string;
  timestamp: string;
  votes: string;
  round: string;
  slashes: { validator: string; amount: string; offenses: { offenseType: number; epochOrSlot: string }[] }[];
}

/** Which offenses nodeAdmin_getSlashOffenses asks for. */
export type OffenseSelector = 'all' | 'current' | bigint;

export interface SlasherOptions {
  readonly store: ValidatorStore;
  readonly slots: SlotClock;
  readonly config: SlashingConfig;
  /** This node's attesters: never slashed by its own votes unless slashSelfAllowed. */
  readonly ownValidators: () => readonly EthAddress[];
  readonly now: () => number;
  readonly log: Logger;
}

const PAYLOAD_ABI = parseAbiParameters('uint256, (address, uint256)[]');

/**
 * Offenses and their rounds (docs/aztec-facts.md section 7.2, 4.1.2's tally model): time is cut into rounds of
 * `slashingRoundSizeInEpochs` epochs; during round N the proposers vote on the offenses of round N minus
 * `slashingOffsetInRounds`, so the offenses voted on belong to finished epochs. An offense's amount is its
 * type's penalty when it is detected; a zero penalty means the offense is not pursued (as 4.1.2 watchers do).
 * The payload of a round aggregates its offenses per validator (the empire model's SlashPayloadRound shape),
 * and counts the votes of the round's proposers.
 */
export class Slasher {
  constructor(private readonly o: SlasherOptions) {}

  /** Slots per round. */
  get roundSize(): number {
    return this.o.config.slashingRoundSizeInEpochs * this.o.slots.timing.epochDuration;
  }

  roundOf(slot: number): number {
    return Math.floor(slot / this.roundSize);
  }

  currentRound(): number {
    return this.roundOf(Math.max(0, this.o.slots.currentSlot()));
  }

  /**
   * Records an offense at its type's current penalty (not pursued when the penalty is 0 or the slot is in the
   * grace period). Returns whether it is new.
   */
  report(validator: EthAddress, offenseType: OffenseType, epochOrSlot: number): boolean {
    const amount = this.penaltyFor(offenseType);
    const slot = isEpochOffense(offenseType) ? epochOrSlot * this.o.slots.timing.epochDuration : epochOrSlot;
    if (amount === 0n || slot < this.o.config.slashGracePeriodL2Slots) {
      this.o.log.debug(
        { validator: validator.toString(), offenseType, epochOrSlot },
        `offense ${offenseType} by ${validator} not pursued (no penalty, or in the grace period)`,
      );
      return false;
    }
    const record: OffenseRecord = { validator, offenseType, epochOrSlot, amount, round: this.roundOf(slot) };
    const added = this.o.store.offenses.insert(record, this.o.now());
    if (added) {
      this.o.log.warn(
        { validator: validator.toString(), offenseType, epochOrSlot, amount: amount.toString(), round: record.round },
        `offense ${OFFENSE_NAMES[offenseType]} by ${validator} at ${isEpochOffense(offenseType) ? 'epoch' : 'slot'} ${epochOrSlot}: ${amount} (round ${record.round})`,
      );
    }
    return added;
  }

  /**
   * nodeAdmin_getSlashOffenses: `all` the pending ones (not expired); `current` those voted on in the current
   * round; a round number those voted on in that round (the offenses of that round minus the offset).
   */
  offenses(which: OffenseSelector): OffenseJson[] {
    const { store, config } = this.o;
    const records =
      which === 'all'
        ? store.offenses.fromRound(this.currentRound() - config.slashOffenseExpirationRounds)
        : store.offenses.inRound(
            (which === 'current' ? this.currentRound() : Number(which)) - config.slashingOffsetInRounds,
          );
    return records.map(offenseJson);
  }

  /** nodeAdmin_getSlashPayloads: the payload voted on in the current round, if it slashes anyone. */
  payloads(): SlashPayloadRoundJson[] {
    const payload = this.payload(this.currentRound());
    return payload ? [payload] : [];
  }

  /** The payload voted on in `votingRound`: its target round's offenses per validator, minus the never-slashed. */
  payload(votingRound: number): SlashPayloadRoundJson | undefined {
    const { config, store, slots } = this.o;
    const never = new Set(config.slashValidatorsNever.map((a) => a.toString()));
    if (!config.slashSelfAllowed) for (const a of this.o.ownValidators()) never.add(a.toString());
    const byValidator = new Map<string, { validator: string; amount: bigint; offenses: OffenseRecord[] }>();
    for (const o of store.offenses.inRound(votingRound - config.slashingOffsetInRounds)) {
      const key = o.validator.toString();
      if (never.has(key)) continue;
      const entry = byValidator.get(key) ?? { validator: key, amount: 0n, offenses: [] };
      entry.amount += o.amount;
      entry.offenses.push(o);
      byValidator.set(key, entry);
    }
    if (byValidator.size === 0) return undefined;
    // The heaviest slashes first; past slashMaxPayloadSize validators the lightest are left out (4.1.2 cap).
    const slashes = [...byValidator.values()]
      .sort((a, b) => (a.amount === b.amount ? a.validator.localeCompare(b.validator) : a.amount > b.amount ? -1 : 1))
      .slice(0, config.slashMaxPayloadSize);
    // There is no slash factory contract to deploy the payload: its address is a stand-in derived from its content.
    const hash = keccak256(
      encodeAbiParameters(PAYLOAD_ABI, [
        BigInt(votingRound),
        slashes.map((s) => [s.validator as `0x${string}`, s.amount] as const),
      ]),
    );
    return {
      address: `0x${hash.slice(-40)}`,
      timestamp: slots.slotTimestamp(votingRound * this.roundSize).toString(),
      votes: store.votes.count(votingRound).toString(),
      round: votingRound.toString(),
      slashes: slashes.map((s) => ({
        validator: s.validator,
        amount: s.amount.toString(),
        offenses: s.offenses.map((o) => ({ offenseType: o.offenseType, epochOrSlot: o.epochOrSlot.toString() })),
      })),
    };
  }

  /** A proposer of `slot` votes with its checkpoint for the round's payload, when there is one to vote for. */
  vote(slot: number, voter: EthAddress): void {
    const round = this.roundOf(slot);
    if (this.payload(round)) this.o.store.votes.record(round, slot, voter);
  }

  /** Drops offenses past their expiration (slashOffenseExpirationRounds after their voting round). */
  prune(): void {
    const { config } = this.o;
    this.o.store.offenses.pruneBefore(
      this.currentRound() - config.slashOffenseExpirationRounds - config.slashingOffsetInRounds,
    );
  }

  private penaltyFor(type: OffenseType): bigint {
    const c = this.o.config;
    switch (type) {
      case OffenseType.INACTIVITY:
        return c.slashInactivityPenalty;
      case OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS:
      case OffenseType.PROPOSED_INCORRECT_ATTESTATIONS:
        return c.slashProposeInvalidAttestationsPenalty;
      case OffenseType.DUPLICATE_PROPOSAL:
        return c.slashDuplicateProposalPenalty;
      case OffenseType.DUPLICATE_ATTESTATION:
        return c.slashDuplicateAttestationPenalty;
      default:
        // This node does not detect the other offenses (docs/validators.md).
        return 0n;
    }
  }
}

function offenseJson(o: OffenseRecord): OffenseJson {
  return {
    validator: o.validator.toString(),
    amount: o.amount.toString(),
    offenseType: o.offenseType,
    epochOrSlot: o.epochOrSlot.toString(),
  };
}

const OFFENSE_NAMES: Record<OffenseType, string> = {
  0: 'unknown',
  1: 'data_withholding',
  2: 'valid_epoch_pruned',
  3: 'inactivity',
  4: 'broadcasted_invalid_block_proposal',
  5: 'proposed_insufficient_attestations',
  6: 'proposed_incorrect_attestations',
  7: 'attested_descendant_of_invalid',
  8: 'duplicate_proposal',
  9: 'duplicate_attestation',
};
