import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { computeContractAddressFromInstance } from '../../src/core/contract/contract-address.js';
import { ContractClassPublishedEvent } from '../../src/core/contract/contract-class-published-event.js';
import { PublicKeys } from '../../src/core/contract/public-keys.js';
import { Fr } from '../../src/core/fr.js';
import { Gas } from '../../src/core/gas/gas.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { Tx } from '../../src/core/tx/tx.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag, type RpcAnswer, result } from '../helpers/mempool-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * The floods of issue 26 replayed against a spawned node: public execution runs in worker threads, so while
 * callers flood max-gas simulations and while a block of max-gas txs is built, the event loop still answers
 * node_getBlockNumber and GET /status; over-budget calls get errors naming the budget. Latency figures are in
 * bench/hostile, not here.
 *
 * The contract's public bytecode is `POSEIDON2 0 0 0; JUMP_32 0`: it hashes until the tx's gas is gone (about
 * 2 s of CPU at the default 6.54M L2 gas).
 */
const PAYER = new AztecAddress(0x5eedn);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const MAX_GAS_LOOP = Buffer.from('3f00000000002300000000', 'hex');
const contractClass = {
  artifactHash: new Fr(0xf1n),
  privateFunctionsRoot: new Fr(0xf2n),
  packedBytecode: MAX_GAS_LOOP,
};
const classId = ContractClassPublishedEvent.create(
  contractClass.artifactHash,
  contractClass.privateFunctionsRoot,
  contractClass.packedBytecode,
).contractClassId;
const instance = {
  salt: new Fr(0x10f1n),
  contractClassId: classId,
  initializationHash: Fr.ZERO,
  publicKeys: PublicKeys.default(),
  deployer: AztecAddress.ZERO,
};
const LOOP = computeContractAddressFromInstance({ ...instance, originalContractClassId: classId });

/** Enough L2 gas for the tx's private part and a few thousand loop iterations: it runs out of gas quickly. */
const CHEAP_L2_GAS = 800_000;

let node: RunningNode;
let builder: TxBuilder;
let maxFees: GasFees;
let nonce = 0;

/** A tx calling the loop contract once in app logic; `l2Gas` below the default makes it cheap (it runs out). */
function loopTx(l2Gas?: number): Tx {
  return builder.build({
    feePayer: PAYER,
    maxFeesPerGas: maxFees,
    txRequestHash: new Fr(BigInt(77_000 + ++nonce)),
    publicCalls: { appLogic: [{ contractAddress: LOOP, msgSender: PAYER, calldata: [new Fr(1n)] }] },
    ...(l2Gas === undefined ? {} : { gasLimits: new Gas(1_000_000, l2Gas) }),
  });
}

/**
 * node_sendTx, again while the validation's budget refuses it: with one worker and a 300 ms budget, a worker
 * still being replaced after a timeout makes a validation wait past it.
 */
async function sendTx(tx: Tx): Promise<void> {
  await until(`node_sendTx of ${tx.txHash}`, async () => {
    const a = await call(node.publicUrl, 'node_sendTx', [tx.toJSON()]);
    if (a.error?.data?.code === 'LIMIT_EXCEEDED') return undefined;
    if (a.error) throw new Error(`node_sendTx failed: ${a.error.message}`);
    return true;
  });
}

/** Probes node_getBlockNumber and GET /status in turn until `done`; answers how many of each answered. */
/** A series of the node's GET /metrics (0 when it has no such series yet, as Prometheus reads a counter). */
async function metric(series: string): Promise<number> {
  const url = String(node.logs().find((l) => l.msg === 'metrics listening')?.metricsUrl);
  const text = await (await fetch(url)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** The pool's jobs over budget so far, by how they stopped. */
async function overBudget(pool: 'callers' | 'blocks'): Promise<{ deadline: number; terminated: number }> {
  const series = (stop: string) => `l2node_public_execution_over_budget_total{pool="${pool}",stop="${stop}"}`;
  return { deadline: await metric(series('deadline')), terminated: await metric(series('terminated')) };
}

async function probeUntil(done: Promise<unknown>): Promise<{ rpc: number; status: number }> {
  let finished = false;
  const finish = () => {
    finished = true;
  };
  done.then(finish, finish);
  const counts = { rpc: 0, status: 0 };
  while (!finished) {
    const n = await result<number>(node.publicUrl, 'node_getBlockNumber');
    if (typeof n === 'number') counts.rpc++;
    if ((await fetch(`${node.adminUrl}/status`)).status === 200) counts.status++;
    await new Promise((r) => setTimeout(r, 50));
  }
  return counts;
}

beforeAll(async () => {
  node = await spawnNode({
    args: [
      ...['--prefunded-accounts', prefundedFlag(FUNDED)],
      // One caller worker, two waiting: the 8 clients below overflow the queue.
      ...['--public-execution-workers', '1', '--public-execution-max-queue', '2'],
      // A max-gas simulation takes seconds: past this budget it is stopped and answers the budget's error.
      ...['--public-simulation-timeout-ms', '300'],
      ...['--block-build-time-ms', '300'],
      // Its public execution series say how over-budget jobs stopped and how many workers ever started.
      ...['--metrics-port', '0'],
    ],
  });
  builder = devTxBuilder(genesisHeader(FUNDED));
  const min = await result<{ feePerL2Gas: string }>(node.publicUrl, 'node_getCurrentMinFees');
  maxFees = new GasFees(0n, 2n * BigInt(min.feePerL2Gas));
  const deploy = builder.build({
    feePayer: PAYER,
    maxFeesPerGas: maxFees,
    txRequestHash: new Fr(77_000n),
    publishContractClass: contractClass,
    publishContractInstances: [instance],
  });
  await result(node.publicUrl, 'node_sendTx', [deploy.toJSON()]);
  await until('the loop contract to be deployed', async () =>
    (await result<{ status: string }>(node.publicUrl, 'node_getTxReceipt', [deploy.txHash.toString()])).status ===
    'pending'
      ? undefined
      : true,
  );
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('public execution off the event loop', () => {
  it('answers probes while 8 clients flood max-gas simulations; each flood call gets a budget error', async () => {
    const answers: RpcAnswer[] = [];
    // Built first, so that the 8 clients ask at once.
    const txs = Array.from({ length: 8 }, () => [loopTx(), loopTx()]);
    const flood = Promise.all(
      txs.map(async (mine) => {
        for (const tx of mine) answers.push(await call(node.publicUrl, 'node_simulatePublicCalls', [tx.toJSON()]));
      }),
    );
    const probes = await probeUntil(flood);
    await flood;
    expect(probes.rpc).toBeGreaterThan(0);
    expect(probes.status).toBe(probes.rpc);
    // /status reports how late the event loop ran lately (and a `degraded` reason when it was held).
    const status = (await (await fetch(`${node.adminUrl}/status`)).json()) as { eventLoopLagMs: unknown };
    expect(typeof status.eventLoopLagMs).toBe('number');
    const settings = answers.map((a) => a.error?.data?.setting);
    expect(new Set(settings)).toEqual(new Set(['public-simulation-timeout-ms', 'public-execution-max-queue']));
    const timeout = answers.find((a) => a.error?.data?.setting === 'public-simulation-timeout-ms');
    expect(timeout?.error).toMatchObject({ code: -32008, data: { code: 'LIMIT_EXCEEDED', limit: 300 } });
    expect(timeout?.error?.message).toContain('--public-simulation-timeout-ms');
    const full = answers.find((a) => a.error?.data?.setting === 'public-execution-max-queue');
    expect(full?.error?.message).toMatch(/--public-execution-max-queue\); retry later/);
    // The over-budget simulations stopped themselves at their deadline and the worker stayed: a worker is started
    // again only for a job that had not stopped 1 s past its budget (the backstop, rare on a loaded machine).
    const stopped = await overBudget('callers');
    expect(stopped.deadline).toBeGreaterThan(0);
    expect(stopped.deadline + stopped.terminated).toBe(
      answers.filter((a) => a.error?.data?.setting === 'public-simulation-timeout-ms').length,
    );
    expect(await metric('l2node_public_execution_workers_started_total{pool="callers"}')).toBe(1 + stopped.terminated);
  }, 120_000);

  it('answers probes while 8 clients loop node_isValidTx on max-gas public txs, validated in the workers', async () => {
    // The flood starts once the worker is free of the last one's jobs.
    await until('a validation answered', async () =>
      (await call(node.publicUrl, 'node_isValidTx', [loopTx().toJSON()])).error ? undefined : true,
    );
    const answers: RpcAnswer[] = [];
    const txs = Array.from({ length: 8 }, () => [loopTx(), loopTx(), loopTx()]);
    const flood = Promise.all(
      txs.map(async (mine) => {
        for (const tx of mine) answers.push(await call(node.publicUrl, 'node_isValidTx', [tx.toJSON()]));
      }),
    );
    const probes = await probeUntil(flood);
    await flood;
    expect(probes.rpc).toBeGreaterThan(0);
    expect(probes.status).toBe(probes.rpc);
    // Each answer is the validation's (the tx is valid: its public calls run only in a block) or a named budget
    // error: past the queue of 2, or past the 300 ms budget (which counts the wait for the worker).
    for (const a of answers) {
      if (a.error)
        expect(['public-execution-max-queue', 'public-simulation-timeout-ms']).toContain(a.error.data?.setting);
      else expect(a.result).toEqual({ result: 'valid' });
    }
    expect(answers.some((a) => !a.error)).toBe(true);
    // The worker reads the committed state: once a public tx is mined, its nullifiers are spent.
    const mined = loopTx(CHEAP_L2_GAS);
    await sendTx(mined);
    await until('the cheap public tx to be mined', async () =>
      (await result<{ status: string }>(node.publicUrl, 'node_getTxReceipt', [mined.txHash.toString()])).status ===
      'pending'
        ? undefined
        : true,
    );
    expect(await result(node.publicUrl, 'node_isValidTx', [mined.toJSON()])).toEqual({
      result: 'invalid',
      reason: ['Existing nullifier'],
    });
  }, 120_000);

  it('still simulates a cheap call on the same worker, with the effects of the processor', async () => {
    const tx = loopTx(CHEAP_L2_GAS);
    // Until the queue of the floods above has drained, the budget may run out waiting.
    const out = await until('a simulation answered', async () => {
      const a = await call(node.publicUrl, 'node_simulatePublicCalls', [tx.toJSON()]);
      if (a.error?.data?.setting === 'public-simulation-timeout-ms') return undefined;
      return a.result as { revertReason?: { originalMessage: string }; txEffect: { txHash: string } };
    });
    expect(out.txEffect.txHash).toBe(tx.txHash.toString());
    expect(out.revertReason?.originalMessage).toBe('Not enough L2GAS gas left');
    expect(await metric('l2node_public_execution_workers_started_total{pool="callers"}')).toBe(
      1 + (await overBudget('callers')).terminated,
    );
  });

  it('builds blocks in a worker: a cheap tx is included, a max-gas tx alone over the build time is dropped', async () => {
    const heavy = [loopTx(), loopTx()];
    const cheap = loopTx(CHEAP_L2_GAS);
    for (const tx of [...heavy, cheap]) await sendTx(tx);
    const receipts = until(
      'the block txs to settle',
      async () => {
        const all = await Promise.all(
          [...heavy, cheap].map((tx) =>
            result<{ status: string; dropReason?: string; dropDetail?: string; executionResult?: string }>(
              node.publicUrl,
              'node_getTxReceipt',
              [tx.txHash.toString()],
            ),
          ),
        );
        return all.every((r) => r.status !== 'pending') ? all : undefined;
      },
      60_000,
    );
    const probes = await probeUntil(receipts);
    const [h1, h2, c] = await receipts;
    expect(probes.rpc).toBeGreaterThan(0);
    for (const h of [h1, h2]) {
      expect(h).toMatchObject({ status: 'dropped', dropReason: 'block_building_failed' });
      expect(h?.dropDetail).toContain('block build time of 300 ms (--block-build-time-ms)');
    }
    expect(c).toMatchObject({ executionResult: 'app_logic_reverted' });
    // The max-gas txs stopped themselves at the block's deadline, on the sequencer's worker.
    const stopped = await overBudget('blocks');
    expect(stopped.deadline).toBeGreaterThan(0);
    expect(await metric('l2node_public_execution_workers_started_total{pool="blocks"}')).toBe(1 + stopped.terminated);
  }, 90_000);

  it('answers probes while 24 clients fetch big batches of node_getBlocks, written as their items answer', async () => {
    await result(node.adminUrl, 'nodeDev_mineBlocks', [30], { 'x-api-key': node.adminKey as string });
    // 10 x 30 blocks: about 480 KB per answer, past the size from which a batch answer is written in steps.
    const body = JSON.stringify(
      Array.from({ length: 10 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'node_getBlocks', params: [1, 30] })),
    );
    const batch = async (encoding: string) => {
      const res = await fetch(node.publicUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': encoding },
        body,
      });
      return {
        encoding: res.headers.get('content-encoding'),
        // Written as it goes, so its length is not known up front: chunked, plain or gzipped.
        chunked: res.headers.get('transfer-encoding') === 'chunked' && !res.headers.has('content-length'),
        answers: (await res.json()) as (RpcAnswer & { id: number })[],
      };
    };
    // Half the clients take the answer compressed (a gzip stream), half plain (with its length).
    const flood = Promise.all(Array.from({ length: 24 }, (_, i) => batch(i % 2 ? 'gzip' : 'identity')));
    const probes = await probeUntil(flood);
    const answers = await flood;
    expect(probes.rpc).toBeGreaterThan(0);
    expect(probes.status).toBe(probes.rpc);
    expect(new Set(answers.map((a) => a.encoding))).toEqual(new Set(['gzip', null]));
    expect(answers.every((a) => a.chunked)).toBe(true);
    for (const { answers: batchAnswers } of answers) {
      expect(batchAnswers.map((a) => a.id)).toEqual(Array.from({ length: 10 }, (_, i) => i));
      for (const a of batchAnswers) expect((a.result as unknown[]).length).toBe(30);
    }
  }, 120_000);

  it('gives a slow reader its whole batch in order, and goes on serving after clients leave mid-answer', async () => {
    // 10 x 30 blocks (mined by the case above): about 480 KB, written as the items answer.
    const body = JSON.stringify(
      Array.from({ length: 10 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'node_getBlocks', params: [1, 30] })),
    );
    const post = (signal?: AbortSignal) =>
      fetch(node.publicUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
        body,
        signal,
      });
    const slowRead = async () => {
      const reader = ((await post()).body as ReadableStream<Uint8Array>).getReader();
      const chunks: Uint8Array[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        chunks.push(r.value);
        await new Promise((done) => setTimeout(done, 20));
      }
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as (RpcAnswer & { id: number })[];
    };
    const leave = async () => {
      const abort = new AbortController();
      const reader = ((await post(abort.signal)).body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      abort.abort();
    };
    const flood = Promise.all([
      ...Array.from({ length: 4 }, slowRead),
      ...Array.from({ length: 8 }, () => leave().then(() => undefined)),
    ]);
    const probes = await probeUntil(flood);
    expect(probes.rpc).toBeGreaterThan(0);
    const slow = (await flood).filter((a) => a !== undefined);
    expect(slow).toHaveLength(4);
    for (const answers of slow) {
      expect(answers.map((a) => a.id)).toEqual(Array.from({ length: 10 }, (_, i) => i));
      for (const a of answers) expect((a.result as unknown[]).length).toBe(30);
    }
    const after = (await (await post()).json()) as RpcAnswer[];
    expect(after).toHaveLength(10);
  }, 120_000);

  it('keeps the database of a node without --data-directory in a private temp file, removed when it stops', async () => {
    const dirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`l2node-memory-${node.pid}-`));
    const [dir] = dirs();
    expect(dir).toBeDefined();
    expect(statSync(join(tmpdir(), dir as string)).mode & 0o777).toBe(0o700);
    expect(statSync(join(tmpdir(), dir as string, 'l2node.sqlite')).mode & 0o777).toBe(0o600);
    expect((await node.stop()).code).toBe(0);
    expect(dirs()).toEqual([]);
  });
});
