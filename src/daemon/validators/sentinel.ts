import { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import { EthAddress } from '../../core/eth-address.js';
import { bytesToBigInt } from '../../core/serialize/field-bytes.js';
import type { Logger } from '../logging/logger.js';
import type { ValidatorSlotResult } from '../node-events.js';
import type { SlotClock } from '../sequencer/slot-clock.js';
import type { ChainStore } from '../store/chain-store.js';
import type { Committee } from './committee.js';
import { OffenseType } from './offense-type.js';
import type { Slasher } from './slasher.js';
import { SlotRangeError } from './slot-range-error.js';
import { SignatureKind, type SignatureRecord } from './store/signature-repository.js';
import type { ValidatorStore } from './store/validator-store.js';
import { computeValidatorStats, type ValidatorStatsJson } from './validator-stats.js';
import { isProposerStatus, type ValidatorStatus } from './validator-status.js';
import { verifyCheckpointAttestations } from './verify-checkpoint-attestations.js';

/** The sentinel's settings (settings table rows; the inactivity ones change at runtime). */
export interface SentinelConfig {
  readonly sentinelHistoryLengthInEpochs: number;
  readonly slashInactivityTargetPercentage: number;
  readonly slashInactivityConsecutiveEpochThreshold: number;
}

/** 4.1.2 ValidatorsStats in wire JSON (docs/aztec-facts.md section 2.9). */
export interface ValidatorsStatsJson {
  stats: Record<string, ValidatorStatsJson>;
  lastProcessedSlot?: number;
  initialSlot?: number;
  slotWindow: number;
}

/** 4.1.2 SingleValidatorStats in wire JSON. */
export interface SingleValidatorStatsJson {
  validator: ValidatorStatsJson;
  allTimeProvenPerformance: { missed: number; total: number; epoch: number }[];
  lastProcessedSlot?: number;
  initialSlot?: number;
  slotWindow: number;
}

export interface SentinelOptions {
  readonly store: ValidatorStore;
  readonly chainStore: ChainStore;
  readonly slots: SlotClock;
  readonly config: SentinelConfig;
  readonly slasher: Slasher;
  readonly log: Logger;
  /** Told of each slot judged (the dashboard's event stream). */
  readonly onSlot?: (result: ValidatorSlotResult) => void;
}

/**
 * The validator sentinel (as 4.1.2's, docs/aztec-facts.md section 7.1): two slots after a slot
 * ends, it classifies what the slot's committee did, from the evidence this node holds: the checkpoint published
 * for the slot and its attestations, and the proposal and attestation signatures seen (validator_signature, the
 * analogue of 4.1.2's p2p attestation pool). The proposer's status is checkpoint-mined, checkpoint-proposed
 * (attestations from others, no checkpoint), checkpoint-missed (a proposal, no attestation) or blocks-missed
 * (nothing); other members attestation-sent or, when there was something to attest, attestation-missed.
 * A slot whose proposer was here and ready but had nothing to build is nobody's miss and is left out.
 * Once an epoch is proven it computes each validator's performance in it and reports inactivity; each slot's
 * checkpoint attestations and duplicate signatures are checked for offenses on the way.
 */
export class Sentinel {
  private initialSlot = 0;
  private lastProcessed: number | undefined;

  constructor(private readonly o: SentinelOptions) {}

  /** Slots of history kept (and the widest range a query may ask for). */
  get historyLength(): number {
    return this.o.config.sentinelHistoryLengthInEpochs * this.o.slots.timing.epochDuration;
  }

  /** Resumes from the database, or starts watching from `currentSlot` (slots up to it are never judged). */
  init(currentSlot: number): void {
    const { meta } = this.o.store;
    const initial = meta.get('initialSlot');
    if (initial === undefined) meta.set('initialSlot', currentSlot);
    this.initialSlot = initial ?? currentSlot;
    this.lastProcessed = meta.get('lastProcessedSlot');
  }

  /** Processes every slot that ended at least two slots ago, then the proven epochs; returns the slots processed. */
  async work(): Promise<number> {
    const target = this.o.slots.currentSlot() - 2;
    let from = (this.lastProcessed ?? this.initialSlot) + 1;
    // After a long stop only the history window matters; older slots have no committee recorded anyway.
    from = Math.max(from, target - this.historyLength);
    let processed = 0;
    for (let slot = from; slot <= target; slot++) {
      await this.processSlot(slot);
      this.lastProcessed = slot;
      this.o.store.meta.set('lastProcessedSlot', slot);
      processed++;
    }
    if (processed > 0) {
      this.evaluateProvenEpochs();
      const keepFrom = target - this.historyLength;
      this.o.store.history.pruneBefore(keepFrom);
      this.o.store.signatures.pruneBefore(keepFrom);
      this.o.store.committees.pruneBefore(keepFrom);
    }
    return processed;
  }

  /** node_getValidatorsStats. */
  validatorsStats(): ValidatorsStatsJson {
    const { from, to } = this.defaultRange();
    const stats: Record<string, ValidatorStatsJson> = {};
    for (const [address, history] of this.o.store.history.all()) {
      stats[address] = computeValidatorStats(address, history, from, to, (s) => this.o.slots.slotTimestamp(s));
    }
    return { stats, ...this.window() };
  }

  /** node_getValidatorStats; undefined when the validator has no history. */
  validatorStats(address: EthAddress, fromSlot?: bigint, toSlot?: bigint): SingleValidatorStatsJson | undefined {
    const history = this.o.store.history.of(address);
    if (history.length === 0) return undefined;
    const defaults = this.defaultRange();
    const from = fromSlot ?? BigInt(defaults.from);
    const to = toSlot ?? BigInt(defaults.to);
    const length = BigInt(this.historyLength);
    if (to - from > length) {
      throw new SlotRangeError(
        `Slot range (${to - from}) exceeds history length (${length}). Requested range: ${from} to ${to}.`,
      );
    }
    const validator = computeValidatorStats(address.toString(), history, Number(from), Number(to), (s) =>
      this.o.slots.slotTimestamp(s),
    );
    const allTimeProvenPerformance = this.o.store.performance.of(address).map((p) => ({
      missed: p.missed,
      total: p.total,
      epoch: p.epoch,
    }));
    return { validator, allTimeProvenPerformance, ...this.window() };
  }

  private window(): { lastProcessedSlot?: number; initialSlot?: number; slotWindow: number } {
    return {
      ...(this.lastProcessed !== undefined ? { lastProcessedSlot: this.lastProcessed } : {}),
      initialSlot: this.initialSlot,
      slotWindow: this.historyLength,
    };
  }

  private defaultRange(): { from: number; to: number } {
    const to = this.lastProcessed ?? Math.max(0, this.o.slots.currentSlot());
    return { from: Math.max(0, to - this.historyLength), to };
  }

  private async processSlot(slot: number): Promise<void> {
    const { store, chainStore } = this.o;
    const seen = store.committees.get(slot);
    if (!seen || seen.committee.size === 0) return;
    const { committee } = seen;
    const proposer = committee.proposerOf(slot) as EthAddress;
    const signatures = store.signatures.bySlot(slot);
    this.reportDuplicates(slot, signatures);
    const checkpoint = chainStore.checkpoints.inSlotRange(slot, slot + 1)[0];
    const attestors = new Set<string>(
      signatures.filter((s) => s.kind === SignatureKind.attestation).map((s) => s.signer.toString()),
    );
    const signers = checkpoint ? await this.checkCheckpoint(slot, checkpoint.number, committee, proposer) : [];
    for (const signer of signers ?? []) attestors.add(signer);
    attestors.delete(proposer.toString());
    let status: ValidatorStatus;
    if (checkpoint) status = 'checkpoint-mined';
    else if (attestors.size > 0) status = 'checkpoint-proposed';
    else if (signatures.some((s) => s.kind === SignatureKind.proposal)) status = 'checkpoint-missed';
    else if (seen.proposerReady) {
      this.o.log.debug({ slot }, `slot ${slot}: its proposer was ready here and had nothing to build`);
      return;
    } else status = 'blocks-missed';
    // A checkpoint recorded without its attestations (caught up from peers) tells nothing of who attested it.
    const attestationDue = signers !== undefined && (status === 'checkpoint-mined' || status === 'checkpoint-proposed');
    const result = { slot, proposer: proposer.toString(), status, attestationsSent: 0, attestationsMissed: 0 };
    store.db.transaction(() => {
      store.history.record(proposer, slot, status);
      for (const member of committee.members) {
        if (member.equals(proposer)) continue;
        const key = member.toString();
        if (attestors.has(key)) {
          store.history.record(member, slot, 'attestation-sent');
          result.attestationsSent++;
        } else if (attestationDue) {
          store.history.record(member, slot, 'attestation-missed');
          result.attestationsMissed++;
        }
      }
    })();
    this.o.onSlot?.(result);
  }

  /**
   * Checks a published checkpoint's attestations against the slot's committee; reports its proposer when they
   * are short of quorum or signed by someone else. Returns the members whose signatures stand; undefined for a
   * checkpoint recorded without attestations (a validator caught up to it from its peers, which carry none).
   */
  private async checkCheckpoint(
    slot: number,
    number: number,
    committee: Committee,
    expectedProposer: EthAddress,
  ): Promise<string[] | undefined> {
    const { chainStore, slasher } = this.o;
    const row = chainStore.checkpoints.get(number);
    if (!row) return [];
    const signed = chainStore.checkpointAttestations.get(number);
    if (!signed) return undefined;
    const check = await verifyCheckpointAttestations({
      header: CheckpointHeader.fromBuffer(row.header),
      archiveRoot: bytesToBigInt(row.archiveRoot, 0, 32),
      attestations: signed?.attestations ?? [],
      committee: committee.members,
    });
    if (!check.ok) {
      const proposer = signed?.proposer ?? expectedProposer;
      const type =
        check.invalid.length > 0 || check.outsiders.length > 0
          ? OffenseType.PROPOSED_INCORRECT_ATTESTATIONS
          : OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS;
      this.o.log.warn({ slot, checkpoint: number }, `checkpoint ${number} (slot ${slot}): ${check.problem}`);
      slasher.report(proposer, type, slot);
    }
    return check.signers.map((s) => s.toString());
  }

  /** Two different payloads signed by one validator for one slot and duty: equivocation. */
  private reportDuplicates(slot: number, signatures: readonly SignatureRecord[]): void {
    const digests = new Map<string, Set<string>>();
    for (const s of signatures) {
      const key = `${s.kind}:${s.signer}`;
      const set = digests.get(key) ?? new Set<string>();
      set.add(s.digest.toString('hex'));
      digests.set(key, set);
    }
    for (const [key, set] of digests) {
      if (set.size < 2) continue;
      const [kind, signer] = key.split(':') as [string, string];
      const type =
        Number(kind) === SignatureKind.proposal ? OffenseType.DUPLICATE_PROPOSAL : OffenseType.DUPLICATE_ATTESTATION;
      this.o.slasher.report(EthAddress.fromString(signer), type, slot);
    }
  }

  /**
   * For every epoch proven since the last call whose slots are all processed: each validator's missed and total
   * duties (over the slots where it had one: 4.1.2 counts attestations only where there was a proposal), stored
   * as its proven performance; a validator that missed at least the target share in this epoch and in the
   * epochs before it, up to the consecutive-epoch threshold, is reported for inactivity.
   */
  private evaluateProvenEpochs(): void {
    const { chainStore, store, slots } = this.o;
    const proven = chainStore.meta.get('provenCheckpoint') ?? 0;
    if (proven === 0) return;
    const provenSlot = chainStore.checkpoints.get(proven)?.slot;
    if (provenSlot === undefined) return;
    const { epochDuration } = slots.timing;
    const provenEpoch = slots.epochOf(provenSlot);
    let epoch = (store.meta.get('lastEvaluatedEpoch') ?? slots.epochOf(this.initialSlot) - 1) + 1;
    for (; epoch <= provenEpoch; epoch++) {
      const lastSlot = (epoch + 1) * epochDuration - 1;
      if ((this.lastProcessed ?? -1) < lastSlot) break;
      this.evaluateEpoch(epoch, epoch * epochDuration, lastSlot);
      store.meta.set('lastEvaluatedEpoch', epoch);
    }
  }

  private evaluateEpoch(epoch: number, fromSlot: number, toSlot: number): void {
    const { store, config, slasher } = this.o;
    const target = config.slashInactivityTargetPercentage;
    const threshold = config.slashInactivityConsecutiveEpochThreshold;
    const inactive = (p: { missed: number; total: number }) => p.total > 0 && p.missed / p.total >= target;
    for (const [address, history] of store.history.all()) {
      let missed = 0;
      let total = 0;
      for (const h of history) {
        if (h.slot < fromSlot || h.slot > toSlot) continue;
        total++;
        const miss = isProposerStatus(h.status)
          ? h.status === 'checkpoint-missed' || h.status === 'blocks-missed'
          : h.status === 'attestation-missed';
        if (miss) missed++;
      }
      if (total === 0) continue;
      const validator = EthAddress.fromString(address);
      const earlier = store.performance
        .of(validator)
        .filter((p) => p.epoch < epoch)
        .slice(-(threshold - 1) || undefined);
      store.performance.record(validator, { epoch, missed, total });
      if (!inactive({ missed, total })) continue;
      const streak = threshold <= 1 || (earlier.length >= threshold - 1 && earlier.every(inactive));
      if (streak) slasher.report(validator, OffenseType.INACTIVITY, epoch);
    }
  }
}
