import pino from 'pino';
import { concatHex, keccak256, type PublicClient, slice } from 'viem';
import { describe, expect, it } from 'vitest';
import { L1InboxReader } from '../../../../src/daemon/l1/l1-inbox-reader.js';
import { ChainStore } from '../../../../src/daemon/store/chain-store.js';
import { openNodeDatabase } from '../../../../src/daemon/store/node-database.js';

interface SentMessage {
  readonly block: bigint;
  readonly index: bigint;
  readonly leaf: bigint;
  readonly checkpoint: number;
}

/** An L1 whose Inbox holds `messages`: getState at a block counts those sent up to it, with their rolling hash. */
function fakeL1(messages: SentMessage[]) {
  const hex = (v: bigint) => `0x${v.toString(16).padStart(64, '0')}` as const;
  const client = {
    readContract: async ({ blockNumber }: { blockNumber: bigint }) => {
      const sent = messages.filter((m) => m.block <= blockNumber);
      let rollingHash: `0x${string}` = `0x${'00'.repeat(16)}`;
      for (const m of sent) rollingHash = slice(keccak256(concatHex([rollingHash, hex(m.leaf)])), 0, 16);
      return { rollingHash, totalMessagesInserted: BigInt(sent.length), inProgress: 2n };
    },
    getContractEvents: async ({ fromBlock, toBlock }: { fromBlock: bigint; toBlock: bigint }) =>
      messages
        .filter((m) => m.block >= fromBlock && m.block <= toBlock)
        .map((m) => ({ args: { index: m.index, hash: hex(m.leaf), checkpointNumber: BigInt(m.checkpoint) } })),
  };
  return client as unknown as PublicClient;
}

function reader(messages: SentMessage[]) {
  const db = openNodeDatabase(null);
  const store = new ChainStore(db);
  const r = new L1InboxReader({
    client: fakeL1(messages),
    inbox: '0x0000000000000000000000000000000000000001',
    fromBlock: 5n,
    db,
    messages: store.inboxMessages,
    log: pino({ level: 'silent' }),
  });
  return { r, store };
}

describe('L1InboxReader', () => {
  it('reads each MessageSent into the table with its leaf index and the checkpoint the Inbox gave it', async () => {
    const messages: SentMessage[] = [
      { block: 6n, index: 1024n, leaf: 0xaan, checkpoint: 2 },
      { block: 9n, index: 1025n, leaf: 0xbbn, checkpoint: 2 },
    ];
    const { r, store } = reader(messages);
    await r.sync(7n);
    expect(store.inboxMessages.forCheckpoint(2).map((m) => m.leaf)).toEqual([0xaan]);
    await r.sync(10n);
    expect(store.inboxMessages.forCheckpoint(2).map((m) => [m.index, m.leaf])).toEqual([
      [1024n, 0xaan],
      [1025n, 0xbbn],
    ]);
    expect(store.inboxMessages.find(0xbbn)).toMatchObject({ index: 1025n, checkpoint: 2 });
  });

  it('reads everything again when an L1 reorg replaced a message (the rolling hash no longer matches)', async () => {
    const messages: SentMessage[] = [
      { block: 6n, index: 1024n, leaf: 0xaan, checkpoint: 2 },
      { block: 8n, index: 1025n, leaf: 0xbbn, checkpoint: 2 },
    ];
    const { r, store } = reader(messages);
    await r.sync(9n);
    // The reorg: the block-8 message is gone, another one took its index in block 9.
    messages[1] = { block: 9n, index: 1025n, leaf: 0xccn, checkpoint: 2 };
    await r.sync(10n);
    expect(store.inboxMessages.forCheckpoint(2).map((m) => m.leaf)).toEqual([0xaan, 0xccn]);
  });

  it('drops messages an L1 reorg removed (the Inbox counts fewer)', async () => {
    const messages: SentMessage[] = [
      { block: 6n, index: 1024n, leaf: 0xaan, checkpoint: 2 },
      { block: 8n, index: 1025n, leaf: 0xbbn, checkpoint: 2 },
    ];
    const { r, store } = reader(messages);
    await r.sync(9n);
    messages.pop();
    await r.sync(10n);
    expect(store.inboxMessages.all().map((m) => m.leaf)).toEqual([0xaan]);
  });
});
