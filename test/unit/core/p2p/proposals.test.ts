import { IndexWithinCheckpoint } from '@aztec/foundation/branded-types';
import { Buffer32 } from '@aztec/foundation/buffer';
import { Secp256k1Signer } from '@aztec/foundation/crypto/secp256k1-signer';
import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import {
  getHashedSignaturePayloadEthSignedMessage,
  SignatureDomainSeparator,
  BlockProposal as StdBlockProposal,
  CheckpointAttestation as StdCheckpointAttestation,
  CheckpointProposal as StdCheckpointProposal,
  ConsensusPayload as StdConsensusPayload,
} from '@aztec/stdlib/p2p';
import { CheckpointHeader as StdCheckpointHeader } from '@aztec/stdlib/rollup';
import { mockTx } from '@aztec/stdlib/testing';
import { BlockHeader as StdBlockHeader, type Tx as StdTx, TxHash as StdTxHash } from '@aztec/stdlib/tx';
import { beforeAll, describe, expect, it } from 'vitest';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { EthSignature } from '../../../../src/core/crypto/eth-signature.js';
import { Fr } from '../../../../src/core/fr.js';
import { BlockProposal } from '../../../../src/core/p2p/block-proposal.js';
import { CheckpointAttestation } from '../../../../src/core/p2p/checkpoint-attestation.js';
import { CheckpointProposal } from '../../../../src/core/p2p/checkpoint-proposal.js';
import { SignatureDomain, signedPayloadDigest } from '../../../../src/core/p2p/consensus-payload.js';
import { TxHash } from '../../../../src/core/tx-hash.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

const proposerKey = Buffer32.fromBuffer(Buffer.alloc(32, 0x11));
const attesterKey = Buffer32.fromBuffer(Buffer.alloc(32, 0x22));
const proposer = new Secp256k1Signer(proposerKey);
const attester = new Secp256k1Signer(attesterKey);
const signWith = (s: Secp256k1Signer) => (hash: Buffer32) => Promise.resolve(s.signMessage(hash));

let txs: StdTx[];
beforeAll(async () => {
  await initAztecOracle();
  txs = [await mockTx(11), await mockTx(12, { publicCalldataSize: 2 })];
});

async function stdBlockProposal(withTxs: boolean): Promise<StdBlockProposal> {
  return StdBlockProposal.createProposalFromSigner(
    StdBlockHeader.random(),
    IndexWithinCheckpoint(2),
    StdFr.random(),
    StdFr.random(),
    [StdTxHash.random(), StdTxHash.random(), StdTxHash.random()],
    withTxs ? txs : undefined,
    signWith(proposer),
  );
}

async function stdCheckpointProposal(lastBlock: 'none' | 'hashes' | 'txs', modifier = -12345n) {
  return StdCheckpointProposal.createProposalFromSigner(
    StdCheckpointHeader.random(),
    StdFr.random(),
    modifier,
    lastBlock === 'none'
      ? undefined
      : {
          blockHeader: StdBlockHeader.random(),
          indexWithinCheckpoint: IndexWithinCheckpoint(1),
          txHashes: txs.map((t) => t.getTxHash()),
          txs: lastBlock === 'txs' ? txs : undefined,
        },
    signWith(proposer),
  );
}

describe('signatures', () => {
  it('are 68 bytes (v as a u32) and recover as 4.1.2 tryRecoverAddress', () => {
    const digest = Buffer.alloc(32, 5);
    const std = proposer.sign(Buffer32.fromBuffer(digest));
    const ours = EthSignature.sign(digest, proposerKey.buffer);
    expect(ours.toCompact65()).toEqual(Buffer.concat([std.r.buffer, std.s.buffer, Buffer.from([std.v])]));
    const decoded = BlockProposal.fromBuffer(
      Buffer.from(
        StdBlockProposal.fromBuffer(
          new StdBlockProposal(
            StdBlockHeader.empty(),
            IndexWithinCheckpoint(0),
            StdFr.ZERO,
            StdFr.ZERO,
            [],
            std,
          ).toBuffer(),
        ).toBuffer(),
      ),
    ).signature;
    expect(decoded.r).toBe(ours.r);
    expect(decoded.v).toBe(std.v);
    expect(ours.recoverSigner(digest)?.toString()).toBe(proposer.address.toString());
    // High s (the malleable twin), a v that is not 27/28 and the empty signature recover nobody, as in 4.1.2.
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    expect(new EthSignature(ours.r, n - ours.s, ours.v === 27 ? 28 : 27).recoverSigner(digest)).toBeUndefined();
    expect(new EthSignature(ours.r, ours.s, 1).recoverSigner(digest)).toBeUndefined();
    expect(EthSignature.EMPTY.recoverSigner(digest)).toBeUndefined();
  });
});

describe('BlockProposal', () => {
  it('decodes and re-encodes 4.1.2 proposals byte for byte, with and without txs, and recovers the proposer', async () => {
    for (const withTxs of [false, true]) {
      const std = await stdBlockProposal(withTxs);
      const bytes = std.toBuffer();
      const ours = BlockProposal.fromBuffer(bytes);
      expect(ours.toBuffer()).toEqual(bytes);
      expect(ours.payloadToSign()).toEqual(std.getPayload());
      expect(ours.sender()?.toString()).toBe(std.getSender()?.toString());
      expect(ours.sender()?.toString()).toBe(proposer.address.toString());
      expect(ours.signedTxs?.txs.length ?? 0).toBe(withTxs ? 2 : 0);
      expect(ours.blockNumber).toBe(std.blockNumber);
      expect(ours.slotNumber).toBe(Number(std.slotNumber));
    }
  });

  it('signs proposals 4.1.2 decodes and attributes to the signer', () => {
    const header = BlockHeader.fromBuffer(StdBlockHeader.random().toBuffer());
    const ours = BlockProposal.sign(
      {
        blockHeader: header,
        indexWithinCheckpoint: 0,
        inHash: new Fr(3n),
        archiveRoot: new Fr(4n),
        txHashes: [new TxHash(9n)],
      },
      proposerKey.buffer,
    );
    const std = StdBlockProposal.fromBuffer(ours.toBuffer());
    expect(std.toBuffer()).toEqual(ours.toBuffer());
    expect(std.getSender()?.toString()).toBe(proposer.address.toString());
  });

  it('rejects a proposal whose txs another key signed, and malformed bytes', async () => {
    const std = await stdBlockProposal(true);
    const forged = await StdBlockProposal.createProposalFromSigner(
      std.blockHeader,
      std.indexWithinCheckpoint,
      std.inHash,
      std.archiveRoot,
      std.txHashes,
      txs,
      (hash, ctx) => (ctx.dutyType === 'TXS' ? signWith(attester)(hash) : signWith(proposer)(hash)),
    );
    expect(forged.getSender()).toBeUndefined();
    expect(BlockProposal.fromBuffer(forged.toBuffer()).sender()).toBeUndefined();
    const bytes = std.toBuffer();
    expect(() => BlockProposal.fromBuffer(bytes.subarray(0, 500))).toThrow(/blockProposal/);
    expect(() => BlockProposal.fromBuffer(Buffer.concat([bytes, Buffer.from([1])]))).toThrow(/trailing|signedTxs/);
  });
});

describe('CheckpointProposal', () => {
  it('decodes and re-encodes 4.1.2 proposals byte for byte and recovers the proposer', async () => {
    for (const lastBlock of ['none', 'hashes', 'txs'] as const) {
      const std = await stdCheckpointProposal(lastBlock);
      const bytes = std.toBuffer();
      const ours = CheckpointProposal.fromBuffer(bytes);
      expect(ours.toBuffer()).toEqual(bytes);
      expect(ours.feeAssetPriceModifier).toBe(-12345n);
      expect(ours.payloadToSign()).toEqual(std.getPayload());
      expect(ours.sender()?.toString()).toBe(proposer.address.toString());
      expect(ours.lastBlockProposal()?.toBuffer()).toEqual(std.getBlockProposal()?.toBuffer());
    }
  });
});

describe('CheckpointAttestation', () => {
  it('signs the ABI payload 4.1.2 signs and round-trips its bytes', async () => {
    const proposal = await stdCheckpointProposal('none', 7n);
    const payload = new StdConsensusPayload(
      proposal.checkpointHeader,
      proposal.archive,
      proposal.feeAssetPriceModifier,
    );
    const digest = getHashedSignaturePayloadEthSignedMessage(payload, SignatureDomainSeparator.checkpointAttestation);
    const std = new StdCheckpointAttestation(payload, attester.sign(digest), proposal.signature);
    const bytes = std.toBuffer();
    const ours = CheckpointAttestation.fromBuffer(bytes);
    expect(ours.toBuffer()).toEqual(bytes);
    expect(ours.payload.attestationPayloadToSign()).toEqual(
      payload.getPayloadToSign(SignatureDomainSeparator.checkpointAttestation),
    );
    expect(signedPayloadDigest(ours.payload.attestationPayloadToSign())).toEqual(digest.buffer);
    expect(ours.sender()?.toString()).toBe(attester.address.toString());
    expect(ours.proposer()?.toString()).toBe(proposer.address.toString());

    const signed = CheckpointAttestation.sign(CheckpointProposal.fromBuffer(proposal.toBuffer()), attesterKey.buffer);
    const back = StdCheckpointAttestation.fromBuffer(signed.toBuffer());
    expect(back.getSender()?.toString()).toBe(attester.address.toString());
    expect(back.getProposer()?.toString()).toBe(proposer.address.toString());
    expect(SignatureDomain.checkpointAttestation).toBe(SignatureDomainSeparator.checkpointAttestation);
  });

  it("carries a negative fee modifier as a two's-complement int256", async () => {
    const proposal = await stdCheckpointProposal('none', -1n);
    const std = new StdCheckpointAttestation(
      new StdConsensusPayload(proposal.checkpointHeader, proposal.archive, -1n),
      proposal.signature,
      proposal.signature,
    );
    const ours = CheckpointAttestation.fromBuffer(std.toBuffer());
    expect(ours.payload.feeAssetPriceModifier).toBe(-1n);
    expect(ours.toBuffer()).toEqual(std.toBuffer());
  });
});
