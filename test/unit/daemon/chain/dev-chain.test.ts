import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpongeBlob as StdSpongeBlob } from '@aztec/blob-lib';
import { L2Block as StdL2Block } from '@aztec/stdlib/block';
import { afterEach, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { L2Block } from '../../../../src/core/block/l2-block.js';
import { ContractClassPublishedEvent } from '../../../../src/core/contract/contract-class-published-event.js';
import { PublicKeys } from '../../../../src/core/contract/public-keys.js';
import { EthAddress } from '../../../../src/core/eth-address.js';
import { Fr } from '../../../../src/core/fr.js';
import { computeFeePayerBalanceLeafSlot } from '../../../../src/core/hash/siloing.js';
import { PrivateLog } from '../../../../src/core/logs/private-log.js';
import { TxBuilder } from '../../../../src/core/tx/tx-builder.js';
import { ManualClock } from '../../../../src/daemon/lifecycle/manual-clock.js';
import { defaultPrefundedAccounts } from '../../../../src/daemon/sequencer/prefunded-accounts.js';
import { MerkleTreeId } from '../../../../src/daemon/world-state/merkle-tree-id.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';
import { type DevChain, MIN_FEES, startDevChain } from './dev-chain-fixture.js';

let dev: DevChain | undefined;
afterEach(async () => {
  await dev?.close();
  dev = undefined;
});

const payer = defaultPrefundedAccounts()[0]!;

describe('the dev chain', () => {
  it('builds a block from pending txs at the next block interval, charging each fee to its payer', async () => {
    dev = await startDevChain();
    const { service, source } = dev;
    const txs = [dev.tx(), dev.tx({ privateLogs: [PrivateLog.fromEmitted([new Fr(77n), new Fr(1n)])] })];
    source.add(...txs);
    expect(service.chain.latestBlockNumber).toBe(0);
    dev.advanceBlocks();
    expect(service.chain.latestBlockNumber).toBe(1);
    const block = service.chain.store.getBlock(1);
    expect(block?.body.txEffects.map((e) => e.txHash.toString()).sort()).toEqual(
      txs.map((t) => t.txHash.toString()).sort(),
    );
    expect(source.txs).toEqual([]);
    const fees = block!.body.txEffects.map((e) => e.transactionFee.value);
    for (const [i, tx] of txs.entries()) {
      const effect = block!.body.txEffects.find((e) => e.txHash.equals(tx.txHash))!;
      expect(effect.transactionFee.value).toBe(BigInt(tx.data.gasUsed.l2Gas) * MIN_FEES.feePerL2Gas);
      expect(effect.publicDataWrites).toHaveLength(1);
      expect(effect.publicDataWrites[0]?.leafSlot.value).toBe(computeFeePayerBalanceLeafSlot(payer.address.value));
      void i;
    }
    const balance = service.worldState.getPublicStorageAt(
      'latest',
      computeFeePayerBalanceLeafSlot(payer.address.value),
    );
    expect(balance).toBe(payer.amount - fees.reduce((a, b) => a + b, 0n));
    expect(block!.header.totalFees.value).toBe(fees.reduce((a, b) => a + b, 0n));
    expect(block!.header.totalManaUsed.value).toBe(BigInt(txs.reduce((a, t) => a + t.data.gasUsed.l2Gas, 0)));
    // The block hash is the archive leaf at its number.
    expect(service.worldState.getLeafValue('latest', MerkleTreeId.ARCHIVE, 1n)).toBe(block!.hash().value);
    expect(block!.archive.equals(service.worldState.getArchiveSnapshot('latest'))).toBe(true);
  });

  it('moves the tips: proposed, then checkpointed at the end of the slot, proven and finalized after their delays', async () => {
    dev = await startDevChain({
      'blocks-per-slot': '2',
      'epoch-duration': '2',
      'proof-delay': '2',
      'finality-delay': '2',
    });
    const { service, source } = dev;
    source.add(dev.tx());
    dev.advanceBlocks();
    let tips = service.chain.readTips();
    expect(tips.proposed.number).toBe(1);
    expect(tips.checkpointed.block.number).toBe(0);
    // Slots are 4 s with 2 blocks each; the block is in slot 1, whose end publishes its checkpoint.
    dev.advanceBlocks();
    tips = service.chain.readTips();
    expect(tips.checkpointed.block.number).toBe(1);
    expect(tips.checkpointed.checkpoint.number).toBe(1);
    expect(tips.proven.block.number).toBe(0);
    // Epoch 0 (slots 0 and 1) ended with slot 1; its proof lands 2 s later, finality 2 s after that.
    dev.clock.advance(1_999);
    expect(service.chain.readTips().proven.block.number).toBe(0);
    dev.clock.advance(1);
    tips = service.chain.readTips();
    expect(tips.proven).toEqual(tips.checkpointed);
    expect(tips.finalized.block.number).toBe(0);
    dev.clock.advance(2_000);
    tips = service.chain.readTips();
    expect(tips.finalized).toEqual(tips.checkpointed);
    expect(service.worldState.getSyncStatus().finalizedBlockNumber).toBe(1);
  });
});

describe('blocks built by the sequencer, against 4.1.2', () => {
  it('carries the sponge blob hash 4.1.2 computes across the blocks of a checkpoint, and the same block hash', async () => {
    await initAztecOracle();
    dev = await startDevChain({ 'blocks-per-slot': '4' });
    dev.source.add(dev.tx(), dev.tx());
    dev.advanceBlocks();
    dev.source.add(
      dev.tx({
        l2ToL1Messages: [{ recipient: EthAddress.fromBigInt(9n), content: new Fr(3n), sender: new AztecAddress(77n) }],
      }),
    );
    dev.advanceBlocks();
    const [b1, b2] = dev.service.chain.store.getBlocks(1, 2);
    expect([b1?.indexWithinCheckpoint, b2?.indexWithinCheckpoint, b2?.checkpointNumber]).toEqual([0, 1, 1]);
    const sponge = StdSpongeBlob.init();
    for (const ours of [b1, b2] as L2Block[]) {
      const std = StdL2Block.fromBuffer(ours.toBuffer());
      expect((await std.hash()).toBigInt()).toBe(ours.hash().value);
      await sponge.absorb(std.toBlobFields());
      expect((await sponge.clone().squeeze()).toBigInt()).toBe(ours.header.spongeBlobHash.value);
    }
  });
});

describe('applyBlock is all or nothing', () => {
  it('a failing block observer rolls back the world state and the store; the next attempt succeeds', async () => {
    dev = await startDevChain({ 'blocks-per-slot': '1' });
    let fail = true;
    dev.service.chain.addObserver({
      onBlockApplied: (b) => {
        if (fail && b.number === 1) throw new Error('simulated crash inside the block transaction');
      },
      onBlocksUnwound: () => {},
    });
    const tx = dev.tx();
    dev.source.add(tx);
    dev.advanceBlocks();
    const { chain, worldState } = dev.service;
    expect(chain.store.latestBlockNumber()).toBe(0);
    expect(worldState.latestBlockNumber).toBe(0);
    expect(chain.store.getTxEffect(tx.txHash.value)).toBeUndefined();
    expect(
      worldState.getNullifierMembershipWitness('latest', tx.data.getNonEmptyNullifiers()[0]!.value),
    ).toBeUndefined();
    // The test's plain tx list is no pool that rolls back with the block: offer the tx again.
    fail = false;
    dev.source.add(tx);
    dev.advanceBlocks();
    expect(chain.store.getTxEffect(tx.txHash.value)?.l2BlockNumber).toBe(1);
    expect(worldState.latestBlockNumber).toBe(1);
  });
});

describe('L1-to-L2 messages, contracts, unwinding and restarts', () => {
  it('inserts a sent message with the next checkpoint (padded to 1024), even without txs', async () => {
    dev = await startDevChain({ 'blocks-per-slot': '1' });
    const { devL1, chain, worldState } = dev.service;
    const sent = devL1.sendL1ToL2Message(0xabcdefn);
    expect(sent).toEqual({ index: 0n, checkpoint: 1 });
    expect(devL1.sendL1ToL2Message(0xabcdf0n)).toEqual({ index: 1n, checkpoint: 1 });
    dev.advanceBlocks();
    expect(chain.latestBlockNumber).toBe(1);
    expect(chain.store.l1ToL2Messages.find(0xabcdf0n)).toEqual({ index: 1n, checkpoint: 1, blockNumber: 1 });
    expect(worldState.getTreeInfo('latest', MerkleTreeId.L1_TO_L2_MESSAGE_TREE).size).toBe(1024n);
    const w = worldState.getL1ToL2MessageMembershipWitness('latest', 0xabcdf0n);
    expect(w?.index).toBe(1n);
    // The next checkpoint takes later messages; its first block appends another 1024 leaves.
    expect(devL1.sendL1ToL2Message(0x77n)).toEqual({ index: 1024n, checkpoint: 2 });
    dev.advanceBlocks();
    expect(worldState.getTreeInfo('latest', MerkleTreeId.L1_TO_L2_MESSAGE_TREE).size).toBe(2048n);
  });

  it('indexes the contract class and instance a tx publishes', async () => {
    dev = await startDevChain({ 'blocks-per-slot': '1' });
    const klass = {
      artifactHash: new Fr(11n),
      privateFunctionsRoot: new Fr(12n),
      packedBytecode: Buffer.from('0a0b0c', 'hex'),
    };
    const classId = ContractClassPublishedEvent.create(
      klass.artifactHash,
      klass.privateFunctionsRoot,
      klass.packedBytecode,
    ).contractClassId;
    const instance = {
      salt: new Fr(5n),
      contractClassId: classId,
      initializationHash: new Fr(6n),
      publicKeys: PublicKeys.default(),
      deployer: AztecAddress.ZERO,
    };
    dev.source.add(dev.tx({ publishContractClass: klass, publishContractInstances: [instance] }));
    dev.advanceBlocks();
    const { store } = dev.service.chain;
    const c = store.contractClasses.get(classId.value);
    expect(c?.packedBytecode.toString('hex')).toBe('0a0b0c');
    expect(c?.artifactHash.value).toBe(11n);
    const address = TxBuilder.instanceAddress(instance);
    const i = store.contractInstances.get(address.value);
    expect(i?.currentContractClassId.value).toBe(classId.value);
    expect(i?.hasCorrectAddress()).toBe(true);
  });

  it('unwinds blocks: store, world state, messages and observers; the chain then grows again', async () => {
    dev = await startDevChain({ 'blocks-per-slot': '1', 'min-txs-per-block': '0' });
    const { chain, devL1, worldState } = dev.service;
    // With min-txs-per-block 0 the first slot's block is built at start.
    expect(chain.latestBlockNumber).toBe(1);
    devL1.sendL1ToL2Message(0x99n);
    dev.advanceBlocks(2);
    expect(chain.latestBlockNumber).toBe(3);
    expect(chain.store.l1ToL2Messages.find(0x99n)?.blockNumber).toBe(2);
    const seen: number[] = [];
    chain.addObserver({
      onBlockApplied: () => {},
      onBlocksUnwound: (_t, removed) => seen.push(...removed.map((b) => b.number)),
    });
    expect(chain.unwindTo(1).map((b) => b.number)).toEqual([3, 2]);
    expect(seen).toEqual([3, 2]);
    expect(chain.latestBlockNumber).toBe(1);
    expect(worldState.latestBlockNumber).toBe(1);
    expect(chain.store.l1ToL2Messages.find(0x99n)).toBeUndefined();
    expect(chain.readTips().checkpointed.block.number).toBe(1);
    dev.advanceBlocks();
    expect(chain.latestBlockNumber).toBe(2);
    expect(chain.store.l1ToL2Messages.find(0x99n)?.blockNumber).toBe(2);
  });

  it('refuses to unwind below the finalized block', async () => {
    dev = await startDevChain({
      'blocks-per-slot': '1',
      'min-txs-per-block': '0',
      'proof-delay': '0',
      'finality-delay': '0',
    });
    dev.advanceBlocks(6);
    const finalized = dev.service.chain.readTips().finalized.block.number;
    expect(finalized).toBeGreaterThan(0);
    expect(() => dev?.service.chain.unwindTo(finalized - 1)).toThrow(/finalized/);
  });

  it('resumes an unfinished checkpoint after a restart, continuing its sponge', async () => {
    await initAztecOracle();
    const dir = mkdtempSync(join(tmpdir(), 'l2node-chain-'));
    const clock = new ManualClock();
    try {
      dev = await startDevChain({ 'blocks-per-slot': '4' }, join(dir, 'db.sqlite'), clock);
      dev.source.add(dev.tx());
      dev.advanceBlocks();
      expect(dev.service.chain.latestBlockNumber).toBe(1);
      await dev.close();
      dev = await startDevChain({ 'blocks-per-slot': '4' }, join(dir, 'db.sqlite'), clock);
      dev.source.add(dev.tx());
      dev.advanceBlocks();
      const [b1, b2] = dev.service.chain.store.getBlocks(1, 2) as L2Block[];
      expect([b2?.checkpointNumber, b2?.indexWithinCheckpoint]).toEqual([1, 1]);
      const sponge = StdSpongeBlob.init();
      await sponge.absorb(StdL2Block.fromBuffer(b1.toBuffer()).toBlobFields());
      await sponge.absorb(StdL2Block.fromBuffer(b2.toBuffer()).toBlobFields());
      expect((await sponge.clone().squeeze()).toBigInt()).toBe(b2.header.spongeBlobHash.value);
      // The slot ends two intervals later: the checkpoint is published with both blocks.
      dev.advanceBlocks(2);
      expect(dev.service.chain.readTips().checkpointed).toMatchObject({
        block: { number: 2 },
        checkpoint: { number: 1 },
      });
    } finally {
      await dev?.close();
      dev = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('applyBlock without a fork (the path synced blocks take)', () => {
  it('replays another node’s blocks, messages included, and rejects a block whose roots do not match', async () => {
    dev = await startDevChain({ 'blocks-per-slot': '1' });
    const follower = await startDevChain({ 'blocks-per-slot': '1', 'sequencer-mode': 'off' });
    try {
      dev.service.devL1.sendL1ToL2Message(0x4242n);
      dev.source.add(dev.tx({ privateLogs: [PrivateLog.fromEmitted([new Fr(5n)])] }));
      dev.advanceBlocks();
      dev.source.add(dev.tx(), dev.tx());
      dev.advanceBlocks();
      const leader = dev.service.chain;
      expect(leader.latestBlockNumber).toBe(2);
      const [b1, b2] = leader.store.getBlocks(1, 2) as L2Block[];
      const chain = follower.service.chain;
      // A block whose header claims other roots changes nothing.
      const bad = new L2Block(
        b1.archive,
        BlockHeader.from({ ...b1.header, totalFees: new Fr(1n) }),
        b1.body,
        b1.checkpointNumber,
        b1.indexWithinCheckpoint,
      );
      expect(() => chain.applyBlock({ block: bad, l1ToL2Messages: [0x4242n] })).toThrow(/archive/);
      expect(() => chain.applyBlock({ block: b1, l1ToL2Messages: [] })).toThrow(/L1_TO_L2_MESSAGE_TREE/);
      expect(chain.latestBlockNumber).toBe(0);
      expect(follower.service.worldState.latestBlockNumber).toBe(0);
      chain.applyBlock({ block: b1, l1ToL2Messages: [0x4242n] });
      chain.applyBlock({ block: b2, l1ToL2Messages: [] });
      expect(follower.service.worldState.getStateReference('latest').equals(b2.header.state)).toBe(true);
      expect(chain.store.getBlock(2)?.equals(b2)).toBe(true);
      expect(chain.store.l1ToL2Messages.find(0x4242n)?.blockNumber).toBe(1);
      expect(chain.readTips().proposed).toEqual(leader.readTips().proposed);
    } finally {
      await follower.close();
    }
  });
});
