import { BlockHeader } from '../block/block-header.js';
import { EthSignature } from '../crypto/eth-signature.js';
import type { EthAddress } from '../eth-address.js';
import type { Fr } from '../fr.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import type { TxHash } from '../tx-hash.js';
import { domainBytes, SignatureDomain, signedPayloadDigest } from './consensus-payload.js';
import { readTxHashes, writeTxHashes } from './reqresp-payloads.js';
import { SignedTxs } from './signed-txs.js';

/**
 * A proposer's block, gossiped on `block_proposal` before it is checkpointed (4.1.2 BlockProposal).
 *
 * Binary: block header (440 B), u32 index within the checkpoint, inHash (32 B), archive root after the block
 * (32 B), signature (68 B), u32 tx count, the tx hashes (32 B each), then u32 1 and the SignedTxs when the full
 * txs are attached, else u32 0. (4.1.2 also reads a proposal that ends right after the hashes.)
 *
 * Signed payload: domain (u32 0), header, u32 index, inHash, archive, u32 count, the hashes.
 */
export interface BlockProposalFields {
  readonly blockHeader: BlockHeader;
  readonly indexWithinCheckpoint: number;
  readonly inHash: Fr;
  readonly archiveRoot: Fr;
  readonly txHashes: readonly TxHash[];
}

export class BlockProposal {
  constructor(
    readonly blockHeader: BlockHeader,
    readonly indexWithinCheckpoint: number,
    readonly inHash: Fr,
    readonly archiveRoot: Fr,
    readonly txHashes: readonly TxHash[],
    readonly signature: EthSignature,
    readonly signedTxs?: SignedTxs,
  ) {}

  get blockNumber(): number {
    return this.blockHeader.blockNumber;
  }

  get slotNumber(): number {
    return this.blockHeader.slotNumber;
  }

  payloadToSign(): Buffer {
    const w = new BufferWriter(512 + 32 * this.txHashes.length);
    w.writeBytes(domainBytes(SignatureDomain.blockProposal));
    writeBlockPart(w, this.blockHeader, this.indexWithinCheckpoint, this.inHash, this.archiveRoot);
    writeTxHashes(w, this.txHashes);
    return w.toBuffer();
  }

  /**
   * The proposer's address, or undefined when the signature does not recover or the attached txs were signed
   * by someone else (4.1.2 BlockProposal.getSender).
   */
  sender(): EthAddress | undefined {
    const signer = this.signature.recoverSigner(signedPayloadDigest(this.payloadToSign()));
    if (signer && this.signedTxs) {
      const txsSigner = this.signedTxs.sender();
      if (!txsSigner?.equals(signer)) return undefined;
    }
    return signer;
  }

  /** Signs a proposal with a proposer's key (a validator of the daemon does this with its keystore key). */
  static sign(f: BlockProposalFields, privateKey: Uint8Array): BlockProposal {
    const unsigned = new BlockProposal(
      f.blockHeader,
      f.indexWithinCheckpoint,
      f.inHash,
      f.archiveRoot,
      f.txHashes,
      EthSignature.EMPTY,
    );
    const signature = EthSignature.sign(signedPayloadDigest(unsigned.payloadToSign()), privateKey);
    return new BlockProposal(f.blockHeader, f.indexWithinCheckpoint, f.inHash, f.archiveRoot, f.txHashes, signature);
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(BlockHeader.SIZE_IN_BYTES + 200 + 32 * this.txHashes.length);
    writeBlockPart(w, this.blockHeader, this.indexWithinCheckpoint, this.inHash, this.archiveRoot);
    this.signature.write(w);
    writeTxHashes(w, this.txHashes);
    writeOptionalSignedTxs(w, this.signedTxs);
    return w.toBuffer();
  }

  static fromBuffer(buf: Uint8Array): BlockProposal {
    const r = new BufferReader(buf, 0, 'blockProposal');
    const blockHeader = BlockHeader.read(r, 'blockHeader');
    const indexWithinCheckpoint = r.readU32('indexWithinCheckpoint');
    const inHash = r.readFr('inHash');
    const archiveRoot = r.readFr('archiveRoot');
    const signature = EthSignature.read(r, 'signature');
    const txHashes = readTxHashes(r, 'txHashes');
    const signedTxs = readOptionalSignedTxs(r, 'signedTxs');
    r.assertEnd('signedTxs');
    return new BlockProposal(blockHeader, indexWithinCheckpoint, inHash, archiveRoot, txHashes, signature, signedTxs);
  }
}

function writeBlockPart(w: BufferWriter, header: BlockHeader, index: number, inHash: Fr, archive: Fr): void {
  w.writeBytes(header.toBuffer());
  w.writeU32(index);
  w.writeFr(inHash);
  w.writeFr(archive);
}

/** u32 1 then the SignedTxs, or u32 0. */
export function writeOptionalSignedTxs(w: BufferWriter, signedTxs: SignedTxs | undefined): void {
  w.writeU32(signedTxs ? 1 : 0);
  signedTxs?.write(w);
}

/**
 * The optional SignedTxs at the end of a proposal. 4.1.2 reads it only when bytes remain and takes any non-zero
 * flag as "present"; we accept exactly 0 or 1 so one proposal has one encoding.
 */
export function readOptionalSignedTxs(r: BufferReader, name: string): SignedTxs | undefined {
  if (r.remaining === 0) return undefined;
  const flag = r.readU32(name, 'present');
  if (flag > 1) throw r.error(name, 'present', `the flag must be 0 or 1, got ${flag}`);
  return flag === 1 ? SignedTxs.read(r, name) : undefined;
}
