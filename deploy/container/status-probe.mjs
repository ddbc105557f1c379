#!/usr/bin/env node
// Probe of a node's GET /status from inside its container, for the image's HEALTHCHECK and for orchestrator
// probes that must read the answer's body. It ships in the image (/app/deploy/status-probe.mjs) because slim
// images have no curl, and it uses nothing but Node itself.
//
//   status-probe.mjs live    exit 0 when GET /status answers 200: the node runs (it answers 503 while it starts
//                            or stops). Liveness, and the image's HEALTHCHECK.
//   status-probe.mjs ready   also the body's `ready` is true (running and synced: not starting, paused, or
//                            behind its upstream), and the data directory takes writes (writable, and at least
//                            MIN_FREE_BYTES free): a node that cannot write cannot build or follow blocks, yet
//                            its /status would still answer 200. Readiness.
//
// It finds the node the way the node finds its own settings: NODE_PORT, NODE_HOST and NODE_DATA_DIRECTORY
// (so configure the container with environment variables, not flags). A wildcard NODE_HOST is probed on
// 127.0.0.1. Exit 1 with one line saying why on any failure; the orchestrator shows that line.
import { accessSync, constants, statfsSync } from 'node:fs';

/** Below this much free space on the data volume the node is not ready: room for a few blocks and SQLite's WAL. */
const MIN_FREE_BYTES = 64 * 1024 * 1024;
const TIMEOUT_MS = 3000;

function statusUrl(env) {
  const host = !env.NODE_HOST || env.NODE_HOST === '0.0.0.0' || env.NODE_HOST === '::' ? '127.0.0.1' : env.NODE_HOST;
  const port = env.NODE_PORT || '8080';
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/status`;
}

/** Why the data directory cannot take writes, or undefined when it can (or when the node keeps no data directory). */
function dataDirectoryProblem(dir) {
  if (!dir) return undefined;
  try {
    // access(2) reports a read-only mount (EROFS) as well as missing permissions.
    accessSync(dir, constants.W_OK);
    const fs = statfsSync(dir);
    const free = fs.bavail * fs.bsize;
    if (free < MIN_FREE_BYTES) return `data directory ${dir} has ${free} bytes free (needs ${MIN_FREE_BYTES})`;
    return undefined;
  } catch (err) {
    return `data directory ${dir} is not writable (${err.code ?? err.message})`;
  }
}

async function probe(mode, env) {
  const url = statusUrl(env);
  let res;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    return `no answer from ${url} (${err.cause?.code ?? err.cause?.message ?? err.message})`;
  }
  const body = await res.json().catch(() => undefined);
  if (res.status !== 200) return `${url} answered ${res.status} (state ${body?.state ?? 'unknown'})`;
  if (mode === 'live') return undefined;
  if (body?.ready !== true) {
    const paused = body?.sync?.pausedBy?.length ? ` by ${body.sync.pausedBy.join(', ')}` : '';
    return `not ready: sync state ${body?.sync?.state ?? 'unknown'}${paused}`;
  }
  return dataDirectoryProblem(env.NODE_DATA_DIRECTORY);
}

const mode = process.argv[2];
if (mode !== 'live' && mode !== 'ready') {
  process.stderr.write('usage: status-probe.mjs live|ready\n');
  process.exit(2);
}
const problem = await probe(mode, process.env);
if (problem) {
  process.stdout.write(`${problem}\n`);
  process.exit(1);
}
process.stdout.write(`${mode}\n`);
