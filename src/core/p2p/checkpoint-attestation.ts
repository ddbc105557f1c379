import { EthSignature } from '../crypto/eth-signature.js';
import type { EthAddress } from '../eth-address.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { CheckpointProposal } from './checkpoint-proposal.js';
import { ConsensusPayload, signedPayloadDigest } from './consensus-payload.js';

/**
 * A committee member's attestation of a checkpoint proposal, gossiped on `checkpoint_attestation` (4.1.2
 * CheckpointAttestation): the consensus payload, the attester's signature over it, and the proposer's signature
 * of the proposal it attests (so the attestation names its proposer).
 *
 * Binary: payload (header 316 B, archive 32 B, modifier int256), signature (68 B), proposer signature (68 B).
 */
export class CheckpointAttestation {
  constructor(
    readonly payload: ConsensusPayload,
    readonly signature: EthSignature,
    readonly proposerSignature: EthSignature,
  ) {}

  /** The attester's address, recovered from the ABI-encoded payload L1 also checks. */
  sender(): EthAddress | undefined {
    return this.signature.recoverSigner(signedPayloadDigest(this.payload.attestationPayloadToSign()));
  }

  /** The proposer of the attested checkpoint, recovered from its proposal signature. */
  proposer(): EthAddress | undefined {
    const p = this.payload;
    return new CheckpointProposal(p.header, p.archive, p.feeAssetPriceModifier, this.proposerSignature).sender();
  }

  /** Attests a proposal with an attester's key. */
  static sign(proposal: CheckpointProposal, privateKey: Uint8Array): CheckpointAttestation {
    const payload = new ConsensusPayload(proposal.checkpointHeader, proposal.archive, proposal.feeAssetPriceModifier);
    const signature = EthSignature.sign(signedPayloadDigest(payload.attestationPayloadToSign()), privateKey);
    return new CheckpointAttestation(payload, signature, proposal.signature);
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(316 + 64 + 2 * EthSignature.SIZE_IN_BYTES);
    this.payload.write(w);
    this.signature.write(w);
    this.proposerSignature.write(w);
    return w.toBuffer();
  }

  static fromBuffer(buf: Uint8Array): CheckpointAttestation {
    const r = new BufferReader(buf, 0, 'checkpointAttestation');
    const payload = ConsensusPayload.read(r, 'payload');
    const signature = EthSignature.read(r, 'signature');
    const proposerSignature = EthSignature.read(r, 'proposerSignature');
    r.assertEnd('proposerSignature');
    return new CheckpointAttestation(payload, signature, proposerSignature);
  }
}
