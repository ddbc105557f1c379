import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { EthAddress } from '../eth-address.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { bigIntToBuffer32, bytesToBigInt } from '../serialize/field-bytes.js';

const ETH_SIGN_PREFIX = Buffer.from('\x19Ethereum Signed Message:\n32');
const HALF_N = secp256k1.CURVE.n >> 1n;

/**
 * A secp256k1 signature as Aztec 4.1.2 carries it in p2p messages (foundation Signature): r and s, 32 bytes
 * each, and v (27 or 28) written as a 4-byte big-endian integer, 68 bytes in all. (L1 and the stored
 * attestations carry v as one byte, 65 bytes.) The empty signature is all zero.
 */
export class EthSignature {
  static readonly SIZE_IN_BYTES = 68;
  static readonly EMPTY = new EthSignature(0n, 0n, 0);

  constructor(
    readonly r: bigint,
    readonly s: bigint,
    readonly v: number,
  ) {}

  get isEmpty(): boolean {
    return this.r === 0n && this.s === 0n && this.v === 0;
  }

  write(w: BufferWriter): void {
    w.writeBytes(bigIntToBuffer32(this.r));
    w.writeBytes(bigIntToBuffer32(this.s));
    w.writeU32(this.v);
  }

  static read(r: BufferReader, name = 'signature'): EthSignature {
    const rr = bytesToBigInt(r.readBytes(32, name, 'r'), 0, 32);
    const s = bytesToBigInt(r.readBytes(32, name, 's'), 0, 32);
    return new EthSignature(rr, s, r.readU32(name, 'v'));
  }

  /** The 65-byte r ‖ s ‖ v form (L1, viem). */
  toCompact65(): Buffer {
    return Buffer.concat([bigIntToBuffer32(this.r), bigIntToBuffer32(this.s), Buffer.from([this.v & 0xff])]);
  }

  static fromCompact65(bytes: Uint8Array): EthSignature {
    if (bytes.length !== 65) throw new RangeError(`A signature has 65 bytes, got ${bytes.length}`);
    return new EthSignature(bytesToBigInt(bytes, 0, 32), bytesToBigInt(bytes, 32, 32), bytes[64] as number);
  }

  /**
   * The address that signed `digest`, or undefined when the signature does not recover (4.1.2
   * tryRecoverAddress): v must be 27 or 28 and s must be low (no malleable twin).
   */
  recoverSigner(digest: Uint8Array): EthAddress | undefined {
    if (this.v !== 27 && this.v !== 28) return undefined;
    if (this.s > HALF_N) return undefined;
    try {
      const sig = new secp256k1.Signature(this.r, this.s).addRecoveryBit(this.v - 27);
      const pub = sig.recoverPublicKey(digest).toRawBytes(false);
      return EthAddress.fromBuffer(keccak_256(pub.subarray(1)).subarray(12));
    } catch {
      return undefined;
    }
  }

  /** Signs a 32-byte digest (low s, v 27 or 28), as 4.1.2's local signer does. */
  static sign(digest: Uint8Array, privateKey: Uint8Array): EthSignature {
    const sig = secp256k1.sign(digest, privateKey);
    return new EthSignature(sig.r, sig.s, sig.recovery ? 28 : 27);
  }
}

/** keccak256 of the EIP-191 prefix and a 32-byte hash (4.1.2 makeEthSignDigest): what validators really sign. */
export function ethSignDigest(hash: Uint8Array): Buffer {
  return Buffer.from(keccak_256(Buffer.concat([ETH_SIGN_PREFIX, hash])));
}

export function keccak256(data: Uint8Array): Buffer {
  return Buffer.from(keccak_256(data));
}
