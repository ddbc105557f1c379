import { EthSignature } from '../crypto/eth-signature.js';
import type { EthAddress } from '../eth-address.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import type { Tx } from '../tx/tx.js';
import { domainBytes, SignatureDomain, signedPayloadDigest } from './consensus-payload.js';
import { readTxsCounted, writeTxsCounted } from './reqresp-payloads.js';

/**
 * The full txs a proposer may attach to a proposal, signed by the proposer (4.1.2 SignedTxs). Binary: u32
 * count, each Tx.toBuffer, the signature (68 B). Signed payload: domain (u32 4), u32 count, the txs.
 */
export class SignedTxs {
  constructor(
    readonly txs: readonly Tx[],
    readonly signature: EthSignature,
  ) {}

  payloadToSign(): Buffer {
    const w = new BufferWriter();
    w.writeBytes(domainBytes(SignatureDomain.signedTxs));
    writeTxsCounted(w, this.txs);
    return w.toBuffer();
  }

  /** The proposer that signed the txs, or undefined when the signature does not recover. */
  sender(): EthAddress | undefined {
    return this.signature.recoverSigner(signedPayloadDigest(this.payloadToSign()));
  }

  write(w: BufferWriter): void {
    writeTxsCounted(w, this.txs);
    this.signature.write(w);
  }

  static read(r: BufferReader, name = 'signedTxs'): SignedTxs {
    const txs = readTxsCounted(r, `${name}.txs`);
    return new SignedTxs(txs, EthSignature.read(r, `${name}.signature`));
  }
}
