import { createHash } from 'node:crypto';
import type { AztecAddress } from '../../core/aztec-address.js';
import { blockBlobFields, checkpointEndMarker } from '../../core/blob/blob-fields.js';
import { SpongeBlob } from '../../core/blob/sponge-blob.js';
import { computeBlockHeadersHash } from '../../core/block/block-headers-hash.js';
import { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import { GlobalVariables } from '../../core/block/global-variables.js';
import type { L2Block } from '../../core/block/l2-block.js';
import { sha256ToField } from '../../core/crypto/sha256-to-field.js';
import type { EthAddress } from '../../core/eth-address.js';
import { Fr } from '../../core/fr.js';
import type { GasFees } from '../../core/gas/gas-fees.js';
import { computeInHash } from '../../core/messaging/in-hash.js';
import { accumulateCheckpointOutHashes, computeCheckpointOutHash } from '../../core/messaging/out-hash.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import type { CompletedCheckpoint } from '../chain/chain.js';

/** What every block of a checkpoint shares (4.1.2 CheckpointGlobalVariables plus the chain's ids). */
export interface CheckpointConstants {
  readonly number: number;
  readonly slot: number;
  /** The slot's timestamp: all blocks of a checkpoint carry it. */
  readonly timestamp: bigint;
  readonly chainId: Fr;
  readonly version: Fr;
  readonly coinbase: EthAddress;
  readonly feeRecipient: AztecAddress;
  readonly gasFees: GasFees;
}

/**
 * A checkpoint being built (4.1.2 LightweightCheckpointBuilder, without circuits): its constants, its
 * L1-to-L2 messages, the blob sponge across its blocks, and the blocks so far; `complete` gives the checkpoint
 * header (block headers hash, in hash, the epoch's accumulated out hash, mana).
 */
export class CheckpointBuilder {
  readonly sponge = SpongeBlob.init();
  private readonly blocks: L2Block[] = [];
  private readonly blobFields: bigint[] = [];

  constructor(
    readonly constants: CheckpointConstants,
    readonly l1ToL2Messages: readonly bigint[],
    /** Out hashes of the checkpoints before this one in its epoch. */
    private readonly previousOutHashes: readonly bigint[],
    /** The blobs hash of the whole payload when the settlement layer commits to blobs (a real L1); else the stand-in. */
    private readonly blobsHashOf?: (blobFields: readonly bigint[]) => bigint,
  ) {}

  /**
   * Resumes a checkpoint whose blocks are already stored (after a restart or a sync), absorbing their blob
   * fields so the next block's sponge hash continues from them.
   */
  static resume(
    constants: CheckpointConstants,
    l1ToL2Messages: readonly bigint[],
    previousOutHashes: readonly bigint[],
    blocks: readonly L2Block[],
    blobsHashOf?: (blobFields: readonly bigint[]) => bigint,
  ): CheckpointBuilder {
    const b = new CheckpointBuilder(constants, l1ToL2Messages, previousOutHashes, blobsHashOf);
    for (const block of blocks) {
      b.addBlock(block, blockBlobFields(block.header, block.body.txEffects, block.indexWithinCheckpoint === 0));
    }
    return b;
  }

  get blockCount(): number {
    return this.blocks.length;
  }

  get lastBlock(): L2Block | undefined {
    return this.blocks.at(-1);
  }

  globalsFor(blockNumber: number): GlobalVariables {
    const c = this.constants;
    return new GlobalVariables(
      c.chainId,
      c.version,
      blockNumber,
      c.slot,
      c.timestamp,
      c.coinbase,
      c.feeRecipient,
      c.gasFees,
    );
  }

  /** Records a block once it is applied: its fields enter the sponge the next block continues from. */
  addBlock(block: L2Block, blobFields: readonly bigint[]): void {
    this.sponge.absorb(blobFields);
    this.blobFields.push(...blobFields);
    this.blocks.push(block);
  }

  complete(): CompletedCheckpoint {
    const first = this.blocks[0];
    const last = this.blocks.at(-1);
    if (!first || !last) throw new Error(`Checkpoint ${this.constants.number} has no blocks to complete`);
    const c = this.constants;
    const blobFields = [...this.blobFields, checkpointEndMarker(this.blobFields.length + 1)];
    const outHash = computeCheckpointOutHash(
      this.blocks.map((b) => b.body.txEffects.map((e) => e.l2ToL1Msgs.map((m) => m.value))),
    );
    const header = CheckpointHeader.from({
      lastArchiveRoot: first.header.lastArchive.root,
      blockHeadersHash: new Fr(computeBlockHeadersHash(this.blocks.map((b) => b.header))),
      blobsHash: new Fr(this.blobsHashOf ? this.blobsHashOf(blobFields) : this.blobsHashStandIn()),
      inHash: new Fr(computeInHash(this.l1ToL2Messages)),
      epochOutHash: new Fr(accumulateCheckpointOutHashes([...this.previousOutHashes, outHash])),
      slotNumber: c.slot,
      timestamp: last.timestamp,
      coinbase: c.coinbase,
      feeRecipient: c.feeRecipient,
      gasFees: c.gasFees,
      totalManaUsed: new Fr(this.blocks.reduce((sum, b) => sum + b.header.totalManaUsed.value, 0n)),
    });
    return {
      number: c.number,
      header,
      firstBlock: first.number,
      lastBlock: last.number,
      slot: c.slot,
      archiveRoot: last.archive.root.toBuffer(),
      blobFields,
    };
  }

  /**
   * 4.1.2 hashes the versioned hashes of the checkpoint's blobs, which need KZG commitments over BLS12-381.
   * Without an L1 to post blobs to, a deterministic stand-in commits to the same fields: one pseudo versioned
   * hash (0x01, then sha256 of the Poseidon2 hash of every blob field, end marker included). See
   * docs/compatibility.md.
   */
  private blobsHashStandIn(): bigint {
    const sponge = this.sponge.clone();
    sponge.absorb([checkpointEndMarker(this.blobFields.length + 1)]);
    const versioned = createHash('sha256').update(bigIntToBuffer32(sponge.squeeze())).digest();
    versioned[0] = 0x01;
    return sha256ToField([versioned]);
  }
}
