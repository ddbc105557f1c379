import { encodeAbiParameters, type Hex, keccak256, parseAbiParameters } from 'viem';
import type { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import { toHex64 } from '../../core/fr.js';

/** 4.1.2 SignatureDomainSeparator values: what a signature is for is part of what is signed. */
export const SignatureDomain = {
  checkpointAttestation: 1,
  checkpointProposal: 3,
} as const;

/** What validators sign for a checkpoint: its header and the archive root after its last block. */
export interface ConsensusPayload {
  readonly header: CheckpointHeader;
  /** Archive tree root after the checkpoint's last block, as 0x + 64 hex or a bigint. */
  readonly archiveRoot: bigint;
  /** The fee asset price modifier in basis points; the dev chain has no oracle, so 0. */
  readonly feeAssetPriceModifier?: bigint;
}

const ATTESTATION_ABI = parseAbiParameters('uint8, (bytes32, (int256), bytes32)');

/**
 * The 32-byte hash a committee member signs to attest a checkpoint (4.1.2 ConsensusPayload.getPayloadToSign with
 * the checkpointAttestation domain, then keccak256): ABI encoding of the domain, the archive root, the oracle
 * input and the checkpoint header hash, exactly what the L1 rollup contract recovers signers from. The signature
 * itself is an EIP-191 personal signature of this hash (viem's signMessage with a raw message).
 */
export function checkpointAttestationDigest(p: ConsensusPayload): Hex {
  const encoded = encodeAbiParameters(ATTESTATION_ABI, [
    SignatureDomain.checkpointAttestation,
    [toHex64(p.archiveRoot) as Hex, [p.feeAssetPriceModifier ?? 0n], p.header.hash().toString() as Hex],
  ]);
  return keccak256(encoded);
}

/**
 * The 32-byte hash a proposer signs to propose a checkpoint (4.1.2 CheckpointProposal.getPayloadToSign with the
 * checkpointProposal domain, then keccak256): the domain as a big-endian u32, the 316-byte checkpoint header,
 * the archive root and the fee asset price modifier as a signed 256-bit integer.
 */
export function checkpointProposalDigest(p: ConsensusPayload): Hex {
  const domain = Buffer.alloc(4);
  domain.writeUInt32BE(SignatureDomain.checkpointProposal);
  const modifier = p.feeAssetPriceModifier ?? 0n;
  const signed = modifier < 0n ? (1n << 256n) + modifier : modifier;
  const bytes = Buffer.concat([
    domain,
    p.header.toBuffer(),
    Buffer.from(toHex64(p.archiveRoot).slice(2), 'hex'),
    Buffer.from(toHex64(signed).slice(2), 'hex'),
  ]);
  return keccak256(bytes);
}
