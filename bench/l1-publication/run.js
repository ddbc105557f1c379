// Checkpoint publication latency on a real L1 (issue 21): `l2node start --l1 anvil`, one tx sent, then for each of
// --checkpoints checkpoints the L1 block holding the rollup's CheckpointProposed event against the checkpoint's
// slot (the rollup's getTimestampForSlot(slot) and (slot + 1)): inclusion minus slot end, signed (a proposal must
// land inside its slot, so it is normally negative) and slot start to inclusion, by L1 block timestamps (whole
// seconds) and by the wall time the bench saw the block. Baseline in the same run: anvil's own block interval
// (publication cannot beat one L1 block). Also the tx's wait from node_sendTx to a `checkpointed` receipt.
// A node that proposes nothing makes it stop after --timeout seconds with "no checkpoint reached L1" and exit 1.
//
//   npm run build && node bench/l1-publication/run.js [--slot-duration 4] [--checkpoints 5] [--timeout 60]
//     [--node-args "--sequencer-mode interval --min-txs-per-block 0"]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { createPublicClient, getAbiItem, http } from 'viem';
import { BlockHeader } from '../../dist/core/block/block-header.js';
import { GasFees } from '../../dist/core/gas/gas-fees.js';
import { TEST_ACCOUNTS } from '../../dist/core/test-accounts.js';
import { TxBuilder } from '../../dist/core/tx/tx-builder.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../dist/daemon/config/published-chain-values.js';
import { benchResult } from '../bench-result.js';
import { onLogRecords } from '../node-log-records.js';
import { blockIntervals, latencyOf, proposalsOf, stallMessage, summary } from './publication-latency.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : args[i + 1];
};
const slotDuration = Number(opt('slot-duration', 4));
const wanted = Number(opt('checkpoints', 5));
const timeoutS = Number(opt('timeout', 60));
const nodeArgs = String(opt('node-args', '--sequencer-mode interval --min-txs-per-block 0')).split(' ').filter(Boolean);
for (const [name, v] of [
  ['slot-duration', slotDuration],
  ['checkpoints', wanted],
  ['timeout', timeoutS],
]) {
  if (!(Number.isInteger(v) && v >= 1)) {
    process.stderr.write(`--${name}: expected a whole number >= 1, got ${v}\n`);
    process.exit(2);
  }
}
const POLL_MS = 50;

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-bench-l1-publication-'));
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('NODE_') || k === 'NODE_OPTIONS'),
);
const argv = [
  ...[BIN, 'start', '--l1', 'anvil', '--data-directory', dataDirectory, '--slot-duration', String(slotDuration)],
  ...['--port', '0', '--admin-port', '0', '--no-save-api-key', '--log-format', 'json'],
  // The local network set-up's txs would be published beside the measured ones: off.
  ...['--local-network-setup', 'false'],
  ...nodeArgs,
];
process.stdout.write(`l2node ${argv.slice(1).join(' ')}\n`);
const node = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'], env });
const stopNode = () => node.exitCode === null && node.kill('SIGTERM');
process.once('SIGINT', () => {
  stopNode();
  process.exit(130);
});

/** The node's public URL and its anvil's, from its log; rejects if it exits first or takes over 180 s. */
function started() {
  return new Promise((resolve, reject) => {
    let anvilUrl;
    const timer = setTimeout(() => reject(new Error('the node did not listen within 180 s')), 180_000);
    onLogRecords(node.stdout, (record) => {
      if (record.level >= 40) process.stdout.write(`node ${record.level >= 50 ? 'error' : 'warning'}: ${record.msg}\n`);
      if (record.msg?.startsWith('anvil listening on')) anvilUrl = record.rpcUrl;
      if (record.msg === 'rpc listening') {
        clearTimeout(timer);
        resolve({ url: record.publicUrl, anvilUrl });
      }
    });
    node.once('exit', (code) => reject(new Error(`the node exited with ${code} before listening`)));
  });
}

async function rpc(url, method, params = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** A tx of the first test account (prefunded at genesis), anchored at the genesis block, at twice the min fees. */
async function aTx(url) {
  const [genesis, rollupVersion, chainId, minFees] = await Promise.all([
    rpc(url, 'node_getBlockHeader', [0]),
    rpc(url, 'node_getVersion'),
    rpc(url, 'node_getChainId'),
    rpc(url, 'node_getCurrentMinFees'),
  ]);
  const builder = new TxBuilder({
    chainId: BigInt(chainId),
    rollupVersion: BigInt(rollupVersion),
    vkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT,
    protocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
    anchorBlockHeader: BlockHeader.fromJSON(genesis),
  });
  return builder.build({
    feePayer: TEST_ACCOUNTS[0].address,
    maxFeesPerGas: new GasFees(2n * BigInt(minFees.feePerDaGas), 2n * BigInt(minFees.feePerL2Gas)),
  });
}

const fmtS = (v) => (v === undefined ? '-' : `${v >= 0 ? '+' : ''}${v.toFixed(2)} s`);

/** anvil's block interval by L1 timestamps (s) and by the wall clock (s), over the blocks seen on time. */
function l1BlockIntervals(blocks) {
  const intervals = blockIntervals(blocks.filter((b) => !Number.isNaN(b.seenAtMs)));
  return { byTimestamp: summary(intervals.byTimestamp), seen: summary(intervals.bySeen.map((ms) => ms / 1000)) };
}

/** The L1 blocks seen, in order: { number, timestamp, seenAtMs } (NaN when seen late). */
const blocks = [];
let exitCode = 0;
try {
  const { url, anvilUrl } = await started();
  const l1 = createPublicClient({ transport: http(anvilUrl), cacheTime: 0 });
  const rollup = /** @type {`0x${string}`} */ ((await rpc(url, 'node_getL1ContractAddresses')).rollupAddress);
  const at = { address: rollup, abi: RollupAbi };
  const onL1Slot = Number(await l1.readContract({ ...at, functionName: 'getSlotDuration' }));
  if (onL1Slot !== slotDuration)
    throw new Error(`the rollup's slot is ${onL1Slot} s, not --slot-duration ${slotDuration}`);
  const proposedEvent = getAbiItem({ abi: RollupAbi, name: 'CheckpointProposed' });

  const tx = await aTx(url);
  const txHash = tx.txHash.toString();
  const sentAt = performance.now();
  await rpc(url, 'node_sendTx', [tx.toJSON()]);
  let txCheckpointedMs;
  process.stdout.write(`sent tx ${txHash}; watching rollup ${rollup} on ${anvilUrl} for ${wanted} checkpoints\n`);

  const latencies = [];
  let scannedTo = await l1.getBlockNumber();
  let lastProgress = performance.now();
  for (;;) {
    const head = await l1.getBlockNumber();
    const seenAtMs = Date.now();
    for (let n = scannedTo + 1n; n <= head; n++) {
      const block = await l1.getBlock({ blockNumber: n });
      // Blocks that came while the bench was busy share one sighting: only the last is seen on time.
      blocks.push({ number: n, timestamp: block.timestamp, seenAtMs: n === head ? seenAtMs : Number.NaN });
    }
    if (head > scannedTo) {
      const logs = await l1.getLogs({
        address: rollup,
        event: proposedEvent,
        fromBlock: scannedTo + 1n,
        toBlock: head,
      });
      for (const p of proposalsOf(logs)) {
        if (latencies.some((l) => l.checkpoint === Number(p.checkpointNumber))) continue;
        const checkpoint = await l1.readContract({ ...at, functionName: 'getCheckpoint', args: [p.checkpointNumber] });
        const slot = BigInt(checkpoint.slotNumber);
        const [slotStart, slotEnd] = await Promise.all([
          l1.readContract({ ...at, functionName: 'getTimestampForSlot', args: [slot] }),
          l1.readContract({ ...at, functionName: 'getTimestampForSlot', args: [slot + 1n] }),
        ]);
        const inBlock = blocks.find((b) => b.number === p.l1BlockNumber);
        const l = latencyOf({
          ...p,
          slot,
          slotStart,
          slotEnd,
          l1Timestamp: inBlock?.timestamp ?? (await l1.getBlock({ blockNumber: p.l1BlockNumber })).timestamp,
          seenAtMs: inBlock?.seenAtMs ?? Number.NaN,
        });
        latencies.push(l);
        lastProgress = performance.now();
        process.stdout.write(
          `checkpoint ${l.checkpoint} (slot ${l.slot}) in L1 block ${p.l1BlockNumber}: ${fmtS(l.afterSlotEnd)} after slot end, ` +
            `${fmtS(l.afterSlotStart)} after slot start (seen ${fmtS(l.seenAfterSlotEnd)} / ${fmtS(l.seenAfterSlotStart)})\n`,
        );
      }
      scannedTo = head;
    }
    if (txCheckpointedMs === undefined) {
      const receipt = await rpc(url, 'node_getTxReceipt', [txHash]);
      if (['checkpointed', 'proven', 'finalized'].includes(receipt?.status))
        txCheckpointedMs = performance.now() - sentAt;
    }
    if (latencies.length >= wanted && txCheckpointedMs !== undefined) break;
    const sinceProgressS = (performance.now() - lastProgress) / 1000;
    if (sinceProgressS >= timeoutS) {
      const pendingOnL1 = await l1.readContract({ ...at, functionName: 'getPendingCheckpointNumber' });
      const stall = stallMessage({ seen: latencies.length, wanted, sinceProgressS, timeoutS, pendingOnL1 });
      if (stall) throw new Error(stall);
    }
    if (latencies.length >= wanted && (performance.now() - sentAt) / 1000 > timeoutS) {
      throw new Error(`the tx's receipt did not reach checkpointed within ${timeoutS} s`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }

  const pendingOnL1 = await l1.readContract({ ...at, functionName: 'getPendingCheckpointNumber' });
  const lastSeen = Math.max(...latencies.map((l) => l.checkpoint));
  if (pendingOnL1 < BigInt(lastSeen)) {
    throw new Error(`getPendingCheckpointNumber() is ${pendingOnL1}, behind checkpoint ${lastSeen} seen proposed`);
  }
  const intervals = l1BlockIntervals(blocks);
  const q = {
    afterSlotEnd: summary(latencies.map((l) => l.afterSlotEnd)),
    afterSlotStart: summary(latencies.map((l) => l.afterSlotStart)),
    seenAfterSlotEnd: summary(latencies.map((l) => l.seenAfterSlotEnd).filter((v) => !Number.isNaN(v))),
    seenAfterSlotStart: summary(latencies.map((l) => l.seenAfterSlotStart).filter((v) => !Number.isNaN(v))),
    l1BlockByTimestamp: intervals.byTimestamp,
    l1BlockSeen: intervals.seen,
  };
  process.stdout.write(
    `\n${latencies.length} checkpoints on L1, ${slotDuration} s slots; getPendingCheckpointNumber() ${pendingOnL1}\n` +
      `${''.padEnd(50)}${'min'.padStart(10)}${'median'.padStart(10)}${'max'.padStart(10)}\n`,
  );
  const row = (name, s) =>
    process.stdout.write(
      `${name.padEnd(50)}${[s?.min, s?.median, s?.max].map((v) => fmtS(v).padStart(10)).join('')}\n`,
    );
  row('L1 inclusion minus slot end (L1 timestamps)', q.afterSlotEnd);
  row('slot start to L1 inclusion (L1 timestamps)', q.afterSlotStart);
  row('seen on L1 minus slot end (wall clock)', q.seenAfterSlotEnd);
  row('slot start to seen on L1 (wall clock)', q.seenAfterSlotStart);
  row('L1 block interval (baseline, L1 timestamps)', q.l1BlockByTimestamp);
  row('L1 block interval (baseline, wall clock)', q.l1BlockSeen);
  process.stdout.write(`tx sent to a checkpointed receipt: ${(txCheckpointedMs / 1000).toFixed(2)} s\n`);

  const baseline = { name: 'anvil block interval (L1 timestamps)', value: q.l1BlockByTimestamp?.median };
  benchResult(
    'l1-publication',
    [
      { name: 'L1 inclusion minus slot end (signed), median', value: q.afterSlotEnd.median, unit: 's', baseline },
      {
        name: 'slot start to L1 inclusion, median',
        value: q.afterSlotStart.median,
        unit: 's',
        baseline,
        ratio: baseline.value ? q.afterSlotStart.median / baseline.value : undefined,
        lowerIsBetter: true,
      },
      {
        name: 'slot start to the proposal seen on L1 (wall clock), median',
        value: q.seenAfterSlotStart?.median,
        unit: 's',
        baseline: { name: 'anvil block interval (wall clock)', value: q.l1BlockSeen?.median },
        ratio: q.l1BlockSeen?.median ? q.seenAfterSlotStart?.median / q.l1BlockSeen.median : undefined,
        lowerIsBetter: true,
      },
      {
        name: 'tx sent to a checkpointed receipt',
        value: txCheckpointedMs / 1000,
        unit: 's',
        baseline: { name: 'slot duration', value: slotDuration },
        ratio: txCheckpointedMs / 1000 / slotDuration,
        lowerIsBetter: true,
      },
    ],
    {
      slotDuration,
      checkpoints: latencies.length,
      nodeArgs: nodeArgs.join(' '),
      minMedianMaxS: Object.fromEntries(
        Object.entries(q).map(([k, s]) => [k, s && [s.min, s.median, s.max].map((v) => Number(v.toFixed(2)))]),
      ),
    },
  );
} catch (err) {
  process.stdout.write(`l1-publication: ${err.message}\n`);
  // The baseline still means something: what publication would have had to beat.
  const { byTimestamp, seen } = l1BlockIntervals(blocks);
  if (byTimestamp) {
    process.stdout.write(
      `anvil's block interval meanwhile (baseline), min / median / max: ${[byTimestamp.min, byTimestamp.median, byTimestamp.max].join(' / ')} s ` +
        `by L1 timestamps, ${[seen.min, seen.median, seen.max].map((v) => v.toFixed(2)).join(' / ')} s by the wall clock, over ${blocks.length} blocks\n`,
    );
  }
  exitCode = 1;
} finally {
  stopNode();
  await new Promise((r) => (node.exitCode === null ? node.once('exit', r) : r()));
  rmSync(dataDirectory, { recursive: true, force: true });
}
process.exit(exitCode);
