import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { devTxBuilder, genesisHeader, prefundedFlag } from '../helpers/mempool-e2e.js';
import { prng } from '../helpers/prng.js';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';

/**
 * Load (issue 12): 64 concurrent clients mixing reads (blocks, witnesses, logs) and node_sendTx against a dev
 * node building blocks, for L2NODE_LOAD_SECONDS (default 10 here; the benchmark report runs 60). No request may
 * fail; p99 latency and the node's RSS (sampled from /proc/<pid>/status) are reported, and memory must stay
 * flat: the last quarter's mean RSS within a generous bound of the second quarter's.
 */
const SECONDS = Number(process.env.L2NODE_LOAD_SECONDS ?? 10);
const CLIENTS = 64;
/** Share of requests that are txs: about what the dev node mines at 2 blocks a second. */
const TX_SHARE = 0.03;
const PAYER = new AztecAddress(0x5001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 26n }];

let node: RunningNode;
let dir: string;
let builder: TxBuilder;
let maxFee: bigint;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'l2node-load-'));
  node = await spawnNode({
    args: [
      '--prefunded-accounts',
      prefundedFlag(FUNDED),
      '--disable-admin-api-key',
      '--data-directory',
      dir,
      '--sequencer-mode',
      'interval',
      '--slot-duration',
      '1',
      '--blocks-per-slot',
      '2',
      '--min-txs-per-block',
      '1',
    ],
  });
  builder = devTxBuilder(genesisHeader(FUNDED));
  const fees = (await postJson(node.publicUrl, rpc('node_getCurrentMinFees'))).body as {
    result: { feePerL2Gas: string };
  };
  maxFee = 50n * BigInt(fees.result.feePerL2Gas);
}, 30_000);
afterAll(async () => {
  await node?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const rss = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

describe('load: 64 concurrent clients', () => {
  it(
    `serves reads and txs for ${SECONDS} s with no error and flat memory`,
    async () => {
      let nonce = 0n;
      let tip = 0;
      const latencies: number[] = [];
      const byKind = new Map<string, number>();
      const errors: string[] = [];
      const rand = prng(0x10ad);
      const randomField = () => new Fr(BigInt(Math.floor(rand() * 2 ** 48)) * 65537n).toString();
      const request = (): [string, unknown] => {
        const r = rand();
        if (r < TX_SHARE) {
          const tx = builder.build({
            feePayer: PAYER,
            txRequestHash: new Fr(++nonce + 5_000_000n),
            maxFeesPerGas: new GasFees(0n, maxFee),
          });
          return ['sendTx', rpc('node_sendTx', [tx.toJSON()])];
        }
        const n = Math.max(1, Math.floor(rand() * (tip + 1)));
        const choices: [string, unknown][] = [
          ['blockNumber', rpc('node_getBlockNumber')],
          ['block', rpc('node_getBlock', [n])],
          ['blocks', rpc('node_getBlocks', [n, 5])],
          ['header', rpc('node_getBlockHeader', ['latest'])],
          ['lowNullifierWitness', rpc('node_getLowNullifierMembershipWitness', ['latest', randomField()])],
          ['publicDataWitness', rpc('node_getPublicDataWitness', ['latest', randomField()])],
          ['nullifierWitness', rpc('node_getNullifierMembershipWitness', ['latest', randomField()])],
          ['publicLogs', rpc('node_getPublicLogs', [{ fromBlock: n, toBlock: n + 5 }])],
          ['privateLogs', rpc('node_getPrivateLogs', [n, 5])],
          ['logsByTags', rpc('node_getLogsByTags', [[randomField(), randomField()]])],
          ['pendingTxCount', rpc('node_getPendingTxCount')],
        ];
        return choices[Math.floor(rand() * choices.length)] as [string, unknown];
      };

      const samples: { t: number; mb: number }[] = [];
      const started = Date.now();
      const end = started + SECONDS * 1000;
      const sampler = setInterval(() => samples.push({ t: Date.now() - started, mb: rss(node.pid) }), 200);
      const client = async () => {
        while (Date.now() < end) {
          const [kind, body] = request();
          const t0 = performance.now();
          try {
            const a = await postJson(node.publicUrl, body);
            latencies.push(performance.now() - t0);
            byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
            const answer = a.body as { result?: unknown; error?: { message: string } } | undefined;
            if (a.status !== 200 || !answer || answer.error) {
              errors.push(`${kind}: HTTP ${a.status} ${answer?.error?.message ?? a.text.slice(0, 200)}`);
            } else if (kind === 'blockNumber') tip = Math.max(tip, answer.result as number);
          } catch (err) {
            errors.push(`${kind}: ${String(err)}`);
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, client));
      clearInterval(sampler);
      const elapsed = (Date.now() - started) / 1000;

      const sorted = [...latencies].sort((a, b) => a - b);
      const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      const quarter = (i: number) =>
        samples.filter((s) => s.t >= (i * SECONDS * 1000) / 4 && s.t < ((i + 1) * SECONDS * 1000) / 4).map((s) => s.mb);
      const q2 = mean(quarter(1));
      const q4 = mean(quarter(3));
      const blocks = (await postJson(node.publicUrl, rpc('node_getBlockNumber'))).body as { result: number };
      const summary = {
        seconds: SECONDS,
        clients: CLIENTS,
        requests: latencies.length,
        rps: Math.round(latencies.length / elapsed),
        p50Ms: Number(p(0.5).toFixed(2)),
        p99Ms: Number(p(0.99).toFixed(2)),
        txsSent: Number(nonce),
        blocks: blocks.result,
        rssMb: { q2: Math.round(q2), q4: Math.round(q4), max: Math.round(Math.max(...samples.map((s) => s.mb))) },
        errors: errors.length,
      };
      console.log(`load: ${JSON.stringify(summary)}`);
      console.log(`load: requests by kind ${JSON.stringify(Object.fromEntries(byKind))}`);
      expect(errors.slice(0, 10)).toEqual([]);
      expect(latencies.length).toBeGreaterThan(SECONDS * 50);
      expect(blocks.result).toBeGreaterThan(0);
      // Flat memory: a leak per request would grow RSS over the run; allow for caches filling and GC timing.
      expect(q4).toBeLessThan(q2 * 1.5 + 64);
    },
    (SECONDS + 60) * 1000,
  );
});
