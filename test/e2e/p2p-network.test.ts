import { ENR } from '@chainsafe/enr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { l2node } from '../helpers/cli.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { P2P_FLAGS, peersOf } from '../helpers/p2p-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';

/**
 * Two nodes on loopback joined over libp2p (issue 28): A builds blocks, B builds none and knows A only by the
 * ENR it was given. They pass the status handshake both ways; a tx sent to B is gossiped and mined by A; a tx
 * sent to A reaches B's pool; a third node on another rollup version is refused with a log line naming the
 * component that differs.
 */
const PAYER = new AztecAddress(0x5001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const COMMON = ['--prefunded-accounts', prefundedFlag(FUNDED), '--disable-admin-api-key', ...P2P_FLAGS];

let a: RunningNode;
let b: RunningNode;
let enrA: string;
let builder: TxBuilder;
let maxFee: bigint;
let nonce = 0n;

const build = () =>
  builder.build({
    feePayer: PAYER,
    txRequestHash: new Fr(++nonce + 9_000_000n),
    maxFeesPerGas: new GasFees(0n, maxFee),
  });

beforeAll(async () => {
  a = await spawnNode({ readyTimeoutMs: 60_000, args: [...COMMON, '--sequencer-mode', 'on-demand'] });
  enrA = await result<string>(a.publicUrl, 'node_getEncodedEnr');
  b = await spawnNode({
    readyTimeoutMs: 60_000,
    args: [...COMMON, '--sequencer-mode', 'off', '--bootstrap-nodes', enrA],
  });
  builder = devTxBuilder(genesisHeader(FUNDED));
  const fees = await result<{ feePerL2Gas: string }>(a.publicUrl, 'node_getCurrentMinFees');
  maxFee = 2n * BigInt(fees.feePerL2Gas);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

describe('a network of two nodes', () => {
  it("serves its ENR: secp256k1, loopback TCP and UDP ports, the network's version string and the client version", async () => {
    const enr = ENR.decodeTxt(enrA);
    expect(new TextDecoder().decode(enr.kvs.get('id'))).toBe('v4');
    expect(enr.ip).toBe('127.0.0.1');
    expect(enr.tcp).toBeGreaterThan(0);
    expect(enr.udp).toBeGreaterThan(0);
    const info = await result<{ nodeVersion: string; enr?: string }>(a.publicUrl, 'node_getNodeInfo');
    expect(info.enr).toBe(enrA);
    expect(new TextDecoder().decode(enr.kvs.get('ver'))).toBe(info.nodeVersion);
    // 00-<chain id>-<rollup address[0:8]>-<rollup version>-<protocol contracts hash[0:8]>-<vk tree root[0:8]>
    const addresses = await result<{ rollupAddress: string }>(a.publicUrl, 'node_getL1ContractAddresses');
    const aztec = new TextDecoder().decode(enr.kvs.get('aztec'));
    expect(aztec).toMatch(new RegExp(`^00-31337-${addresses.rollupAddress.slice(2, 10)}-1-[0-9a-f]{8}-[0-9a-f]{8}$`));
    expect(enr.peerId.toString()).toBe(a.logs().find((l) => l.peerId)?.peerId);
  });

  it('B finds A from its ENR; both pass the status handshake and list each other as peers', async () => {
    const [pa, pb] = await until('the two nodes to have handshaken', async () => {
      const both = [await peersOf(a), await peersOf(b)];
      return both.every((p) => p.length === 1 && p[0]?.status) ? both : undefined;
    });
    expect(pb[0]).toMatchObject({ direction: 'outbound', score: 0 });
    expect(pa[0]).toMatchObject({ direction: 'inbound', score: 0 });
    expect(pa[0]?.id).toBe(ENR.decodeTxt(await result<string>(b.publicUrl, 'node_getEncodedEnr')).peerId.toString());
  });

  it('a tx sent to the node that builds no blocks is gossiped and mined by the other', async () => {
    const tx = build();
    expect((await call(b.publicUrl, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
    const receipt = await until('the tx to be mined on A', async () => {
      const r = await result<{ status: string; blockNumber?: number }>(a.publicUrl, 'node_getTxReceipt', [
        tx.txHash.toString(),
      ]);
      return r.status !== 'pending' && r.status !== 'dropped' ? r : undefined;
    });
    expect(receipt.blockNumber).toBeGreaterThan(0);
    // B validated it before it forwarded it: its pool has it too.
    expect(await result(b.publicUrl, 'node_getTxByHash', [tx.txHash.toString()])).not.toBeNull();
  });

  it("a tx sent to A reaches B's pool through gossip", async () => {
    const tx = build();
    expect((await call(a.publicUrl, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
    await until('the tx in B', async () =>
      (await result(b.publicUrl, 'node_getTxByHash', [tx.txHash.toString()])) ? true : undefined,
    );
  });

  it(
    'a late node with --sync-from p2p catches up over req/resp block, finds B through discv5, then follows; its txs reach the network',
    async () => {
      // A few blocks on A first: the late node has to fetch several.
      while ((await result<number>(a.publicUrl, 'node_getBlockNumber')) < 3) {
        const tx = build();
        expect((await call(a.publicUrl, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
        await until('the tx to be mined on A', async () => {
          const r = await result<{ status: string }>(a.publicUrl, 'node_getTxReceipt', [tx.txHash.toString()]);
          return r.status !== 'pending' ? true : undefined;
        });
      }
      const tipA = await result<number>(a.publicUrl, 'node_getBlockNumber');
      expect(tipA).toBeGreaterThanOrEqual(3);
      const late = await spawnNode({
        readyTimeoutMs: 60_000,
        args: [...COMMON, '--sync-from', 'p2p', '--bootstrap-nodes', enrA],
      });
      try {
        await until('the late node to reach A', async () =>
          (await result<number>(late.publicUrl, 'node_getBlockNumber')) >= tipA ? true : undefined,
        );
        const hashes = async (url: string) =>
          Promise.all(
            Array.from({ length: tipA }, async (_, i) => {
              const h = await result<{ blockHash?: string } | null>(url, 'node_getBlockHeader', [i + 1]);
              return JSON.stringify(h);
            }),
          );
        expect(await hashes(late.publicUrl)).toEqual(await hashes(a.publicUrl));
        // Each block was re-executed and checked by the follower's verifier, one import line per block.
        const imported = late.logs().filter((l) => /^imported block \d+/.test(l.msg ?? ''));
        expect(imported.length).toBeGreaterThanOrEqual(tipA);
        // Given only A's ENR, it found B through A's discv5 and dialled it; `l2node query peers` shows both.
        const idB = ENR.decodeTxt(await result<string>(b.publicUrl, 'node_getEncodedEnr')).peerId.toString();
        const idA = ENR.decodeTxt(enrA).peerId.toString();
        await until('the late node to connect to B, found through discovery', async () =>
          (await peersOf(late)).some((p) => p.id === idB && p.status) ? true : undefined,
        );
        const cli = await l2node(['query', 'peers', '--admin-url', late.adminUrl]);
        expect(cli.code).toBe(0);
        const rowOf = (id: string) => cli.stdout.split('\n').find((l) => l.startsWith(id)) ?? '';
        expect(rowOf(idA)).toMatch(/ outbound +-?[0-9.]+ +-?[0-9.]+ +\d+ /);
        expect(rowOf(idB)).toMatch(/ (outbound|inbound) +-?[0-9.]+ +-?[0-9.]+ +\d+ /);
        // A tx sent to the late node is gossiped, mined by A, and its block comes back to the late node.
        const tx = build();
        expect((await call(late.publicUrl, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
        const receipt = await until('the tx mined and followed by the late node', async () => {
          const r = await result<{ status: string; blockNumber?: number }>(late.publicUrl, 'node_getTxReceipt', [
            tx.txHash.toString(),
          ]);
          return r.blockNumber !== undefined ? r : undefined;
        });
        const hash = async (url: string) =>
          JSON.stringify(await result(url, 'node_getBlockHeader', [receipt.blockNumber]));
        expect(await hash(late.publicUrl)).toBe(await hash(a.publicUrl));
      } finally {
        await late.stop();
      }
    },
    scaled(120_000),
  );

  it('a node on another rollup version is refused, and the log says which component differs', async () => {
    const c = await spawnNode({
      readyTimeoutMs: 60_000,
      args: [...COMMON, '--rollup-version', '7', '--bootstrap-nodes', enrA],
    });
    try {
      // Either side may notice first: each runs the handshake on the new connection.
      const line = await until('a refusal naming the rollup version', async () =>
        [...a.logs(), ...c.logs()].find((l) => /it is on another network: rollup version differs/.test(l.msg ?? '')),
      );
      expect(line.msg).toMatch(/rollup version differs: ours is (7|1), the peer's is (1|7)/);
      await until('C to have no peer', async () => ((await peersOf(c)).length === 0 ? true : undefined));
    } finally {
      await c.stop();
    }
  });
});
