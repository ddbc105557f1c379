/**
 * Messages both ways over a real L1: `l2node start --l1 anvil` (the real binary, anvil 1.7.1, Aztec 4.1.2's
 * contracts) and the official 4.1.2 wallet (aztec.js, PXE with fake proofs, EmbeddedWallet), used as Aztec users
 * use them. L1 to L2: FeeJuice bridged through the FeeJuicePortal with aztec.js's `L1FeeJuicePortalManager` and
 * claimed by a new account's deployment (`FeeJuicePaymentMethodWithClaim`), and a plain `Inbox.sendL2Message`
 * sent with viem. L2 to L1: a TestContract message to an anvil account, consumed from the Outbox with viem once
 * the node proved its epoch. One node and one wallet serve the file's cases, in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import type { Fr } from '@aztec/aztec.js/fields';
import { InboxAbi } from '@aztec/l1-artifacts/InboxAbi';
import { OutboxAbi } from '@aztec/l1-artifacts/OutboxAbi';
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import {
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  parseEventLogs,
  publicActions,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { result } from '../helpers/mempool-e2e.js';
import { deployAccount, openOfficialWallet, type WalletSession } from '../helpers/official-wallet.js';
import { anvilUrlOf, spawnAnvilNode, untilProducing } from '../helpers/spawn-l1-node.js';
import type { RunningNode } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';

/** anvil's default accounts 0 (the node's deployer and publisher, and the L1 user here) and 1 (an L1 recipient). */
const ANVIL_KEY_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ANVIL_KEY_1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
/** Leaves in one checkpoint's L1-to-L2 message tree. */
const MESSAGES_PER_CHECKPOINT = 1024n;

type Addresses = Record<string, Hex>;

const dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-l1-messages-'));
let node: RunningNode;
let session: WalletSession;
let l1: PublicClient;
let anvilUrl: string;
let addresses: Addresses;
let rollupVersion: bigint;

beforeAll(async () => {
  // 8 s slots (not the default 4): the wallet's txs are anchored to proposed blocks, which a checkpoint that misses
  // its slot takes down with it (their txs are dropped, as 4.1.2 drops them), and on a busy machine proposals take
  // seconds to land.
  node = await spawnAnvilNode(dataDirectory, ['--slot-duration', '8']);
  await untilProducing(node);
  anvilUrl = anvilUrlOf(node);
  l1 = createPublicClient({ chain: foundry, transport: http(anvilUrl), cacheTime: 0 }) as PublicClient;
  addresses = await result<Addresses>(node.publicUrl, 'node_getL1ContractAddresses');
  rollupVersion = await l1.readContract({
    address: addresses.rollupAddress,
    abi: RollupAbi,
    functionName: 'getVersion',
  });
  // The wallet anchors its txs to checkpointed blocks, as a wallet on an L1 network should: a proposed block is
  // pruned when its checkpoint misses its slot (a busy machine makes that likely), and a tx proved against a pruned
  // anchor fails ("Block hash ... is not a block of this chain").
  session = await openOfficialWallet(node.publicUrl, 'checkpointed');
}, scaled(180_000));

afterAll(async () => {
  await session?.stop();
  await node?.stop();
  rmSync(dataDirectory, { recursive: true, force: true });
});

function l1Wallet(key: Hex) {
  return createWalletClient({ account: privateKeyToAccount(key), chain: foundry, transport: http(anvilUrl) }).extend(
    publicActions,
  );
}

async function feeJuice(address: AztecAddress): Promise<bigint> {
  const { getFeeJuiceBalance } = await import('@aztec/aztec.js/utils');
  return getFeeJuiceBalance(address, session.node);
}

/** Whether a (siloed) nullifier is in the node's nullifier tree at its latest block. */
async function nullifierExists(nullifier: Fr): Promise<boolean> {
  const { MerkleTreeId } = await import('@aztec/aztec.js/trees');
  const [found] = await session.node.findLeavesIndexes('latest', MerkleTreeId.NULLIFIER_TREE, [nullifier]);
  return found !== undefined;
}

describe('L1 to L2 over the real Inbox', () => {
  it(
    'a plain Inbox.sendL2Message from viem: the node serves the checkpoint and leaf index of its MessageSent event',
    async () => {
      const sender = l1Wallet(ANVIL_KEY_0);
      const recipient = `0x${'0'.repeat(63)}7` as Hex;
      const content = `0x${'0'.repeat(62)}2a` as Hex;
      const secretHash = `0x${'0'.repeat(62)}99` as Hex;
      const hash = await sender.writeContract({
        address: addresses.inboxAddress,
        abi: InboxAbi,
        functionName: 'sendL2Message',
        args: [{ actor: recipient, version: rollupVersion }, content, secretHash],
      });
      const receipt = await sender.waitForTransactionReceipt({ hash });
      const [sent] = parseEventLogs({ abi: InboxAbi, eventName: 'MessageSent', logs: receipt.logs });
      expect(sent).toBeDefined();
      const { index, hash: leaf, checkpointNumber } = sent!.args;
      expect(checkpointNumber).toBe(index / MESSAGES_PER_CHECKPOINT + 1n);

      const checkpoint = await until(
        'the node to read the message from the Inbox',
        async () =>
          (await result<number | null>(node.publicUrl, 'node_getL1ToL2MessageCheckpoint', [leaf])) ?? undefined,
        30_000,
      );
      expect(BigInt(checkpoint)).toBe(checkpointNumber);
      // Once the checkpoint that takes it is built, its first block is where the message becomes available and its
      // witness names the event's index.
      const block = await until(
        'the message to enter the L1-to-L2 tree',
        async () => (await result<number | null>(node.publicUrl, 'node_getL1ToL2MessageBlock', [leaf])) ?? undefined,
        60_000,
      );
      const { BlockNumber } = await import('@aztec/foundation/branded-types');
      const l2Block = await until('its block', async () => session.node.getBlock(BlockNumber(block)));
      expect(Number(l2Block.checkpointNumber)).toBe(checkpoint);
      expect(l2Block.indexWithinCheckpoint).toBe(0);
      const witness = await result<[string, string[]] | null>(
        node.publicUrl,
        'node_getL1ToL2MessageMembershipWitness',
        ['latest', leaf],
      );
      expect(witness?.[0]).toBe(index.toString());
      expect(await result<boolean>(node.publicUrl, 'node_isL1ToL2MessageSynced', [leaf])).toBe(true);
    },
    scaled(120_000),
  );

  it(
    'FeeJuice bridged through the portal with aztec.js is claimed by a new account deploying with FeeJuicePaymentMethodWithClaim',
    async () => {
      const { L1FeeJuicePortalManager } = await import('@aztec/aztec.js/ethereum');
      const { FeeJuicePaymentMethodWithClaim } = await import('@aztec/aztec.js/fee');
      const { waitForL1ToL2MessageReady } = await import('@aztec/aztec.js/messaging');
      const { Fr, GrumpkinScalar } = await import('@aztec/aztec.js/fields');
      const { AztecAddress } = await import('@aztec/aztec.js/addresses');
      const { ProtocolContractAddress } = await import('@aztec/aztec.js/protocol');
      const { computeL1ToL2MessageNullifier } = await import('@aztec/stdlib/hash');
      const { createLogger } = await import('@aztec/foundation/log');
      const { FeeJuiceContract } = await import('@aztec/noir-contracts.js/FeeJuice');

      const account = await session.wallet.createSchnorrAccount(Fr.random(), Fr.random(), GrumpkinScalar.random());
      expect(await feeJuice(account.address)).toBe(0n);
      const portal = await L1FeeJuicePortalManager.new(
        session.node,
        l1Wallet(ANVIL_KEY_0) as never,
        createLogger('e2e:l1-messages'),
      );
      const l1Before = await portal.getTokenManager().getL1TokenBalance(privateKeyToAccount(ANVIL_KEY_0).address);
      // The handler's fixed mint amount, minted to the L1 account and bridged whole.
      const claim = await portal.bridgeTokensPublic(account.address, undefined, true);
      expect(claim.claimAmount).toBeGreaterThan(0n);
      expect(await portal.getTokenManager().getL1TokenBalance(privateKeyToAccount(ANVIL_KEY_0).address)).toBe(l1Before);
      const messageHash = Fr.fromHexString(claim.messageHash);

      await waitForL1ToL2MessageReady(session.node, messageHash, { timeoutSeconds: 60 });
      // The wallet anchors to checkpointed blocks: the claim needs the message in its anchor's tree.
      const messageBlock = await result<number>(node.publicUrl, 'node_getL1ToL2MessageBlock', [claim.messageHash]);
      await until(
        "the message's block to be checkpointed",
        async () => ((await session.node.getL2Tips()).checkpointed.block.number >= messageBlock ? true : undefined),
        60_000,
      );
      // The leaf index the portal's event gave is where the node put the message (the claim proves it there).
      const [index] = (await session.node.getL1ToL2MessageMembershipWitness('latest', messageHash)) ?? [];
      expect(index).toBe(BigInt(claim.messageLeafIndex));
      const deploy = await account.getDeployMethod();
      const { receipt } = (await deploy.send({
        from: AztecAddress.ZERO,
        fee: { paymentMethod: new FeeJuicePaymentMethodWithClaim(account.address, claim) },
      })) as { receipt: { transactionFee?: bigint } };
      // The claim minted the bridged amount to the account, which paid its deployment's fee out of it.
      const balance = await feeJuice(account.address);
      expect(balance).toBeGreaterThan(0n);
      expect(balance).toBeLessThan(claim.claimAmount);
      expect(receipt.transactionFee).toBeGreaterThan(0n);
      expect(balance).toBe(claim.claimAmount - (receipt.transactionFee ?? 0n));

      // The message is spent: its nullifier (siloed by the FeeJuice contract) is in the tree.
      const nullifier = await computeL1ToL2MessageNullifier(
        ProtocolContractAddress.FeeJuice,
        messageHash,
        claim.claimSecret,
      );
      expect(await nullifierExists(nullifier)).toBe(true);
      // Claiming it again, now from the deployed account itself, is refused: the wallet finds the message's
      // nullifier spent.
      const feeJuiceContract = FeeJuiceContract.at(ProtocolContractAddress.FeeJuice, session.wallet);
      await expect(
        feeJuiceContract.methods
          .claim(account.address, claim.claimAmount, claim.claimSecret, claim.messageLeafIndex)
          .send({ from: account.address }),
      ).rejects.toThrow(`No non-nullified L1 to L2 message found for message hash ${messageHash}`);
      expect(await feeJuice(account.address)).toBe(balance);
    },
    scaled(300_000),
  );
});

describe('L2 to L1 over the real Outbox', () => {
  it(
    "a TestContract message to an anvil account is consumed from the Outbox with the node's witness once its epoch is proven",
    async () => {
      const { Fr } = await import('@aztec/aztec.js/fields');
      const { EthAddress } = await import('@aztec/aztec.js/addresses');
      const { TestContract } = await import('@aztec/noir-test-contracts.js/Test');
      const { computeL2ToL1MessageHash } = await import('@aztec/stdlib/hash');
      const { computeL2ToL1MembershipWitnessFromMessagesInEpoch, getL2ToL1MessageLeafId } = await import(
        '@aztec/stdlib/messaging'
      );
      const [alice] = session.accounts;
      await deployAccount(session, alice!);
      const { contract } = await TestContract.deploy(session.wallet).send({ from: alice!.address });

      const recipient = l1Wallet(ANVIL_KEY_1);
      const content = Fr.random();
      const { receipt } = await contract.methods
        .create_l2_to_l1_message_arbitrary_recipient_public(content, EthAddress.fromString(recipient.account.address))
        .send({ from: alice!.address });
      const message = computeL2ToL1MessageHash({
        l2Sender: contract.address,
        l1Recipient: EthAddress.fromString(recipient.account.address),
        content,
        rollupVersion: new Fr(rollupVersion),
        chainId: new Fr(31337),
      });
      const blockNumber = Number(receipt.blockNumber);
      const perTx = await result<string[][]>(node.publicUrl, 'node_getL2ToL1Messages', [blockNumber]);
      expect(perTx.flat()).toContain(message.toString());

      // The node proves the epoch (--proof-delay after it ends): its receipt turns proven, the Outbox holds a root.
      const proven = await until(
        'the tx to be proven',
        async () => {
          const r = await session.node.getTxReceipt(receipt.txHash);
          return r.status === 'proven' || r.status === 'finalized' ? r : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 1000 },
      );
      const epoch = BigInt(proven.epochNumber ?? -1);
      const outbox = { address: addresses.outboxAddress, abi: OutboxAbi } as const;
      const root = await until('the Outbox root of the epoch', async () => {
        const r = await l1.readContract({ ...outbox, functionName: 'getRootData', args: [epoch] });
        return BigInt(r) === 0n ? undefined : r;
      });

      // The witness as 4.1.2's computeL2ToL1MembershipWitness computes it, from the epoch's messages the node
      // serves: checkpoint by checkpoint, block by block, tx by tx.
      const block = await session.node.getBlock(receipt.blockNumber!);
      const messagesInEpoch = await epochMessages(epoch, Number(block!.checkpointNumber));
      const checkpointIndex = messagesInEpoch.checkpoints.indexOf(Number(block!.checkpointNumber));
      const txIndex = block!.body.txEffects.findIndex((e) => e.txHash.equals(receipt.txHash));
      const witness = computeL2ToL1MembershipWitnessFromMessagesInEpoch(
        messagesInEpoch.messages,
        message,
        checkpointIndex,
        block!.indexWithinCheckpoint,
        txIndex,
      );
      expect(witness.root.toString()).toBe(root);

      const leafId = getL2ToL1MessageLeafId(witness);
      expect(
        await l1.readContract({ ...outbox, functionName: 'hasMessageBeenConsumedAtEpoch', args: [epoch, leafId] }),
      ).toBe(false);
      const hash = await recipient.writeContract({
        ...outbox,
        functionName: 'consume',
        args: [
          {
            sender: { actor: contract.address.toString() as Hex, version: rollupVersion },
            recipient: { actor: recipient.account.address, chainId: 31337n },
            content: content.toString() as Hex,
          },
          epoch,
          witness.leafIndex,
          witness.siblingPath.toBufferArray().map((b) => `0x${b.toString('hex')}` as Hex),
        ],
      });
      const mined = await recipient.waitForTransactionReceipt({ hash });
      expect(mined.status).toBe('success');
      const [consumed] = parseEventLogs({ abi: OutboxAbi, eventName: 'MessageConsumed', logs: mined.logs });
      expect(consumed?.args).toMatchObject({ epoch, root, messageHash: message.toString(), leafId });
      expect(
        await l1.readContract({ ...outbox, functionName: 'hasMessageBeenConsumedAtEpoch', args: [epoch, leafId] }),
      ).toBe(true);
      // Each epoch was proven once: no proof was sent again for an epoch the rollup had already taken.
      expect(
        node
          .logs()
          .filter((l) => String(l.msg).includes('proof failed'))
          .map((l) => l.msg),
      ).toEqual([]);
    },
    scaled(420_000),
  );
});

/**
 * The L2-to-L1 messages of an epoch, shaped as 4.1.2's `getL2ToL1Messages(epoch)` returns them
 * (checkpoints → blocks → txs → messages), from the node's checkpoints around `checkpoint` (one of the epoch's)
 * and its per-block `node_getL2ToL1Messages`.
 */
async function epochMessages(
  epoch: bigint,
  checkpoint: number,
): Promise<{ checkpoints: number[]; messages: Fr[][][][] }> {
  const { Fr } = await import('@aztec/aztec.js/fields');
  const { CheckpointNumber } = await import('@aztec/foundation/branded-types');
  const epochDuration = Number(
    await l1.readContract({ address: addresses.rollupAddress, abi: RollupAbi, functionName: 'getEpochDuration' }),
  );
  const from = Math.max(1, checkpoint - epochDuration);
  const published = await session.node.getCheckpoints(CheckpointNumber(from), 2 * epochDuration + 1);
  const checkpoints: number[] = [];
  const messages: Fr[][][][] = [];
  for (const { checkpoint: c } of published) {
    if (BigInt(c.header.slotNumber) / BigInt(epochDuration) !== epoch) continue;
    checkpoints.push(Number(c.number));
    const blocks: Fr[][][] = [];
    for (const b of c.blocks) {
      const perTx = await result<string[][]>(node.publicUrl, 'node_getL2ToL1Messages', [Number(b.number)]);
      blocks.push(perTx.map((tx) => tx.map((m) => Fr.fromHexString(m))));
    }
    messages.push(blocks);
  }
  return { checkpoints, messages };
}
