import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { decodeFunctionData } from 'viem';
import { describe, expect, it } from 'vitest';
import { CheckpointHeader } from '../../../../src/core/block/checkpoint-header.js';
import { EthAddress } from '../../../../src/core/eth-address.js';
import { Fr } from '../../../../src/core/fr.js';
import { GasFees } from '../../../../src/core/gas/gas-fees.js';
import { epochRootProofCalldata, proposeCalldata, word } from '../../../../src/daemon/l1/rollup-calldata.js';

const header = CheckpointHeader.empty({
  lastArchiveRoot: new Fr(11n),
  blockHeadersHash: new Fr(12n),
  blobsHash: new Fr(13n),
  inHash: new Fr(14n),
  epochOutHash: new Fr(15n),
  slotNumber: 7,
  timestamp: 1_795_000_028n,
  coinbase: EthAddress.fromString('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'),
  gasFees: new GasFees(0n, 1_269_970_000_000n),
  totalManaUsed: new Fr(456_000n),
});

describe('rollup calldata', () => {
  it('propose carries the header field by field, the archive, no attestations and the blob commitments', () => {
    const blobInput = `0x01${'ab'.repeat(48)}` as const;
    const { functionName, args } = decodeFunctionData({
      abi: RollupAbi,
      data: proposeCalldata(header, Buffer.alloc(32, 9), blobInput),
    });
    expect(functionName).toBe('propose');
    const [proposeArgs, attestations, signers, signature, blobs] = args as unknown as [
      { archive: string; oracleInput: { feeAssetPriceModifier: bigint }; header: Record<string, unknown> },
      { signatureIndices: string; signaturesOrAddresses: string },
      string[],
      { v: number },
      string,
    ];
    expect(proposeArgs.archive).toBe(`0x${'09'.repeat(32)}`);
    expect(proposeArgs.oracleInput.feeAssetPriceModifier).toBe(0n);
    expect(proposeArgs.header).toMatchObject({
      lastArchiveRoot: word(11n),
      blockHeadersHash: word(12n),
      blobsHash: word(13n),
      inHash: word(14n),
      outHash: word(15n),
      slotNumber: 7n,
      timestamp: 1_795_000_028n,
      coinbase: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      gasFees: { feePerDaGas: 0n, feePerL2Gas: 1_269_970_000_000n },
      totalManaUsed: 456_000n,
    });
    expect(attestations).toEqual({ signatureIndices: '0x', signaturesOrAddresses: '0x' });
    expect(signers).toEqual([]);
    expect(signature.v).toBe(0);
    expect(blobs).toBe(blobInput);
  });

  it('submitEpochRootProof pads the fee pairs to 32 checkpoints, the coinbase left-padded to a word', () => {
    const coinbase = EthAddress.fromString('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    const data = epochRootProofCalldata({
      start: 3,
      end: 4,
      previousArchive: Buffer.alloc(32, 1),
      endArchive: Buffer.alloc(32, 2),
      outHash: 5n,
      proverId: coinbase,
      checkpoints: [
        { coinbase, fees: 100n },
        { coinbase, fees: 0n },
      ],
      blobInputs: `0x${'cd'.repeat(192)}`,
    });
    const { args } = decodeFunctionData({ abi: RollupAbi, data });
    const [p] = args as unknown as [
      {
        start: bigint;
        end: bigint;
        args: { previousArchive: string; endArchive: string; outHash: string; proverId: string };
        fees: string[];
        attestations: unknown;
        blobInputs: string;
        proof: string;
      },
    ];
    expect([p.start, p.end]).toEqual([3n, 4n]);
    expect(p.args.outHash).toBe(word(5n));
    expect(p.fees).toHaveLength(64);
    expect(p.fees[0]).toBe(`0x${'00'.repeat(12)}70997970c51812dc3a010c7d01b50e0d17dc79c8`);
    expect(p.fees[1]).toBe(word(100n));
    expect(p.fees[3]).toBe(word(0n));
    expect(p.fees.slice(4).every((f) => f === word(0n))).toBe(true);
    // The rollup compares their hash with the one stored at proposal: both carry the empty value.
    expect(p.attestations).toEqual({ signatureIndices: '0x', signaturesOrAddresses: '0x' });
    expect(p.blobInputs).toBe(`0x${'cd'.repeat(192)}`);
  });
});
