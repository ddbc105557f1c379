import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { Signature } from '@aztec/foundation/eth-signature';
import { CommitteeAttestation as StdCommitteeAttestation } from '@aztec/stdlib/block';
import {
  CheckpointAttestation,
  CheckpointProposal,
  ConsensusPayload,
  getHashedSignaturePayload,
  SignatureDomainSeparator,
} from '@aztec/stdlib/p2p';
import { CheckpointHeader as StdCheckpointHeader } from '@aztec/stdlib/rollup';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { CheckpointHeader } from '../../../../src/core/block/checkpoint-header.js';
import { CommitteeAttestation } from '../../../../src/core/block/committee-attestation.js';
import { EthAddress } from '../../../../src/core/eth-address.js';
import { Fr } from '../../../../src/core/fr.js';
import { GasFees } from '../../../../src/core/gas/gas-fees.js';
import {
  checkpointAttestationDigest,
  checkpointProposalDigest,
} from '../../../../src/daemon/validators/consensus-digest.js';
import { verifyCheckpointAttestations } from '../../../../src/daemon/validators/verify-checkpoint-attestations.js';
import { testAddress, testKey } from './validator-fixtures.js';

const HEADER = CheckpointHeader.from({
  lastArchiveRoot: new Fr(11n),
  blockHeadersHash: new Fr(22n),
  blobsHash: new Fr(33n),
  inHash: new Fr(44n),
  epochOutHash: new Fr(55n),
  slotNumber: 77,
  timestamp: 1_767_225_600n,
  coinbase: EthAddress.fromString(testAddress(0)),
  feeRecipient: AztecAddress.fromBigInt(5n),
  gasFees: new GasFees(1n, 1000n),
  totalManaUsed: new Fr(12345n),
});
const ARCHIVE = 0x1234_5678n;
const PAYLOAD = { header: HEADER, archiveRoot: ARCHIVE };
const stdHeader = () => StdCheckpointHeader.fromBuffer(HEADER.toBuffer());

async function attest(i: number): Promise<CommitteeAttestation> {
  const signature = await privateKeyToAccount(testKey(i)).signMessage({
    message: { raw: checkpointAttestationDigest(PAYLOAD) },
  });
  return CommitteeAttestation.signed(EthAddress.fromString(testAddress(i)), Buffer.from(signature.slice(2), 'hex'));
}

describe('what validators sign, against Aztec 4.1.2', () => {
  it('the attestation digest is 4.1.2 ConsensusPayload.getPayloadToSign(checkpointAttestation), hashed', () => {
    const payload = new ConsensusPayload(stdHeader(), new StdFr(ARCHIVE), 0n);
    const expected = getHashedSignaturePayload(payload, SignatureDomainSeparator.checkpointAttestation).toString();
    expect(checkpointAttestationDigest(PAYLOAD)).toBe(expected);
  });

  it('the proposal digest is 4.1.2 CheckpointProposal.getPayloadToSign(checkpointProposal), hashed', () => {
    const proposal = new CheckpointProposal(stdHeader(), new StdFr(ARCHIVE), 0n, Signature.empty());
    const expected = getHashedSignaturePayload(proposal, SignatureDomainSeparator.checkpointProposal).toString();
    expect(checkpointProposalDigest(PAYLOAD)).toBe(expected);
  });

  it('4.1.2 recovers our attester and proposer from our signatures', async () => {
    const account = privateKeyToAccount(testKey(2));
    const proposerSignature = await account.signMessage({ message: { raw: checkpointProposalDigest(PAYLOAD) } });
    const attestation = await attest(1);
    const std = new CheckpointAttestation(
      new ConsensusPayload(stdHeader(), new StdFr(ARCHIVE), 0n),
      Signature.fromString(attestation.signatureHex() as `0x${string}`),
      Signature.fromString(proposerSignature),
    );
    expect(std.getSender()?.toString()).toBe(testAddress(1));
    expect(std.getProposer()?.toString()).toBe(testAddress(2));
  });

  it('attestations travel as 4.1.2 CommitteeAttestation JSON, signed or not', async () => {
    for (const a of [await attest(0), CommitteeAttestation.missing(EthAddress.fromString(testAddress(3)))]) {
      const json = a.toJSON();
      const parsed = StdCommitteeAttestation.schema.parse(json);
      expect(parsed.address.toString()).toBe(a.address.toString());
      expect(parsed.signature.isEmpty()).toBe(!a.isSigned);
      expect(parsed.signature.toString()).toBe(json.signature);
      expect(CommitteeAttestation.fromJSON(json).toJSON()).toEqual(json);
    }
  });
});

describe('verifyCheckpointAttestations', () => {
  const committee = [0, 1, 2, 3].map((i) => EthAddress.fromString(testAddress(i)));
  const missing = (i: number) => CommitteeAttestation.missing(committee[i] as EthAddress);

  it('accepts 2/3 + 1 of the committee (3 of 4) and names the signers', async () => {
    const check = await verifyCheckpointAttestations({
      ...PAYLOAD,
      attestations: [await attest(0), await attest(1), await attest(2), missing(3)],
    });
    expect(check).toMatchObject({ ok: true, committeeSize: 4, quorum: 3 });
    expect(check.signers.map(String)).toEqual([0, 1, 2].map(testAddress));
  });

  it('refuses 2 of 4, saying how many signed and the quorum', async () => {
    const check = await verifyCheckpointAttestations({
      ...PAYLOAD,
      attestations: [await attest(0), missing(1), await attest(2), missing(3)],
    });
    expect(check).toMatchObject({ ok: false, problem: '2 of 4 committee members signed; the quorum is 3' });
  });

  it('refuses a signature over another checkpoint, and a signer outside the committee', async () => {
    const other = await verifyCheckpointAttestations({
      header: HEADER,
      archiveRoot: ARCHIVE + 1n,
      attestations: [await attest(0), await attest(1), await attest(2), missing(3)],
    });
    expect(other.ok).toBe(false);
    expect(other.invalid).toHaveLength(3);
    expect(other.problem).toMatch(/the signature recovers to 0x[0-9a-f]{40}, not to the entry's address/);
    const outsider = await verifyCheckpointAttestations({
      ...PAYLOAD,
      attestations: [await attest(0), await attest(1), await attest(2), await attest(5)],
      committee: committee.slice(0, 3),
    });
    expect(outsider.ok).toBe(false);
    expect(outsider.outsiders.map(String)).toEqual([testAddress(5)]);
  });

  it('has nothing to check for a checkpoint of a chain without a committee', async () => {
    expect(await verifyCheckpointAttestations({ ...PAYLOAD, attestations: [] })).toMatchObject({
      ok: true,
      committeeSize: 0,
    });
  });
});
