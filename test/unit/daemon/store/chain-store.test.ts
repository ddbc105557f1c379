import { beforeEach, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { AppendOnlyTreeSnapshot } from '../../../../src/core/block/append-only-tree-snapshot.js';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { Body } from '../../../../src/core/block/body.js';
import { GlobalVariables } from '../../../../src/core/block/global-variables.js';
import { L2Block } from '../../../../src/core/block/l2-block.js';
import { Fr } from '../../../../src/core/fr.js';
import { LogId } from '../../../../src/core/logs/log-id.js';
import { PrivateLog } from '../../../../src/core/logs/private-log.js';
import { PublicLog } from '../../../../src/core/logs/public-log.js';
import { RevertCode } from '../../../../src/core/tx/revert-code.js';
import { TxEffect } from '../../../../src/core/tx/tx-effect.js';
import { TxHash } from '../../../../src/core/tx-hash.js';
import { ChainLogQueries, MAX_LOGS_PER_PAGE } from '../../../../src/daemon/store/chain-log-queries.js';
import { ChainStore } from '../../../../src/daemon/store/chain-store.js';
import { openNodeDatabase } from '../../../../src/daemon/store/node-database.js';

/**
 * The chain store on its own: blocks written as applyBlock writes them (without world state), then every
 * read path: blocks, tx effects, messages, the tag index and the filtered, paged log queries.
 */
const A = new AztecAddress(0xaan);
const B = new AztecAddress(0xbbn);
const f = (v: bigint | number) => new Fr(BigInt(v));

let store: ChainStore;
let logs: ChainLogQueries;
let nextHash = 1n;

beforeEach(() => {
  store = new ChainStore(openNodeDatabase(null));
  logs = new ChainLogQueries(store);
  nextHash = 1n;
});

function effect(
  o: { publicLogs?: PublicLog[]; privateLogs?: PrivateLog[]; messages?: bigint[]; notes?: bigint[] } = {},
) {
  const h = nextHash++;
  return new TxEffect(
    RevertCode.OK,
    new TxHash(h * 1000n),
    f(7),
    (o.notes ?? []).map(f),
    [f(h * 1000n + 1n)],
    (o.messages ?? []).map(f),
    [],
    o.privateLogs ?? [],
    o.publicLogs ?? [],
    [],
  );
}

function block(n: number, effects: TxEffect[]): L2Block {
  const header = BlockHeader.empty({
    globalVariables: GlobalVariables.empty({ blockNumber: n, timestamp: BigInt(1000 + n) }),
    lastArchive: new AppendOnlyTreeSnapshot(f(n), n),
  });
  return new L2Block(new AppendOnlyTreeSnapshot(f(10_000 + n), n + 1), header, new Body(effects), n, 0);
}

function write(...blocks: L2Block[]) {
  for (const b of blocks) store.writeBlock({ block: b, l1ToL2Messages: [], l1ToL2MessageStartIndex: 0 });
}

const pub = (contract: AztecAddress, ...fields: number[]) => new PublicLog(contract, fields.map(f));

describe('blocks and tx effects', () => {
  it('reads back blocks by number, hash and archive root, and tx effects with their position', () => {
    const b1 = block(1, [effect({ messages: [5n, 6n] }), effect()]);
    const b2 = block(2, [effect({ notes: [9n] })]);
    write(b1, b2);
    expect(store.latestBlockNumber()).toBe(2);
    expect(store.getBlock(1)?.equals(b1)).toBe(true);
    expect(store.getBlockByHash(b2.hash().value)?.equals(b2)).toBe(true);
    expect(store.getBlockByArchiveRoot(b2.archive.root.value)?.equals(b2)).toBe(true);
    expect(store.getHeaderByArchiveRoot(b1.archive.root.value)?.equals(b1.header)).toBe(true);
    expect(store.getBlocks(1, 10).map((b) => b.number)).toEqual([1, 2]);
    const tx = b1.body.txEffects[1] as TxEffect;
    const found = store.getTxEffect(tx.txHash.value);
    expect(found).toMatchObject({ l2BlockNumber: 1, txIndexInBlock: 1 });
    expect(found?.data.equals(tx)).toBe(true);
    expect(found?.l2BlockHash.value).toBe(b1.hash().value);
    expect(store.getL2ToL1Messages(1)).toEqual([[5n, 6n], []]);
    expect(store.getL2ToL1Messages(3)).toBeUndefined();
  });

  it('removes blocks above a number with their tags, and returns them newest first', () => {
    const tagged = PrivateLog.fromEmitted([f(42), f(1)]);
    write(block(1, [effect({ privateLogs: [tagged] })]), block(2, [effect({ privateLogs: [tagged] })]));
    expect(logs.getLogsByTags([f(42)], 10)[0]).toHaveLength(2);
    const removed = store.removeBlocksAbove(1);
    expect(removed.map((b) => b.number)).toEqual([2]);
    expect(store.latestBlockNumber()).toBe(1);
    expect(logs.getLogsByTags([f(42)], 10)[0]?.map((l) => l.blockNumber)).toEqual([1]);
  });
});

describe('block history pruning', () => {
  const tagged = () => PrivateLog.fromEmitted([f(42), f(1)]);

  it('prunes at most the bodies asked for, keeping headers and tx hashes, and names the oldest body in errors', () => {
    write(...[1, 2, 3, 4, 5].map((n) => block(n, [effect({ privateLogs: [tagged()], messages: [BigInt(n)] })])));
    const tx2 = store.getBlock(2)?.body.txEffects[0] as TxEffect;
    expect(store.pruneBodies(4, 2)).toBe(3);
    expect(store.pruneBodies(4, 2)).toBe(5);
    expect(store.pruneBodies(4, 2)).toBe(5); // never past `through`
    expect(store.oldestBlockWithBody()).toBe(5);
    expect(() => store.getBlock(2)).toThrow(/^Block 2 is older than the oldest available block 5/);
    expect(() => store.getBlocks(4, 2)).toThrow(/^Block 4 is older than the oldest available block 5/);
    expect(() => store.getTxEffect(tx2.txHash.value)).toThrow(
      new RegExp(`^Tx ${tx2.txHash} \\(mined in block 2\\) is older than the oldest available block 5`),
    );
    expect(() => store.getL2ToL1Messages(3)).toThrow(/oldest available block 5/);
    expect(() => logs.getPrivateLogs(1, 5)).toThrow(/^Block 1 is older/);
    expect(store.getHeader(2)?.globalVariables.blockNumber).toBe(2);
    expect(store.locateTx(tx2.txHash.value)).toEqual({ blockNumber: 2, txIndex: 0 });
    expect(store.getBlock(5)?.number).toBe(5);
    // The tag index keeps the kept blocks' logs only, and agrees with what the stored bodies give it.
    expect(logs.getLogsByTags([f(42)], 10)[0]?.map((l) => l.blockNumber)).toEqual([5]);
    expect(store.tagEntryCount()).toBe(store.expectedTagEntryCount(5));
    expect([...store.txs.verifyAll()].every((r) => r.ok)).toBe(true);
  });

  it('an unwind below the oldest body removes pruned blocks by header and lowers the mark', () => {
    write(...[1, 2, 3, 4].map((n) => block(n, [effect()])));
    store.pruneBodies(3, 10);
    const removed = store.removeBlocksAbove(1);
    expect(removed.map((b) => [b.number, b.body.txEffects.length])).toEqual([
      [4, 1],
      [3, 0],
      [2, 0],
    ]);
    expect(store.oldestBlockWithBody()).toBe(2);
    write(block(2, [effect()]));
    expect(store.getBlock(2)?.body.txEffects).toHaveLength(1);
  });
});

describe('public logs by filter', () => {
  /** Three blocks: 2 txs each, 300 logs per tx of contracts A and B alternating, tags 1..3. */
  function seed(): { all: { block: number; tx: number; log: number; contract: bigint; tag: bigint }[] } {
    const all: { block: number; tx: number; log: number; contract: bigint; tag: bigint }[] = [];
    for (let n = 1; n <= 3; n++) {
      const effects = [0, 1].map((t) =>
        effect({
          publicLogs: Array.from({ length: 300 }, (_, k) => {
            const contract = k % 2 === 0 ? A : B;
            const tag = BigInt((k % 3) + 1);
            all.push({ block: n, tx: t, log: k, contract: contract.value, tag });
            return pub(contract, Number(tag), k);
          }),
        }),
      );
      write(block(n, effects));
    }
    return { all };
  }

  it('pages through every log in chain order with afterLog, maxLogsHit on each full page', () => {
    const { all } = seed();
    const seen: LogId[] = [];
    let page = logs.getPublicLogs({});
    for (;;) {
      seen.push(...page.logs.map((l) => l.id));
      if (!page.maxLogsHit) break;
      expect(page.logs).toHaveLength(MAX_LOGS_PER_PAGE);
      page = logs.getPublicLogs({ afterLog: seen.at(-1) });
    }
    expect(seen.map((id) => [id.blockNumber, id.txIndex, id.logIndex])).toEqual(all.map((l) => [l.block, l.tx, l.log]));
  });

  it('applies fromBlock (inclusive), toBlock (exclusive), contractAddress, tag and txHash', () => {
    const { all } = seed();
    const r = logs.getPublicLogs({ fromBlock: 2, toBlock: 3, contractAddress: B, tag: f(2) });
    const expected = all.filter((l) => l.block === 2 && l.contract === B.value && l.tag === 2n);
    expect(r.maxLogsHit).toBe(false);
    expect(r.logs.map((l) => [l.id.blockNumber, l.id.txIndex, l.id.logIndex])).toEqual(
      expected.map((l) => [l.block, l.tx, l.log]),
    );
    expect(r.logs.every((l) => l.log.contractAddress.equals(B) && l.log.fields[0]?.value === 2n)).toBe(true);
    const tx = store.getBlock(3)?.body.txEffects[1] as TxEffect;
    const ofTx = logs.getPublicLogs({ txHash: tx.txHash });
    expect(ofTx.logs).toHaveLength(300);
    expect(ofTx.logs.every((l) => l.id.txHash.equals(tx.txHash) && l.id.blockNumber === 3)).toBe(true);
    expect(logs.getPublicLogs({ txHash: new TxHash(123n) })).toEqual({ logs: [], maxLogsHit: false });
    expect(logs.getPublicLogs({ fromBlock: 3, toBlock: 2 })).toEqual({ logs: [], maxLogsHit: false });
  });

  it("scans earlier blocks given (a lazy fork's upstream blocks) as if stored: the same pages, cursors and txs", () => {
    seed();
    // A store holding block 3 alone, given blocks 1 and 2: every query answers as the store holding all three.
    const tail = new ChainStore(openNodeDatabase(null));
    tail.writeBlock({ block: store.getBlock(3) as L2Block, l1ToL2Messages: [], l1ToL2MessageStartIndex: 0 });
    const earlier = [store.getBlock(1), store.getBlock(2)] as L2Block[];
    const split = new ChainLogQueries(tail);
    const ids = (r: { logs: { id: LogId }[]; maxLogsHit: boolean }) => [r.maxLogsHit, r.logs.map((l) => l.id.toJSON())];
    for (let cursor: LogId | undefined, pages = 0; ; pages++) {
      const filter = cursor ? { afterLog: cursor } : {};
      const whole = logs.getPublicLogs(filter);
      expect(ids(split.getPublicLogs(filter, earlier))).toEqual(ids(whole));
      if (!whole.maxLogsHit) {
        expect(pages).toBe(1);
        break;
      }
      cursor = whole.logs.at(-1)?.id;
    }
    const tx = earlier[1]?.body.txEffects[1] as TxEffect;
    expect(ids(split.getPublicLogs({ txHash: tx.txHash }, earlier))).toEqual(
      ids(logs.getPublicLogs({ txHash: tx.txHash })),
    );
    expect(ids(split.getPublicLogs({ fromBlock: 2, toBlock: 4, contractAddress: B, tag: f(2) }, earlier))).toEqual(
      ids(logs.getPublicLogs({ fromBlock: 2, toBlock: 4, contractAddress: B, tag: f(2) })),
    );
  });

  it('continues after a cursor in the middle of a tx, and across blocks', () => {
    seed();
    const first = logs.getPublicLogs({ fromBlock: 2 }).logs[0] as { id: LogId };
    const after = logs.getPublicLogs({ afterLog: new LogId(2, first.id.blockHash, first.id.txHash, 1, 298) });
    expect(after.logs.slice(0, 2).map((l) => [l.id.blockNumber, l.id.txIndex, l.id.logIndex])).toEqual([
      [2, 1, 299],
      [3, 0, 0],
    ]);
  });
});

describe('tagged logs', () => {
  it('answers per tag, in chain order, paged by 10, private and public apart', () => {
    const effects = Array.from({ length: 12 }, (_, i) =>
      effect({
        notes: [100n + BigInt(i)],
        privateLogs: [PrivateLog.fromEmitted([f(7), f(i)])],
        publicLogs: [pub(i % 2 ? A : B, 7, i)],
      }),
    );
    write(block(1, effects.slice(0, 6)), block(2, effects.slice(6)));
    const [priv, none] = logs.getPrivateLogsByTags([f(7), f(8)], 0);
    expect(none).toEqual([]);
    expect(priv).toHaveLength(10);
    expect(priv?.[0]).toMatchObject({ blockNumber: 1, blockTimestamp: 1001n });
    expect(priv?.[0]?.logData.map((x) => x.value)).toEqual([7n, 0n]);
    expect(priv?.[0]?.noteHashes.map((x) => x.value)).toEqual([100n]);
    expect(priv?.[0]?.txHash.equals((effects[0] as TxEffect).txHash)).toBe(true);
    expect(priv?.[0]?.firstNullifier.value).toBe((effects[0] as TxEffect).nullifiers[0]?.value);
    expect(logs.getPrivateLogsByTags([f(7)], 1)[0]?.map((l) => l.logData[1]?.value)).toEqual([10n, 11n]);
    const fromA = logs.getPublicLogsByTagsFromContract(A.value, [f(7)], 0)[0];
    expect(fromA?.map((l) => l.logData[1]?.value)).toEqual([1n, 3n, 5n, 7n, 9n, 11n]);
    // The old getLogsByTags mixes both kinds, private first within a tx, capped per tag.
    expect(logs.getLogsByTags([f(7)], 3)[0]?.map((l) => l.logData[1]?.value)).toEqual([0n, 0n, 1n]);
  });

  it('returns private logs of a block range as stored (16 fields, emitted length)', () => {
    const log = PrivateLog.fromEmitted([f(3), f(4), f(5)]);
    write(
      block(1, [effect({ privateLogs: [log] })]),
      block(2, [effect()]),
      block(3, [effect({ privateLogs: [log, log] })]),
    );
    expect(logs.getPrivateLogs(1, 2).map((l) => l.toJSON())).toEqual([log.toJSON()]);
    expect(logs.getPrivateLogs(2, 5)).toHaveLength(2);
    // Earlier blocks given (a lazy fork's upstream blocks) come first, within the range asked.
    const tail = new ChainStore(openNodeDatabase(null));
    tail.writeBlock({ block: store.getBlock(3) as L2Block, l1ToL2Messages: [], l1ToL2MessageStartIndex: 0 });
    const earlier = [store.getBlock(1), store.getBlock(2)] as L2Block[];
    const json = (l: PrivateLog[]) => l.map((x) => x.toJSON());
    expect(json(new ChainLogQueries(tail).getPrivateLogs(1, 3, earlier))).toEqual(json(logs.getPrivateLogs(1, 3)));
    expect(json(new ChainLogQueries(tail).getPrivateLogs(2, 2, earlier))).toEqual(json(logs.getPrivateLogs(2, 2)));
  });
});

describe("a lazy fork's kept upstream blocks", () => {
  it('trims to a byte budget, lowest numbers first, never the blocks just read, with their txs', () => {
    const kept = store.forkUpstream;
    const tx = (n: number) => Buffer.alloc(32, n);
    for (let n = 1; n <= 5; n++) kept.insertBlock(n, Buffer.alloc(32), Buffer.alloc(100, n), [tx(n)]);
    kept.trim(250, new Set([1]));
    // 500 bytes kept, 250 allowed: block 1 was just read, so 2, 3 and 4 go (500 - 300 = 200 left).
    expect([1, 2, 3, 4, 5].map((n) => kept.block(n) !== undefined)).toEqual([true, false, false, false, true]);
    expect([1, 2, 5].map((n) => kept.tx(tx(n))?.block)).toEqual([1, undefined, 5]);
    kept.trim(1000, new Set());
    expect(kept.block(5)).toBeDefined();
  });
});
