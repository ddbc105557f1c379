import { recoverMessageAddress } from 'viem';
import type { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import type { CommitteeAttestation } from '../../core/block/committee-attestation.js';
import { EthAddress } from '../../core/eth-address.js';
import { committeeQuorum } from './committee.js';
import { checkpointAttestationDigest } from './consensus-digest.js';

export interface CheckpointAttestationsInput {
  readonly header: CheckpointHeader;
  /** Archive root after the checkpoint's last block. */
  readonly archiveRoot: bigint;
  /** The checkpoint's attestations: the whole committee in order, signed or not (4.1.2 CommitteeAttestation[]). */
  readonly attestations: readonly CommitteeAttestation[];
  /**
   * The committee the signers must belong to, when the caller knows it; otherwise the addresses the list itself
   * names are the committee (as L1 receives them).
   */
  readonly committee?: readonly EthAddress[];
}

/** An entry whose signature does not stand. */
export interface BadAttestation {
  readonly index: number;
  readonly address: string;
  readonly reason: string;
}

export interface CheckpointAttestationsCheck {
  /** True when every signature recovers to its member, every signer is in the committee and there is a quorum. */
  readonly ok: boolean;
  readonly committeeSize: number;
  readonly quorum: number;
  /** Members whose signature recovered to them. */
  readonly signers: readonly EthAddress[];
  /** Signatures that do not recover to the entry's address, or repeat a member. */
  readonly invalid: readonly BadAttestation[];
  /** Valid signers that are not committee members (4.1.2 PROPOSED_INCORRECT_ATTESTATIONS). */
  readonly outsiders: readonly EthAddress[];
  /** Why `ok` is false, in one sentence. */
  readonly problem?: string;
}

/**
 * Checks a checkpoint's attestations as the rollup contract and 4.1.2's archiver do: each signature must be a
 * personal signature, by the entry's address, of the checkpoint's attestation digest (consensus-digest.ts), and
 * at least 2/3 + 1 of the committee must have signed. Pure (reads nothing but its input); a follower calls it on
 * every synced checkpoint before storing it. An empty list (a chain sequenced without a committee) has no
 * committee to check: it is `ok` with committeeSize 0, and a caller that requires a committee checks that.
 */
export async function verifyCheckpointAttestations(
  input: CheckpointAttestationsInput,
): Promise<CheckpointAttestationsCheck> {
  const committee = input.committee ?? input.attestations.map((a) => a.address);
  const size = committee.length;
  if (size === 0 && input.attestations.length === 0) {
    return { ok: true, committeeSize: 0, quorum: 0, signers: [], invalid: [], outsiders: [] };
  }
  const quorum = committeeQuorum(size);
  const digest = checkpointAttestationDigest({ header: input.header, archiveRoot: input.archiveRoot });
  const members = new Set(committee.map((m) => m.toString()));
  const seen = new Set<string>();
  const signers: EthAddress[] = [];
  const invalid: BadAttestation[] = [];
  const outsiders: EthAddress[] = [];
  for (const [index, a] of input.attestations.entries()) {
    const signature = a.signatureHex();
    if (!signature) continue;
    const address = a.address.toString();
    let recovered: string;
    try {
      recovered = (await recoverMessageAddress({ message: { raw: digest }, signature })).toLowerCase();
    } catch {
      invalid.push({ index, address, reason: 'the signature cannot be recovered' });
      continue;
    }
    // L1-packed attestations carry a zero address for signed entries: the signer is whoever recovers.
    if (!a.address.isZero() && recovered !== address) {
      invalid.push({ index, address, reason: `the signature recovers to ${recovered}, not to the entry's address` });
      continue;
    }
    if (seen.has(recovered)) {
      invalid.push({ index, address: recovered, reason: 'this member already signed' });
      continue;
    }
    seen.add(recovered);
    const signer = EthAddress.fromString(recovered);
    if (members.has(recovered)) signers.push(signer);
    else outsiders.push(signer);
  }
  const problem =
    invalid.length > 0
      ? `${invalid.length} attestation signature(s) do not stand (first: entry ${invalid[0]?.index}, ${invalid[0]?.reason})`
      : outsiders.length > 0
        ? `signed by ${outsiders.length} address(es) outside the committee (first: ${outsiders[0]})`
        : signers.length < quorum
          ? `${signers.length} of ${size} committee members signed; the quorum is ${quorum}`
          : undefined;
  return { ok: problem === undefined, committeeSize: size, quorum, signers, invalid, outsiders, problem };
}
