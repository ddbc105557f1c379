import { createAztecNodeClient } from '@aztec/stdlib/interfaces/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { BlockHeader } from '../../src/core/block/block-header.js';
import { FEE_JUICE_ADDRESS, FEE_JUICE_BALANCES_SLOT } from '../../src/core/constants.js';
import { ContractClassPublishedEvent } from '../../src/core/contract/contract-class-published-event.js';
import { PublicKeys } from '../../src/core/contract/public-keys.js';
import { EthAddress } from '../../src/core/eth-address.js';
import { Fr, toHex64 } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { computeL2ToL1MessageHash } from '../../src/core/hash/l2-to-l1-message-hash.js';
import { computeFeePayerBalanceLeafSlot, deriveStorageSlotInMap } from '../../src/core/hash/siloing.js';
import { PrivateLog } from '../../src/core/logs/private-log.js';
import type { Tx } from '../../src/core/tx/tx.js';
import { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { TxEffect } from '../../src/core/tx/tx-effect.js';
import { SiblingPath } from '../../src/daemon/world-state/sibling-path.js';
import { initAztecOracle } from '../helpers/aztec-oracle.js';
import { devTxBuilder, genesisHeader, prefundedFlag, type RpcAnswer, result } from '../helpers/mempool-e2e.js';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';

/**
 * The dev chain end to end: txs built with the tx builder go over RPC into a spawned node and through every
 * state (pending, proposed, checkpointed, proven, finalized); then every effect is read back through every
 * query method, and the official 4.1.2 client reads the same chain.
 */
const PAYER = new AztecAddress(0x5eedn);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const TAG = new Fr(0x7a6n);
let node: RunningNode;
let builder: TxBuilder;
let maxFee: bigint;

beforeAll(async () => {
  await initAztecOracle();
  node = await spawnNode({
    args: [
      // Slot timing is what these cases observe; the default instant mode has its own tests.
      ...['--sequencer-mode', 'interval'],
      ...['--prefunded-accounts', prefundedFlag(FUNDED)],
      ...['--slot-duration', '2', '--blocks-per-slot', '2'],
      ...['--epoch-duration', '2', '--proof-delay', '2', '--finality-delay', '2'],
    ],
  });
  builder = devTxBuilder(genesisHeader(FUNDED));
  maxFee = 2n * BigInt((await result<{ feePerL2Gas: string }>(node.publicUrl, 'node_getCurrentMinFees')).feePerL2Gas);
});
afterAll(async () => {
  await node?.stop();
});

const contractClass = {
  artifactHash: new Fr(0xa1n),
  privateFunctionsRoot: new Fr(0xa2n),
  packedBytecode: Buffer.from('c0ffee', 'hex'),
};
const classId = ContractClassPublishedEvent.create(
  contractClass.artifactHash,
  contractClass.privateFunctionsRoot,
  contractClass.packedBytecode,
).contractClassId;
const instance = {
  salt: new Fr(0x5a17n),
  contractClassId: classId,
  initializationHash: new Fr(0x1217n),
  publicKeys: PublicKeys.default(),
  deployer: AztecAddress.ZERO,
};
const recipient = EthAddress.fromBigInt(0xbeefn);
const sender = new AztecAddress(0x5e4dn);

function build(n: number): Tx {
  const common = { feePayer: PAYER, maxFeesPerGas: new GasFees(0n, maxFee), txRequestHash: new Fr(BigInt(9_000 + n)) };
  if (n === 0)
    return builder.build({ ...common, publishContractClass: contractClass, publishContractInstances: [instance] });
  return builder.build({
    ...common,
    noteHashes: [new Fr(BigInt(1_000 + n)), new Fr(BigInt(2_000 + n))],
    nullifiers: [new Fr(BigInt(3_000 + n))],
    privateLogs: [PrivateLog.fromEmitted([TAG, new Fr(BigInt(n))])],
    l2ToL1Messages: [{ recipient, content: new Fr(BigInt(n)), sender }],
  });
}

const STATUSES = ['pending', 'proposed', 'checkpointed', 'proven', 'finalized'];

async function setMinTxsPerBlock(minTxsPerBlock: number): Promise<void> {
  const set = await postJson(node.adminUrl, rpc('nodeAdmin_setConfig', [{ minTxsPerBlock }]), {
    'x-api-key': node.adminKey ?? '',
  });
  expect(set.body).toMatchObject({ result: null });
}
let txs: Tx[];
let blockNumber: number;

describe('txs through every state', () => {
  it('go pending -> proposed -> checkpointed -> proven -> finalized', async () => {
    txs = [build(0), build(1), build(2)];
    // The sequencer waits for a fourth tx while the first is seen pending (a busy machine could otherwise build
    // the block between the sends and the receipt query), then builds the three.
    await setMinTxsPerBlock(txs.length + 1);
    const sent = (
      await postJson(
        node.publicUrl,
        txs.map((tx, i) => rpc('node_sendTx', [tx.toJSON()], i)),
      )
    ).body as RpcAnswer[];
    expect(sent.map((a) => a.error)).toEqual([undefined, undefined, undefined]);
    const seen = [
      (await result<{ status: string }>(node.publicUrl, 'node_getTxReceipt', [txs[0]?.txHash.toString()])).status,
    ];
    await setMinTxsPerBlock(1);
    const deadline = Date.now() + 30_000;
    while (seen.at(-1) !== 'finalized') {
      if (Date.now() > deadline) throw new Error(`stuck after ${seen.join(' -> ')}`);
      const receipt = await result<{ status: string; blockNumber?: number }>(node.publicUrl, 'node_getTxReceipt', [
        txs[0]?.txHash.toString(),
      ]);
      if (receipt.status !== seen.at(-1)) seen.push(receipt.status);
      if (receipt.blockNumber) blockNumber = receipt.blockNumber;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen, seen.join(' -> ')).toEqual(STATUSES);
    for (const tx of txs) {
      const r = await result<{ status: string; blockNumber: number; executionResult: string }>(
        node.publicUrl,
        'node_getTxReceipt',
        [tx.txHash.toString()],
      );
      expect(r).toMatchObject({ status: 'finalized', blockNumber, executionResult: 'success' });
    }
  });
});

describe('every effect, read back through every query', () => {
  let effects: TxEffect[];
  let header: BlockHeader;

  it('tx effects and blocks (by number, hash, archive, checkpoint)', async () => {
    effects = [];
    for (const [i, tx] of txs.entries()) {
      const indexed = await result<{
        l2BlockNumber: number;
        l2BlockHash: string;
        txIndexInBlock: number;
        data: unknown;
      }>(node.publicUrl, 'node_getTxEffect', [tx.txHash.toString()]);
      expect(indexed.l2BlockNumber).toBe(blockNumber);
      const e = TxEffect.fromJSON(indexed.data);
      effects.push(e);
      expect(e.nullifiers[0]?.value).toBe(tx.data.getNonEmptyNullifiers()[0]?.value);
      expect(e.publicDataWrites.map((w) => w.leafSlot.value)).toEqual([computeFeePayerBalanceLeafSlot(PAYER.value)]);
      if (i > 0) {
        expect(e.noteHashes.map((h) => h.value)).toEqual([BigInt(1_000 + i), BigInt(2_000 + i)]);
        expect(e.l2ToL1Msgs.map((m) => m.value)).toEqual([
          computeL2ToL1MessageHash({
            l2Sender: sender,
            l1Recipient: recipient,
            content: BigInt(i),
            rollupVersion: 1n,
            chainId: 31337n,
          }),
        ]);
        expect(e.privateLogs[0]?.tag.value).toBe(TAG.value);
      } else {
        expect(e.contractClassLogs).toHaveLength(1);
      }
    }
    const block = await result<{ header: unknown; archive: { root: string }; body: { txEffects: unknown[] } }>(
      node.publicUrl,
      'node_getBlock',
      [blockNumber],
    );
    header = BlockHeader.fromJSON(block.header);
    expect(block.body.txEffects.map((e) => TxEffect.fromJSON(e).txHash.toString()).sort()).toEqual(
      txs.map((t) => t.txHash.toString()).sort(),
    );
    expect(header.totalFees.value).toBe(effects.reduce((a, e) => a + e.transactionFee.value, 0n));
    const hash = header.hash().toString();
    expect(await result(node.publicUrl, 'node_getBlockByHash', [hash])).toEqual(block);
    expect(await result(node.publicUrl, 'node_getBlock', [hash])).toEqual(block);
    expect(await result(node.publicUrl, 'node_getBlockByArchive', [block.archive.root])).toEqual(block);
    expect(await result(node.publicUrl, 'node_getBlockHeaderByArchive', [block.archive.root])).toEqual(block.header);
    expect(await result(node.publicUrl, 'node_getBlockHeader', [blockNumber])).toEqual(block.header);
    expect((await result<unknown[]>(node.publicUrl, 'node_getBlocks', [blockNumber, 1]))[0]).toEqual(block);
    const [checkpointed] = await result<{ checkpointNumber: number; block: unknown }[]>(
      node.publicUrl,
      'node_getCheckpointedBlocks',
      [blockNumber, 1],
    );
    expect(checkpointed?.block).toEqual(block);
    const [published] = await result<{ checkpoint: { number: number; blocks: unknown[] } }[]>(
      node.publicUrl,
      'node_getCheckpoints',
      [checkpointed?.checkpointNumber, 1],
    );
    expect(published?.checkpoint.blocks).toContainEqual(block);
    const tips = await result<{ finalized: { checkpoint: { number: number } } }>(node.publicUrl, 'node_getL2Tips');
    expect(tips.finalized.checkpoint.number).toBeGreaterThanOrEqual(checkpointed?.checkpointNumber ?? 0);
  });

  it('state and trees: the fee payer balance, note hashes, nullifiers, the block hash', async () => {
    const fees = effects.reduce((a, e) => a + e.transactionFee.value, 0n);
    const balanceSlot = toHex64(deriveStorageSlotInMap(FEE_JUICE_BALANCES_SLOT, PAYER.value));
    const balance = await result<string>(node.publicUrl, 'node_getPublicStorageAt', [
      blockNumber,
      toHex64(FEE_JUICE_ADDRESS),
      balanceSlot,
    ]);
    expect(BigInt(balance)).toBe(10n ** 24n - fees);
    const leafSlot = toHex64(computeFeePayerBalanceLeafSlot(PAYER.value));
    const dataWitness = await result<{ leafPreimage: { leaf: { value: string } } }>(
      node.publicUrl,
      'node_getPublicDataWitness',
      [blockNumber, leafSlot],
    );
    expect(BigInt(dataWitness.leafPreimage.leaf.value)).toBe(10n ** 24n - fees);

    const note = effects[1]?.noteHashes[0]?.toString() as string;
    const nullifier = effects[1]?.nullifiers[1]?.toString() as string;
    const [noteAt, nullifierAt, slotAt, blockAt] = await Promise.all([
      result<{ l2BlockNumber: number }[]>(node.publicUrl, 'node_findLeavesIndexes', [blockNumber, 1, [note]]),
      result<{ l2BlockNumber: number }[]>(node.publicUrl, 'node_findLeavesIndexes', [blockNumber, 0, [nullifier]]),
      result<{ l2BlockNumber: number }[]>(node.publicUrl, 'node_findLeavesIndexes', [blockNumber, 2, [leafSlot]]),
      result<{ data: string }[]>(node.publicUrl, 'node_findLeavesIndexes', [
        blockNumber,
        4,
        [header.hash().toString()],
      ]),
    ]);
    // The fee payer's balance leaf was prefilled at genesis: block 0 inserted it.
    expect([noteAt[0]?.l2BlockNumber, nullifierAt[0]?.l2BlockNumber, slotAt[0]?.l2BlockNumber]).toEqual([
      blockNumber,
      blockNumber,
      0,
    ]);
    expect(blockAt[0]?.data).toBe(String(blockNumber));

    const noteWitness = Buffer.from(
      await result<string>(node.publicUrl, 'node_getNoteHashMembershipWitness', [blockNumber, note]),
      'base64',
    );
    const index = noteWitness.readBigUInt64BE(24);
    const path = new SiblingPath(Array.from({ length: 42 }, (_, i) => noteWitness.subarray(32 + 32 * i, 64 + 32 * i)));
    expect(path.computeRoot(BigInt(note), index)).toBe(header.state.partial.noteHashTree.root.value);
    const nullifierWitness = await result<{ leafPreimage: { leaf: { nullifier: string } } }>(
      node.publicUrl,
      'node_getNullifierMembershipWitness',
      [blockNumber, nullifier],
    );
    expect(nullifierWitness.leafPreimage.leaf.nullifier).toBe(nullifier);
    expect(await result(node.publicUrl, 'node_getNullifierMembershipWitness', [blockNumber - 1, nullifier])).toBeNull();
    const path2 = await result<string[]>(node.publicUrl, 'node_getNoteHashSiblingPath', [
      blockNumber,
      index.toString(),
    ]);
    expect(path2).toHaveLength(42);
  });

  it('messages and logs', async () => {
    const messages = await result<string[][]>(node.publicUrl, 'node_getL2ToL1Messages', [blockNumber]);
    expect(messages.flat().sort()).toEqual(effects.flatMap((e) => e.l2ToL1Msgs.map((m) => m.toString())).sort());

    const privateLogs = await result<{ fields: string[] }[]>(node.publicUrl, 'node_getPrivateLogs', [blockNumber, 1]);
    expect(privateLogs.filter((l) => BigInt(l.fields[0] as string) === TAG.value)).toHaveLength(2);
    const [byTag] = await result<{ txHash: string; blockNumber: number; noteHashes: string[]; logData: string[] }[][]>(
      node.publicUrl,
      'node_getLogsByTags',
      [[TAG.toString()]],
    );
    expect(byTag?.map((l) => l.txHash).sort()).toEqual([txs[1], txs[2]].map((t) => t?.txHash.toString()).sort());
    expect(byTag?.[0]?.blockNumber).toBe(blockNumber);
    const [paged] = await result<unknown[][]>(node.publicUrl, 'node_getPrivateLogsByTags', [
      [TAG.toString()],
      0,
      header.hash().toString(),
    ]);
    expect(paged).toEqual(byTag);
    expect(await result(node.publicUrl, 'node_getPrivateLogsByTags', [[TAG.toString()], 1])).toEqual([[]]);

    const classLogs = await result<{ logs: { id: { txHash: string; blockNumber: number } }[]; maxLogsHit: boolean }>(
      node.publicUrl,
      'node_getContractClassLogs',
      [{ txHash: txs[0]?.txHash.toString() }],
    );
    expect(classLogs.logs).toHaveLength(1);
    expect(classLogs.logs[0]?.id).toMatchObject({ txHash: txs[0]?.txHash.toString(), blockNumber });
    const after = await result<{ logs: unknown[] }>(node.publicUrl, 'node_getContractClassLogs', [
      { afterLog: classLogs.logs[0]?.id },
    ]);
    expect(after.logs).toEqual([]);
    expect(await result(node.publicUrl, 'node_getPublicLogs', [{ fromBlock: blockNumber }])).toEqual({
      logs: [],
      maxLogsHit: false,
    });
  });

  it('the contract class and instance the first tx published', async () => {
    const c = await result<{ id: string; packedBytecode: string; artifactHash: string }>(
      node.publicUrl,
      'node_getContractClass',
      [classId.toString()],
    );
    expect(c).toMatchObject({ id: classId.toString(), artifactHash: toHex64(0xa1n) });
    expect(Buffer.from(c.packedBytecode, 'base64').toString('hex')).toBe('c0ffee');
    const address = TxBuilder.instanceAddress(instance).toString();
    const i = await result<{ address: string; currentContractClassId: string; salt: string }>(
      node.publicUrl,
      'node_getContract',
      [address],
    );
    expect(i).toMatchObject({ address, currentContractClassId: classId.toString(), salt: toHex64(0x5a17n) });
  });

  it('the official 4.1.2 client reads the same chain', async () => {
    const client = createAztecNodeClient(node.publicUrl);
    const [block, effect, tips, checkpoints, checkpointed, klass, contract, logs, tagged, receipt] = await Promise.all([
      client.getBlock(blockNumber as never),
      client.getTxEffect(txs[1]?.txHash.toString() as never),
      client.getL2Tips(),
      client.getCheckpoints(1 as never, 50),
      client.getCheckpointedBlocks(1 as never, 50),
      client.getContractClass(classId.toString() as never),
      client.getContract(TxBuilder.instanceAddress(instance).toString() as never),
      client.getContractClassLogs({ fromBlock: blockNumber }),
      client.getPrivateLogsByTags([TAG.toString() as never]),
      client.getTxReceipt(txs[2]?.txHash.toString() as never),
    ]);
    expect((await block?.hash())?.toString()).toBe(header.hash().toString());
    expect(effect?.data.txHash.toString()).toBe(txs[1]?.txHash.toString());
    expect(tips.finalized.block.number).toBeGreaterThanOrEqual(blockNumber);
    expect(checkpoints.length).toBeGreaterThan(0);
    expect(checkpointed.some((c) => c.block.number === blockNumber)).toBe(true);
    expect(klass?.id.toString()).toBe(classId.toString());
    expect(contract?.address.toString()).toBe(TxBuilder.instanceAddress(instance).toString());
    expect(logs.logs).toHaveLength(1);
    expect(tagged[0]).toHaveLength(2);
    expect(receipt.status).toBe('finalized');
  });
});
