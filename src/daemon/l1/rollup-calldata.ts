import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { encodeFunctionData, type Hex } from 'viem';
import type { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import { MAX_CHECKPOINTS_PER_EPOCH } from '../../core/constants.js';
import type { EthAddress } from '../../core/eth-address.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';

/**
 * The committee's attestations as the rollup takes them. The node's deployment has no committee (Aztec's local
 * network configuration), so a proposal carries none: the rollup then skips proposer and signature checks and
 * stores the hash of this empty value, which the epoch proof must repeat.
 */
const NO_ATTESTATIONS = { signatureIndices: '0x', signaturesOrAddresses: '0x' } as const;
const ZERO_WORD = `0x${'00'.repeat(32)}` as const;

export function word(value: bigint | Buffer): Hex {
  return `0x${(Buffer.isBuffer(value) ? value : bigIntToBuffer32(value)).toString('hex')}`;
}

/** The rollup's ProposedHeader of a checkpoint header (same fields; `outHash` is the epoch's accumulated out hash). */
function proposedHeader(h: CheckpointHeader) {
  return {
    lastArchiveRoot: word(h.lastArchiveRoot.value),
    blockHeadersHash: word(h.blockHeadersHash.value),
    blobsHash: word(h.blobsHash.value),
    inHash: word(h.inHash.value),
    outHash: word(h.epochOutHash.value),
    slotNumber: BigInt(h.slotNumber),
    timestamp: h.timestamp,
    coinbase: h.coinbase.toString() as Hex,
    feeRecipient: word(h.feeRecipient.toBuffer()),
    gasFees: { feePerDaGas: h.gasFees.feePerDaGas, feePerL2Gas: h.gasFees.feePerL2Gas },
    totalManaUsed: h.totalManaUsed.value,
  };
}

/**
 * `propose` of a checkpoint: its header, the archive root after it, no fee asset price change (4.1.2's sequencer
 * uses 0 when there is no price oracle on L1, as on any dev chain), no attestations, and the blob commitments.
 */
export function proposeCalldata(header: CheckpointHeader, archiveRoot: Buffer, blobInput: Hex): Hex {
  return encodeFunctionData({
    abi: RollupAbi,
    functionName: 'propose',
    args: [
      { archive: word(archiveRoot), oracleInput: { feeAssetPriceModifier: 0n }, header: proposedHeader(header) },
      NO_ATTESTATIONS,
      [],
      { v: 0, r: ZERO_WORD, s: ZERO_WORD },
      blobInput,
    ],
  });
}

/** One checkpoint of an epoch proof: who its fees go to and how much they are. */
export interface ProvenCheckpointFees {
  readonly coinbase: EthAddress;
  /** The sum of its txs' fees (fee asset units). */
  readonly fees: bigint;
}

export interface EpochRootProofInput {
  readonly start: number;
  readonly end: number;
  /** Archive root before `start` and after `end`. */
  readonly previousArchive: Buffer;
  readonly endArchive: Buffer;
  /** The epoch's out hash: the accumulated one of checkpoint `end`'s header. */
  readonly outHash: bigint;
  readonly proverId: EthAddress;
  readonly checkpoints: readonly ProvenCheckpointFees[];
  /** The epoch's batched blob opening (192 bytes, for the point evaluation precompile). */
  readonly blobInputs: Hex;
}

/**
 * `submitEpochRootProof` for checkpoints start..end of one epoch. The deployment's verifier is Aztec's
 * MockVerifier (the local network's), which accepts any proof bytes; everything else (archives, out hash,
 * attestations, fees, the blob opening) the rollup checks for real.
 */
export function epochRootProofCalldata(p: EpochRootProofInput): Hex {
  const fees: Hex[] = [];
  for (const c of p.checkpoints) {
    fees.push(word(Buffer.concat([Buffer.alloc(12), c.coinbase.bytes])), word(c.fees));
  }
  while (fees.length < 2 * MAX_CHECKPOINTS_PER_EPOCH) fees.push(ZERO_WORD);
  return encodeFunctionData({
    abi: RollupAbi,
    functionName: 'submitEpochRootProof',
    args: [
      {
        start: BigInt(p.start),
        end: BigInt(p.end),
        args: {
          previousArchive: word(p.previousArchive),
          endArchive: word(p.endArchive),
          outHash: word(p.outHash),
          proverId: p.proverId.toString() as Hex,
        },
        fees,
        attestations: NO_ATTESTATIONS,
        blobInputs: p.blobInputs,
        proof: '0x',
      },
    ],
  });
}
