import { EthAddress } from '../eth-address.js';

/** Bytes of a secp256k1 signature as L1 and 4.1.2 carry it: r (32), s (32), v (1, 27 or 28). */
export const SIGNATURE_SIZE = 65;

/** Thrown when stored or received attestation bytes or JSON are malformed; the message says which part. */
export class CommitteeAttestationError extends Error {
  override name = 'CommitteeAttestationError';
}

/**
 * One committee member's entry in a checkpoint's attestations (4.1.2 CommitteeAttestation): its address and
 * its signature over the checkpoint's consensus payload, or the empty signature when it did not sign (the
 * list holds the whole committee, in committee order, as L1 receives it).
 */
export class CommitteeAttestation {
  private constructor(
    readonly address: EthAddress,
    /** 65 bytes; all zero when the member did not sign. */
    readonly signature: Buffer,
  ) {}

  static signed(address: EthAddress, signature: Uint8Array): CommitteeAttestation {
    if (signature.length !== SIGNATURE_SIZE) {
      throw new CommitteeAttestationError(`A signature has ${SIGNATURE_SIZE} bytes, got ${signature.length}`);
    }
    return new CommitteeAttestation(address, Buffer.from(signature));
  }

  /** A member that did not sign. */
  static missing(address: EthAddress): CommitteeAttestation {
    return new CommitteeAttestation(address, Buffer.alloc(SIGNATURE_SIZE));
  }

  get isSigned(): boolean {
    return !this.signature.every((b) => b === 0);
  }

  /** The signature as 0x + r + s + v, the form viem signs and recovers (undefined when not signed). */
  signatureHex(): `0x${string}` | undefined {
    return this.isSigned ? `0x${this.signature.toString('hex')}` : undefined;
  }

  /**
   * 4.1.2 wire form `{address, signature}`: the signature is r and s as 64 hex digits each, then v in hex
   * without padding (so an empty signature ends in a single `0`), as its Signature.toString writes it.
   */
  toJSON(): { address: string; signature: string } {
    const r = this.signature.subarray(0, 32).toString('hex');
    const s = this.signature.subarray(32, 64).toString('hex');
    const v = (this.signature[64] as number).toString(16);
    return { address: this.address.toString(), signature: `0x${r}${s}${v}` };
  }

  static fromJSON(json: unknown, path = 'attestation'): CommitteeAttestation {
    if (typeof json !== 'object' || json === null) throw new CommitteeAttestationError(`${path}: expected an object`);
    const { address, signature } = json as { address?: unknown; signature?: unknown };
    if (typeof address !== 'string' || !EthAddress.isValid(address)) {
      throw new CommitteeAttestationError(`${path}.address: expected a 20-byte hex address`);
    }
    if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]{129,130}$/.test(signature)) {
      throw new CommitteeAttestationError(`${path}.signature: expected 0x + r, s (64 hex digits each) and v`);
    }
    const bytes = Buffer.alloc(SIGNATURE_SIZE);
    Buffer.from(signature.slice(2, 130), 'hex').copy(bytes, 0);
    bytes[64] = Number.parseInt(signature.slice(130), 16);
    return new CommitteeAttestation(EthAddress.fromString(address), bytes);
  }

  /** Storage form of a list: per entry the 20-byte address then the 65-byte signature. */
  static encodeList(list: readonly CommitteeAttestation[]): Buffer {
    return Buffer.concat(list.flatMap((a) => [a.address.bytes, a.signature]));
  }

  static decodeList(buf: Uint8Array): CommitteeAttestation[] {
    const entry = 20 + SIGNATURE_SIZE;
    if (buf.length % entry !== 0) {
      throw new CommitteeAttestationError(`An attestation list is a multiple of ${entry} bytes, got ${buf.length}`);
    }
    const out: CommitteeAttestation[] = [];
    for (let o = 0; o < buf.length; o += entry) {
      const address = EthAddress.fromBuffer(buf.subarray(o, o + 20));
      out.push(new CommitteeAttestation(address, Buffer.from(buf.subarray(o + 20, o + entry))));
    }
    return out;
  }
}
