import { BlockHeader } from '../block/block-header.js';
import { CheckpointHeader } from '../block/checkpoint-header.js';
import { EthSignature } from '../crypto/eth-signature.js';
import type { EthAddress } from '../eth-address.js';
import type { Fr } from '../fr.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import type { TxHash } from '../tx-hash.js';
import { BlockProposal, readOptionalSignedTxs, writeOptionalSignedTxs } from './block-proposal.js';
import { domainBytes, readInt256, SignatureDomain, signedPayloadDigest, writeInt256 } from './consensus-payload.js';
import { readTxHashes, writeTxHashes } from './reqresp-payloads.js';
import type { SignedTxs } from './signed-txs.js';

/** The checkpoint's last block, carried inside its proposal with the block's own proposal signature. */
export interface CheckpointLastBlock {
  readonly blockHeader: BlockHeader;
  readonly indexWithinCheckpoint: number;
  readonly txHashes: readonly TxHash[];
  readonly signature: EthSignature;
  readonly signedTxs?: SignedTxs;
}

/**
 * A proposer's checkpoint, gossiped on `checkpoint_proposal` for the committee to attest (4.1.2
 * CheckpointProposal).
 *
 * Binary: checkpoint header (316 B), archive (32 B), fee asset price modifier (int256), signature (68 B), then
 * u32 1 and the last block (header, u32 index, its signature, u32 count and hashes, u32 0/1 and SignedTxs), or
 * u32 0.
 *
 * Signed payload: domain (u32 3), checkpoint header, archive, modifier (int256).
 */
export class CheckpointProposal {
  constructor(
    readonly checkpointHeader: CheckpointHeader,
    readonly archive: Fr,
    readonly feeAssetPriceModifier: bigint,
    readonly signature: EthSignature,
    readonly lastBlock?: CheckpointLastBlock,
  ) {}

  get slotNumber(): number {
    return this.checkpointHeader.slotNumber;
  }

  payloadToSign(): Buffer {
    const w = new BufferWriter(4 + CheckpointHeader.SIZE_IN_BYTES + 64);
    w.writeBytes(domainBytes(SignatureDomain.checkpointProposal));
    w.writeBytes(this.checkpointHeader.toBuffer());
    w.writeFr(this.archive);
    writeInt256(w, this.feeAssetPriceModifier);
    return w.toBuffer();
  }

  /** The last block as the block proposal it was (its inHash is the checkpoint's, its archive the checkpoint's). */
  lastBlockProposal(): BlockProposal | undefined {
    const b = this.lastBlock;
    if (!b) return undefined;
    return new BlockProposal(
      b.blockHeader,
      b.indexWithinCheckpoint,
      this.checkpointHeader.inHash,
      this.archive,
      b.txHashes,
      b.signature,
      b.signedTxs,
    );
  }

  /**
   * The proposer's address, or undefined when a signature does not recover or the last block was signed by
   * someone else (4.1.2 CheckpointProposal.getSender).
   */
  sender(): EthAddress | undefined {
    const signer = this.signature.recoverSigner(signedPayloadDigest(this.payloadToSign()));
    if (signer && this.lastBlock) {
      const blockSigner = this.lastBlockProposal()?.sender();
      if (!blockSigner?.equals(signer)) return undefined;
    }
    return signer;
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(CheckpointHeader.SIZE_IN_BYTES + 1024);
    w.writeBytes(this.checkpointHeader.toBuffer());
    w.writeFr(this.archive);
    writeInt256(w, this.feeAssetPriceModifier);
    this.signature.write(w);
    const b = this.lastBlock;
    w.writeU32(b ? 1 : 0);
    if (b) {
      w.writeBytes(b.blockHeader.toBuffer());
      w.writeU32(b.indexWithinCheckpoint);
      b.signature.write(w);
      writeTxHashes(w, b.txHashes);
      writeOptionalSignedTxs(w, b.signedTxs);
    }
    return w.toBuffer();
  }

  static fromBuffer(buf: Uint8Array): CheckpointProposal {
    const r = new BufferReader(buf, 0, 'checkpointProposal');
    const checkpointHeader = CheckpointHeader.read(r, 'checkpointHeader');
    const archive = r.readFr('archive');
    const modifier = readInt256(r, 'feeAssetPriceModifier');
    const signature = EthSignature.read(r, 'signature');
    const hasLastBlock = r.readU32('lastBlock', 'present');
    if (hasLastBlock > 1) throw r.error('lastBlock', 'present', `the flag must be 0 or 1, got ${hasLastBlock}`);
    let lastBlock: CheckpointLastBlock | undefined;
    if (hasLastBlock === 1) {
      const blockHeader = BlockHeader.read(r, 'lastBlock.blockHeader');
      const indexWithinCheckpoint = r.readU32('lastBlock', 'indexWithinCheckpoint');
      const blockSignature = EthSignature.read(r, 'lastBlock.signature');
      const txHashes = readTxHashes(r, 'lastBlock.txHashes');
      const signedTxs = readOptionalSignedTxs(r, 'lastBlock.signedTxs');
      lastBlock = { blockHeader, indexWithinCheckpoint, txHashes, signature: blockSignature, signedTxs };
    }
    r.assertEnd('checkpointProposal');
    return new CheckpointProposal(checkpointHeader, archive, modifier, signature, lastBlock);
  }
}
