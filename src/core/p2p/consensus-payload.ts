import { CheckpointHeader } from '../block/checkpoint-header.js';
import { ethSignDigest, keccak256 } from '../crypto/eth-signature.js';
import type { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { bigIntToBuffer32, bytesToBigInt } from '../serialize/field-bytes.js';

/**
 * What a signature in a p2p message is for (4.1.2 SignatureDomainSeparator); it is the first thing signed, so a
 * signature for one purpose cannot be replayed for another.
 */
export const SignatureDomain = {
  blockProposal: 0,
  checkpointAttestation: 1,
  attestationsAndSigners: 2,
  checkpointProposal: 3,
  signedTxs: 4,
} as const;

export type SignatureDomain = (typeof SignatureDomain)[keyof typeof SignatureDomain];

/** A domain separator as 4.1.2 serialises it in a payload to sign: a 4-byte big-endian integer. */
export function domainBytes(domain: SignatureDomain): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(domain);
  return b;
}

/**
 * The digest a signer's address is recovered from, for a payload to sign (4.1.2
 * getHashedSignaturePayloadEthSignedMessage): keccak256 of the payload, then the EIP-191 digest of that hash.
 */
export function signedPayloadDigest(payloadToSign: Uint8Array): Buffer {
  return ethSignDigest(keccak256(payloadToSign));
}

/** A signed 256-bit integer as 32 big-endian two's-complement bytes (4.1.2 serializeSignedBigInt). */
export function writeInt256(w: BufferWriter, v: bigint): void {
  w.writeBytes(int256Bytes(v));
}

export function int256Bytes(v: bigint): Buffer {
  if (v < -(1n << 255n) || v >= 1n << 255n) throw new RangeError(`${v} does not fit a signed 256-bit integer`);
  return bigIntToBuffer32(v < 0n ? (1n << 256n) + v : v);
}

export function readInt256(r: BufferReader, name: string): bigint {
  const u = bytesToBigInt(r.readBytes(32, name), 0, 32);
  return u >= 1n << 255n ? u - (1n << 256n) : u;
}

/**
 * What committee members attest to (4.1.2 ConsensusPayload): a checkpoint header, the archive root after the
 * checkpoint's last block and the fee asset price modifier. Binary: header (316 B), archive (32 B), modifier
 * (int256).
 */
export class ConsensusPayload {
  constructor(
    readonly header: CheckpointHeader,
    readonly archive: Fr,
    readonly feeAssetPriceModifier: bigint = 0n,
  ) {}

  write(w: BufferWriter): void {
    w.writeBytes(this.header.toBuffer());
    w.writeFr(this.archive);
    writeInt256(w, this.feeAssetPriceModifier);
  }

  static read(r: BufferReader, name = 'payload'): ConsensusPayload {
    const header = CheckpointHeader.read(r, `${name}.header`);
    const archive = r.readFr(name, 'archive');
    return new ConsensusPayload(header, archive, readInt256(r, `${name}.feeAssetPriceModifier`));
  }

  /**
   * The bytes an attester signs (4.1.2 ConsensusPayload.getPayloadToSign, what the L1 rollup recovers signers
   * from): the ABI encoding of `(uint8 domain, (bytes32 archive, (int256 modifier), bytes32 headerHash))`. Every
   * member is static, so the encoding is four 32-byte words with no offsets.
   */
  attestationPayloadToSign(): Buffer {
    return Buffer.concat([
      bigIntToBuffer32(BigInt(SignatureDomain.checkpointAttestation)),
      this.archive.toBuffer(),
      int256Bytes(this.feeAssetPriceModifier),
      this.header.hash().toBuffer(),
    ]);
  }
}
