#!/usr/bin/env node
/**
 * World-state benchmark (issue 4): our trees beside Aztec's own TypeScript trees, run in the same process on
 * the same inputs, and beside the hash-bound floor (Poseidon2 calls our trees made x measured cost per call).
 * Aztec's native (C++) figures cannot run on these machines (docs/baselines.md section 3.3); they are printed as
 * the published anchors.
 *
 * How to run (plain JavaScript over the built output, so no TypeScript tooling is involved):
 *   npm run build && node bench/world-state/run.js [--prefill 1000000] [--quick] [--skip-aztec]
 * --quick prefills 100k leaves and runs fewer blocks. Aztec's packages are installed into bench/.deps (ignored by
 * git) on first use: npm install --prefix bench/.deps @aztec/merkle-tree@4.1.2 @aztec/kv-store@4.1.2.
 * Figures vary a lot on a shared 2-core machine; compare ratios within one run, not across runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENESIS_BLOCK_HEADER_HASH } from '../../dist/core/constants.js';
import { POSEIDON2_ENGINE_DETAIL } from '../../dist/core/crypto/poseidon2.js';
import { benchResult } from '../bench-result.js';
import { loadAztec, runAztec, runAztecBlocks } from './aztec-trees.js';
import { measureHashCost, runL2node, runL2nodeBlocks, withoutChecksums } from './l2node-trees.js';
import { makeBlockWorkload, makeWorkload } from './workload.js';

const here = dirname(fileURLToPath(import.meta.url));
const depsDir = join(here, '..', '.deps');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const quick = flag('--quick');
const prefill = option('--prefill', quick ? 100_000 : 1_000_000);
const log = (s) => console.log(s);

/** Published native figures (docs/baselines.md section 3.3). */
const NATIVE = {
  appends: 51_200,
  nullifiers: 3_220,
  siblingPathUs: 135,
  block16: 128,
  block64: 819,
};

function ensureAztecDeps() {
  if (existsSync(join(depsDir, 'node_modules', '@aztec', 'merkle-tree', 'package.json'))) return;
  log('Installing @aztec/merkle-tree@4.1.2 and @aztec/kv-store@4.1.2 into bench/.deps (once)...');
  execFileSync(
    'npm',
    ['install', '--prefix', depsDir, '--no-audit', '--no-fund', '@aztec/merkle-tree@4.1.2', '@aztec/kv-store@4.1.2'],
    { stdio: 'inherit' },
  );
}

const fmtRate = (r) => (r >= 1000 ? `${(r / 1000).toFixed(1)}k/s` : `${r.toFixed(0)}/s`);
const fmtMs = (ms) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
const ratio = (a, b) => (a && b ? `${(a / b).toFixed(2)}x` : '-');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

function row(cols) {
  const widths = [52, 12, 16, 9, 15, 9, 13, 9];
  return cols.map((c, i) => String(c).padEnd(widths[i])).join('');
}

async function main() {
  log(
    `World-state benchmark: node ${process.version}, ${cpus().length} CPUs, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  log(`Poseidon2 engine: ${POSEIDON2_ENGINE_DETAIL}`);
  const cost = measureHashCost();
  log(
    `Batched hash cost: ${cost[2].toFixed(2)} µs (2 inputs), ${cost[3].toFixed(2)} µs (3), ${cost[4].toFixed(2)} µs (4)`,
  );
  const blockCounts = quick ? { 1: 3, 16: 3, 64: 2 } : { 1: 6, 16: 6, 64: 4 };
  const skipAztec = flag('--skip-aztec');
  let A;
  let aztec;
  let aztecBlocks;
  const aztecStep = async (what, fn) => {
    if (skipAztec) return undefined;
    try {
      if (!A) {
        ensureAztecDeps();
        A = await loadAztec(depsDir);
      }
      log(`Running Aztec's TypeScript trees (${what})...`);
      return await fn();
    } catch (e) {
      // Our figures are still worth printing; the run fails at the end.
      log(`Aztec's TypeScript trees failed (${what}): ${e?.stack ?? e}`);
      process.exitCode = 1;
      return undefined;
    }
  };

  // Blocks first, each size on fresh trees, before the million-leaf workload fills the heap.
  const blocks = makeBlockWorkload({ seed: 4243, blockCounts });
  log('Running l2node blocks...');
  const oursBlocks = runL2nodeBlocks(blocks);
  // The per-record checksums' cost (docs/architecture.md section 4.11): the same blocks without them, then with
  // them again, so both sides see the same drift of a shared machine.
  const bare = withoutChecksums(() => runL2nodeBlocks(blocks));
  const again = runL2nodeBlocks(blocks);
  const checksumCost = Object.keys(blocks).map((size) => {
    const withMs = median([...oursBlocks.times[size], ...again.times[size]]);
    const withoutMs = median(bare.times[size]);
    const withUs = (oursBlocks.siblingPathUs[size] + again.siblingPathUs[size]) / 2;
    log(
      `  checksums, ${size}-tx blocks: applyBlock ${fmtMs(withMs)} with, ${fmtMs(withoutMs)} without (${ratio(withoutMs, withMs)} speed); sibling path ${withUs.toFixed(1)} µs with, ${bare.siblingPathUs[size].toFixed(1)} µs without`,
    );
    return { size, withMs, withoutMs, withUs, withoutUs: bare.siblingPathUs[size] };
  });
  aztecBlocks = await aztecStep('blocks', () => runAztecBlocks(A, blocks, GENESIS_BLOCK_HEADER_HASH, log));

  const w = makeWorkload({ seed: 4242, prefill, batches: 160 });
  log(`Prefill: ${prefill} nullifiers and ${prefill} public data slots`);
  log('Running l2node trees...');
  const ours = runL2node(w, log);
  aztec = await aztecStep('trees', () => runAztec(A, w, GENESIS_BLOCK_HEADER_HASH, log));

  const floorSeconds = (h) => (h[2] * cost[2] + h[3] * cost[3] + h[4] * cost[4]) / 1e6;
  const floorRate = (h, items) => items / floorSeconds(h);
  const items = w.appendBatches.length * 64;

  log('');
  log(row(['figure', 'l2node', 'Aztec TS (run)', 'ratio', 'native anchor', 'ratio', 'hash floor', 'of floor']));
  const rate = (name, ours_, az, native, hashes) => {
    const floor = hashes ? floorRate(hashes, items) : undefined;
    log(
      row([
        name,
        fmtRate(ours_),
        az ? fmtRate(az) : '-',
        ratio(ours_, az),
        native ? fmtRate(native) : '-',
        ratio(ours_, native),
        floor ? fmtRate(floor) : '-',
        floor ? `${((100 * ours_) / floor).toFixed(0)}%` : '-',
      ]),
    );
  };
  rate(
    'appends (64-leaf batches, fork only)',
    ours.appendsForkPerSec,
    undefined,
    NATIVE.appends,
    ours.hashes.appendsFork,
  );
  rate(
    'appends (64-leaf batches, commit/1024)',
    ours.appendsPerSec,
    aztec?.appendsPerSec,
    undefined,
    ours.hashes.appends,
  );
  rate(
    `nullifier inserts, ${prefill / 1e6}M tree (commit/1024)`,
    ours.nullifierCommittedPerSec,
    aztec?.nullifierPerSec,
    undefined,
    ours.hashes.nullifiers,
  );
  rate(
    `nullifier inserts, ${prefill / 1e6}M tree (fork, 1st pass)`,
    ours.nullifierForkColdPerSec,
    undefined,
    NATIVE.nullifiers,
    undefined,
  );
  rate(
    `nullifier inserts, ${prefill / 1e6}M tree (fork, 2nd pass)`,
    ours.nullifierForkPerSec,
    undefined,
    NATIVE.nullifiers,
    ours.hashes.nullifiersFork,
  );
  rate(
    'public data writes (commit/1024)',
    ours.publicDataPerSec,
    aztec?.publicDataPerSec,
    undefined,
    ours.hashes.publicData,
  );
  log(
    row([
      'sibling path read, latest (µs, lower wins)',
      `${ours.siblingPathUs.toFixed(1)} µs`,
      aztec ? `${aztec.siblingPathUs.toFixed(1)} µs` : '-',
      ratio(aztec?.siblingPathUs, ours.siblingPathUs),
      `${NATIVE.siblingPathUs} µs`,
      ratio(NATIVE.siblingPathUs, ours.siblingPathUs),
      '-',
      '-',
    ]),
  );
  const blockRows = (label, run) => {
    for (const size of Object.keys(blocks)) {
      const o = median(run.times[size]);
      const a = aztecBlocks ? median(aztecBlocks.blocks[size].times) : undefined;
      const native = size === '16' ? NATIVE.block16 : size === '64' ? NATIVE.block64 : undefined;
      const floor = floorSeconds(run.hashes[size]) * 1000;
      log(
        row([
          `block of ${size} tx${label} (ms, lower wins)`,
          fmtMs(o),
          a ? fmtMs(a) : '-',
          ratio(a, o),
          native ? fmtMs(native) : '-',
          ratio(native, o),
          fmtMs(floor),
          `${((100 * floor) / o).toFixed(0)}%`,
        ]),
      );
    }
  };
  blockRows('', oursBlocks);
  log('');
  const hashesPer = (h, n) => ((h[2] + h[3] + h[4]) / n).toFixed(2);
  log(
    `Hashes per item (l2node): appends ${hashesPer(ours.hashes.appends, items)}, nullifier inserts ${hashesPer(ours.hashes.nullifiers, items)}, ` +
      `public data writes ${hashesPer(ours.hashes.publicData, items)} (Aztec's batchInsert: ~45.5 per insert, docs/baselines.md section 3.2)`,
  );
  const times = (bySize) =>
    Object.entries(bySize)
      .map(([s, ts]) => `${s} tx [${ts.map((t) => t.toFixed(0)).join(', ')}]`)
      .join('; ');
  log(`Block wall times (ms), l2node: ${times(oursBlocks.times)}`);
  log(`Block CPU times (ms, this process), l2node: ${times(oursBlocks.cpuTimes)}`);
  log(
    'CPU time is what a block costs when it does not wait for the CPU; on a shared machine the wall time above it ' +
      'is the same work plus waiting for other processes.',
  );
  log(
    `Load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  log('Blocks: each tx has 64 note hashes, 64 nullifiers and 64 public data writes; 16 L1-to-L2 messages per block.');

  let ok = true;
  const same = (a, b, what) => {
    const good = a === b;
    ok &&= good;
    log(`${good ? 'same root' : 'ROOT MISMATCH'}: ${what}`);
  };
  if (aztec) {
    same(ours.prefillRoots[0], aztec.prefillRoots.nullifier, 'nullifier tree after the prefill');
    same(ours.prefillRoots[2], aztec.prefillRoots.publicData, 'public data tree after the prefill');
    same(ours.appendRoot, aztec.appendRoot, 'note hash tree after the appends');
    same(ours.nullifierRoot, aztec.nullifierRoot, 'nullifier tree after the inserts');
    log(
      '(Public data roots after the update-heavy batches are not compared: Aztec batchInsert leaves an empty leaf per update, the node syncs sequentially.)',
    );
  }
  if (aztecBlocks) {
    for (const size of Object.keys(blocks)) {
      aztecBlocks.blockRoots[size].forEach((r, i) => {
        same(r.join(), oursBlocks.roots[size][i].join(), `all five trees after ${size}-tx block ${i + 1}`);
      });
    }
  }
  if (!ok) process.exitCode = 1;

  // The summary line bench/run-all.js collects into docs/benchmarks.md.
  const figures = [];
  const ts = (name, value, unit, aztecValue, lowerIsBetter = false) =>
    figures.push({
      name,
      value,
      unit,
      ...(aztecValue
        ? {
            baseline: { name: 'Aztec 4.1.2 TypeScript trees', value: aztecValue },
            ratio: lowerIsBetter ? aztecValue / value : value / aztecValue,
            target: '>= 3x',
          }
        : {}),
      ...(lowerIsBetter ? { lowerIsBetter } : {}),
    });
  const native = (name, value, unit, anchor, lowerIsBetter = false) =>
    figures.push({
      name,
      value,
      unit,
      baseline: { name: 'Aztec native (published anchor, not run here)', value: anchor },
      ratio: lowerIsBetter ? anchor / value : value / anchor,
      target: '>= 1x',
      ...(lowerIsBetter ? { lowerIsBetter } : {}),
    });
  native('appends, 64-leaf batches, fork', ours.appendsForkPerSec, 'leaves/s', NATIVE.appends);
  ts('appends, 64-leaf batches, commit every 1024', ours.appendsPerSec, 'leaves/s', aztec?.appendsPerSec);
  ts(
    `nullifier inserts into ${prefill} (commit every 1024)`,
    ours.nullifierCommittedPerSec,
    'inserts/s',
    aztec?.nullifierPerSec,
  );
  native(`nullifier inserts into ${prefill}, fork`, ours.nullifierForkPerSec, 'inserts/s', NATIVE.nullifiers);
  ts('public data writes (commit every 1024)', ours.publicDataPerSec, 'writes/s', aztec?.publicDataPerSec);
  ts('sibling path read', ours.siblingPathUs, 'µs', aztec?.siblingPathUs, true);
  native('sibling path read', ours.siblingPathUs, 'µs', NATIVE.siblingPathUs, true);
  for (const size of Object.keys(blocks)) {
    const o = median(oursBlocks.times[size]);
    ts(`block of ${size} tx`, o, 'ms', aztecBlocks ? median(aztecBlocks.blocks[size].times) : undefined, true);
    const anchor = size === '16' ? NATIVE.block16 : size === '64' ? NATIVE.block64 : undefined;
    if (anchor) native(`block of ${size} tx`, o, 'ms', anchor, true);
  }
  for (const c of checksumCost) {
    figures.push({
      name: `block of ${c.size} tx, with per-record checksums`,
      value: c.withMs,
      unit: 'ms',
      baseline: { name: 'the same blocks without checksums (same run)', value: c.withoutMs },
      ratio: c.withoutMs / c.withMs,
      lowerIsBetter: true,
    });
    figures.push({
      name: `sibling path read after ${c.size}-tx blocks, with per-record checksums`,
      value: c.withUs,
      unit: 'µs',
      baseline: { name: 'the same reads without checksums (same run)', value: c.withoutUs },
      ratio: c.withoutUs / c.withUs,
      lowerIsBetter: true,
    });
  }
  benchResult('world-state', figures, {
    prefill,
    hashCostMicros: cost[2],
    rootsMatchAztec: ok,
    blockCpuMs: Object.fromEntries(Object.entries(oursBlocks.cpuTimes).map(([k, v]) => [k, median(v)])),
  });
}

await main();
