import type { Hex } from 'viem';
import type { BlockHeader } from '../../core/block/block-header.js';
import { CommitteeAttestation } from '../../core/block/committee-attestation.js';
import { EthSignature, keccak256 } from '../../core/crypto/eth-signature.js';
import type { EthAddress } from '../../core/eth-address.js';
import { Fr } from '../../core/fr.js';
import { BlockProposal } from '../../core/p2p/block-proposal.js';
import { CheckpointAttestation } from '../../core/p2p/checkpoint-attestation.js';
import { CheckpointProposal } from '../../core/p2p/checkpoint-proposal.js';
import { ConsensusPayload } from '../../core/p2p/consensus-payload.js';
import { bytesToBigInt } from '../../core/serialize/field-bytes.js';
import type { TxHash } from '../../core/tx-hash.js';
import type { CompletedCheckpoint } from '../chain/chain.js';
import type { Logger } from '../logging/logger.js';
import type { CheckpointConsensus, ProposerDuty } from '../sequencer/checkpoint-consensus.js';
import type { CheckpointSignatures } from '../store/checkpoint-attestation-repository.js';
import { Committee } from './committee.js';
import { checkpointAttestationDigest, checkpointProposalDigest } from './consensus-digest.js';
import type { Slasher } from './slasher.js';
import { SignatureKind } from './store/signature-repository.js';
import type { ValidatorStore } from './store/validator-store.js';
import type { ValidatorIdentity } from './validator-identity.js';
import type { ValidatorKeystore } from './validator-keystore.js';

/**
 * The committee's network (p2p/consensus-gossip.ts): where a proposer's checkpoint proposal goes and the other
 * members' attestations come from. Without one, only the keys held here sign.
 */
export interface CheckpointNetwork {
  /**
   * Gossips the proposal and this node's own attestations, then waits until the committee's attestations of it
   * reach `quorum` or `timeoutMs` passes. Answers the 65-byte signatures gathered, by attester address.
   */
  collectAttestations(
    proposal: CheckpointProposal,
    own: readonly CheckpointAttestation[],
    quorum: number,
    timeoutMs: number,
  ): Promise<Map<string, Buffer>>;
}

export interface ValidatorClientOptions {
  readonly store: ValidatorStore;
  /** The keystore in force (a reload swaps it). */
  readonly keystore: () => ValidatorKeystore;
  /** Committee members whose keys are elsewhere (the committeeAddresses setting). */
  readonly otherMembers: () => readonly EthAddress[];
  readonly slasher: Slasher;
  /** How long a proposer waits for the network's attestations (ms): a slot. */
  readonly attestationTimeoutMs: () => number;
  /** The committee signs over P2P: no slot is proposed before the network is attached (setNetwork). */
  readonly overNetwork?: boolean;
  readonly log: Logger;
}

/**
 * This node's validators at work (4.1.2's validator client, without p2p): it fixes each slot's committee the first
 * time the slot is looked at (so a keystore reload changes committees from the next slot on), tells the sequencer
 * whether the slot's proposer is here, and when a checkpoint is finished, signs the proposal and every
 * attestation it holds keys for. Each signature is recorded before it is used, and a validator never signs a
 * second, different payload for a slot it already signed (4.1.2's HA signer duty check): this node cannot
 * equivocate, even across restarts or rollbacks.
 */
export class ValidatorClient implements CheckpointConsensus {
  /** The last slot the sequencer asked about, and the answer (it asks at every tick of the slot). */
  private asked: { slot: number; duty: ProposerDuty | undefined } | undefined;
  private network: CheckpointNetwork | undefined;

  constructor(private readonly o: ValidatorClientOptions) {}

  /** The committee of a slot: as recorded the first time the slot was seen, else the current one, recorded now. */
  committeeAt(slot: number): Committee {
    const recorded = this.o.store.committees.get(slot);
    if (recorded) return recorded.committee;
    const committee = new Committee([...this.o.keystore().addresses, ...this.o.otherMembers()]);
    this.o.store.committees.record(slot, committee);
    return committee;
  }

  /** Attestations then come from the committee's other nodes too (P2P on). */
  setNetwork(network: CheckpointNetwork): void {
    this.network = network;
  }

  get overNetwork(): boolean {
    return this.o.overNetwork === true;
  }

  holdsProposerKey(slot: number): boolean {
    const proposer = this.committeeAt(slot).proposerOf(slot);
    return proposer !== undefined && this.o.keystore().has(proposer);
  }

  /**
   * Signs a block this node's proposer built, as the block proposal gossiped to the committee (4.1.2
   * BlockProposal); undefined when the block's slot is not this node's.
   */
  async signBlockProposal(
    header: BlockHeader,
    indexWithinCheckpoint: number,
    inHash: Fr,
    archiveRoot: Fr,
    txHashes: readonly TxHash[],
  ): Promise<BlockProposal | undefined> {
    const slot = header.slotNumber;
    const proposer = this.committeeAt(slot).proposerOf(slot);
    const identity = proposer ? this.o.keystore().get(proposer) : undefined;
    if (!identity) return undefined;
    const unsigned = new BlockProposal(
      header,
      indexWithinCheckpoint,
      inHash,
      archiveRoot,
      txHashes,
      EthSignature.EMPTY,
    );
    const signature = await identity.signDigest(`0x${keccak256(unsigned.payloadToSign()).toString('hex')}`);
    return new BlockProposal(
      header,
      indexWithinCheckpoint,
      inHash,
      archiveRoot,
      txHashes,
      EthSignature.fromCompact65(Buffer.from(signature.slice(2), 'hex')),
    );
  }

  /**
   * Attests a checkpoint proposal this node checked against the blocks it re-executed, with every key it holds
   * in the slot's committee (each signature recorded first; a second, different payload for a slot is refused).
   */
  async attest(proposal: CheckpointProposal): Promise<CheckpointAttestation[]> {
    const slot = proposal.slotNumber;
    const keystore = this.o.keystore();
    const digest = checkpointAttestationDigest({
      header: proposal.checkpointHeader,
      archiveRoot: proposal.archive.value,
      feeAssetPriceModifier: proposal.feeAssetPriceModifier,
    });
    const payload = new ConsensusPayload(proposal.checkpointHeader, proposal.archive, proposal.feeAssetPriceModifier);
    const out: CheckpointAttestation[] = [];
    for (const member of this.committeeAt(slot).members) {
      const attester = keystore.get(member);
      const signature = attester && (await this.signOnce(attester, slot, SignatureKind.attestation, digest));
      if (signature)
        out.push(new CheckpointAttestation(payload, EthSignature.fromCompact65(signature), proposal.signature));
    }
    return out;
  }

  proposerFor(slot: number): ProposerDuty | undefined {
    // A proposal nobody hears cannot gather a quorum.
    if (this.o.overNetwork && !this.network) return undefined;
    if (this.asked?.slot === slot) return this.asked.duty;
    const proposer = this.committeeAt(slot).proposerOf(slot);
    const identity = proposer ? this.o.keystore().get(proposer) : undefined;
    let duty: ProposerDuty | undefined;
    // A slot that already has a proposal (one that missed quorum, or one before a rollback) gets no second one.
    if (identity && this.o.store.signatures.bySigner(slot, SignatureKind.proposal, identity.address).length === 0) {
      this.o.store.committees.markProposerReady(slot);
      duty = { coinbase: identity.coinbase, feeRecipient: identity.feeRecipient };
    }
    this.asked = { slot, duty };
    return duty;
  }

  async seal(c: CompletedCheckpoint): Promise<CheckpointSignatures | undefined> {
    this.asked = undefined;
    const keystore = this.o.keystore();
    const committee = this.committeeAt(c.slot);
    const proposer = committee.proposerOf(c.slot);
    const identity = proposer ? keystore.get(proposer) : undefined;
    if (!proposer || !identity) {
      this.o.log.warn(
        { checkpoint: c.number, slot: c.slot, proposer: proposer?.toString() },
        `checkpoint ${c.number}: the proposer of slot ${c.slot} (${proposer ?? 'none'}) has no key here`,
      );
      return undefined;
    }
    const payload = { header: c.header, archiveRoot: bytesToBigInt(c.archiveRoot, 0, 32) };
    const proposalSignature = await this.signOnce(
      identity,
      c.slot,
      SignatureKind.proposal,
      checkpointProposalDigest(payload),
    );
    if (!proposalSignature) return undefined;
    const digest = checkpointAttestationDigest(payload);
    const attestations: CommitteeAttestation[] = [];
    for (const member of committee.members) {
      const attester = keystore.get(member);
      const signature = attester ? await this.signOnce(attester, c.slot, SignatureKind.attestation, digest) : undefined;
      attestations.push(
        signature ? CommitteeAttestation.signed(member, signature) : CommitteeAttestation.missing(member),
      );
    }
    const network = this.network;
    if (network) {
      const proposal = new CheckpointProposal(
        c.header,
        new Fr(payload.archiveRoot),
        0n,
        EthSignature.fromCompact65(proposalSignature),
      );
      const consensusPayload = new ConsensusPayload(c.header, proposal.archive, 0n);
      const own = attestations.flatMap((a) =>
        a.isSigned
          ? [new CheckpointAttestation(consensusPayload, EthSignature.fromCompact65(a.signature), proposal.signature)]
          : [],
      );
      const gathered = await network.collectAttestations(
        proposal,
        own,
        committee.quorum,
        this.o.attestationTimeoutMs(),
      );
      for (const [i, member] of committee.members.entries()) {
        const signature = gathered.get(member.toString());
        if (signature && !attestations[i]?.isSigned) attestations[i] = CommitteeAttestation.signed(member, signature);
      }
    }
    const signed = attestations.filter((a) => a.isSigned).length;
    if (signed < committee.quorum) {
      this.o.log.warn(
        { checkpoint: c.number, slot: c.slot, attestations: signed, quorum: committee.quorum },
        `checkpoint ${c.number} (slot ${c.slot}) has ${signed} of ${committee.size} attestations; the quorum is ${committee.quorum}`,
      );
      return undefined;
    }
    this.o.slasher.vote(c.slot, identity.address);
    return {
      attestations,
      proposer: identity.address,
      proposerSignature: proposalSignature,
      publisher: identity.publishers[0],
    };
  }

  /** Signs a slot's duty once: the same payload again gets the recorded signature, another payload none. */
  private async signOnce(
    identity: ValidatorIdentity,
    slot: number,
    kind: SignatureKind,
    digest: Hex,
  ): Promise<Buffer | undefined> {
    const digestBytes = Buffer.from(digest.slice(2), 'hex');
    const earlier = this.o.store.signatures.bySigner(slot, kind, identity.address);
    const same = earlier.find((e) => e.digest.equals(digestBytes));
    if (same) return same.signature;
    if (earlier.length > 0) {
      this.o.log.error(
        { slot, validator: identity.address.toString(), kind },
        `refusing to sign a second ${kind === SignatureKind.proposal ? 'proposal' : 'attestation'} for slot ${slot} as ${identity.address}: it would equivocate`,
      );
      return undefined;
    }
    const signature = Buffer.from((await identity.signDigest(digest)).slice(2), 'hex');
    this.o.store.signatures.insert({ slot, kind, signer: identity.address, digest: digestBytes, signature });
    return signature;
  }
}
