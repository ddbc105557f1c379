/**
 * Spawns the real daemon (`bin/run.js start` on the built dist/) for end-to-end tests, on free ports of
 * 127.0.0.1 with JSON logs, and waits until GET /status answers 200. Captures stdout, stderr, the parsed
 * log lines and the admin key banner. Every spawned node is killed when the test file ends (and when the
 * worker exits), so no process is ever left behind. Build first: `npm run build`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { scaled } from './until.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
/** Flags every spawned node gets unless the test passes the same flag itself (oclif takes a flag once). */
const BASE_FLAGS: readonly [string, string][] = [
  ['--port', '0'],
  ['--admin-port', '0'],
  ['--host', '127.0.0.1'],
  ['--log-format', 'json'],
];

/**
 * Epochs of two slots, proven one slot after they end and final one slot later: the proven and finalized tips
 * move within a test's time.
 */
export const QUICK_EPOCH_FLAGS = ['--epoch-duration', '2', '--proof-delay', '1', '--finality-delay', '1'] as const;

export interface SpawnNodeOptions {
  /** Extra flags; one named here replaces the base flag of the same name. */
  readonly args?: readonly string[];
  /**
   * Only `--port 0 --admin-port 0` and `args`: the node's own defaults for everything else (host, log format),
   * as a user starts it.
   */
  readonly bare?: boolean;
  /** Extra environment; `undefined` removes a variable. NODE_* settings of the outer shell are never inherited. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How long start-up may take (default 20 s). */
  readonly readyTimeoutMs?: number;
}

export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export type LogLine = Record<string, unknown> & { msg?: string; level?: number; module?: string };

export interface SpawnedProcess {
  readonly pid: number;
  readonly exited: Promise<ExitStatus>;
  stdout(): string;
  stderr(): string;
  /** JSON log records (stdout, or stderr with --json). */
  logs(): LogLine[];
  /** Resolves with the first log line matching, waiting for it up to `timeoutMs`. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL if it is still alive after `graceMs`. */
  stop(graceMs?: number): Promise<ExitStatus>;
}

export interface RunningNode extends SpawnedProcess {
  readonly publicUrl: string;
  readonly adminUrl: string;
  /** The admin key printed in the start-up banner, when one was generated. */
  readonly adminKey: string | undefined;
}

const live = new Set<ChildProcess>();

/**
 * The config home (XDG_CONFIG_HOME) of every node and CLI run of this test file: `start` saves the admin keys it
 * generates in the CLI credentials file there, never in the user's ~/.config.
 */
export const CONFIG_HOME = mkdtempSync(join(tmpdir(), 'l2node-config-'));

afterAll(async () => {
  await Promise.all([...live].map((child) => terminate(child, 5000)));
  rmSync(CONFIG_HOME, { recursive: true, force: true });
});
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Starts a node process without waiting for anything (for start-up failures and signal tests). */
export function spawnNodeProcess(options: SpawnNodeOptions = {}): SpawnedProcess {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('NODE_') || k === 'NODE_OPTIONS') env[k] = v;
  }
  env.XDG_CONFIG_HOME = CONFIG_HOME;
  // Tests bind port 0: --l1 anvil's default port (8545) would be shared by every file's anvil.
  env.NODE_L1_PORT = '0';
  // A fresh dev chain deploys the test accounts and the BananaFPC at start (4.1.2's local network set-up): tests
  // that do not ask for it (NODE_LOCAL_NETWORK_SETUP: 'true') neither wait for it nor find the accounts taken.
  env.NODE_LOCAL_NETWORK_SETUP = 'false';
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const extra = options.args ?? [];
  const base = BASE_FLAGS.filter(([flag]) => !extra.includes(flag))
    .filter(([flag]) => !options.bare || flag === '--port' || flag === '--admin-port')
    .flat();
  const child = spawn(process.execPath, [BIN, 'start', ...base, ...extra], {
    cwd: REPO_ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let out = '';
  let err = '';
  const parsed: LogLine[] = [];
  let partial = '';
  const waiters = new Set<() => void>();
  // Log records come on stdout, or on stderr with --json (stdout then holds only the banner).
  let partialErr = '';
  const parseLines = (text: string): string => {
    const lines = text.split('\n');
    const rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{') || line.startsWith('{"status"')) continue;
      try {
        parsed.push(JSON.parse(line) as LogLine);
      } catch {
        // A non-JSON line that starts with a brace: not a log record.
      }
    }
    for (const w of waiters) w();
    return rest;
  };
  // L2NODE_TEST_NODE_LOGS=<folder>: every spawned node's output is also written there whole (a failure prints only
  // its last lines), one file per node process.
  const keep = process.env.L2NODE_TEST_NODE_LOGS
    ? join(process.env.L2NODE_TEST_NODE_LOGS, `node-${Date.now()}-${child.pid}.log`)
    : undefined;
  if (keep) mkdirSync(dirname(keep), { recursive: true });
  const tee = (chunk: string) => keep && appendFileSync(keep, chunk);
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    tee(chunk);
    out += chunk;
    partial = parseLines(partial + chunk);
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    tee(chunk);
    err += chunk;
    partialErr = parseLines(partialErr + chunk);
  });
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      for (const w of waiters) w();
      resolve({ code, signal });
    });
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  const waitForLog = (match: (line: LogLine) => boolean, unscaledMs = 20_000): Promise<LogLine> =>
    new Promise((resolve, reject) => {
      const timeoutMs = scaled(unscaledMs);
      const check = () => {
        const found = parsed.find(match);
        if (found) return done(() => resolve(found));
        if (hasExited || child.exitCode !== null) {
          return done(() => reject(new Error(`node exited before the expected log line\n${tail(out, err)}`)));
        }
      };
      const timer = setTimeout(
        () =>
          done(() => reject(new Error(`expected log line did not appear within ${timeoutMs} ms\n${tail(out, err)}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });

  return {
    pid: child.pid as number,
    exited,
    stdout: () => out,
    stderr: () => err,
    logs: () => parsed,
    waitForLog,
    signal: (signal) => {
      child.kill(signal);
    },
    stop: async (graceMs = 10_000) => {
      await terminate(child, graceMs);
      return exited;
    },
  };
}

/** Starts a node and waits until it serves GET /status with 200 on its public listener. */
export async function spawnNode(options: SpawnNodeOptions = {}): Promise<RunningNode> {
  const proc = spawnNodeProcess(options);
  // waitForLog scales its own timeout.
  const timeoutMs = options.readyTimeoutMs ?? 20_000;
  try {
    const listening = await proc.waitForLog((l) => l.msg === 'rpc listening', timeoutMs);
    const publicUrl = String(listening.publicUrl);
    const adminUrl = String(listening.adminUrl);
    await proc.waitForLog((l) => l.msg === 'node running', timeoutMs);
    await waitForStatus(publicUrl, scaled(timeoutMs));
    // `start` prints its banner once the node runs, which can reach us after GET /status has answered.
    await waitForBanner(proc, scaled(timeoutMs));
    const adminKey = /x-api-key: ([0-9a-f]{64})/.exec(proc.stdout())?.[1];
    return { ...proc, publicUrl, adminUrl, adminKey };
  } catch (err) {
    await proc.stop(2000);
    throw err;
  }
}

async function waitForStatus(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${url}/status`);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url}/status did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function terminate(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function tail(out: string, err: string): string {
  return `--- stdout (last lines)\n${out.split('\n').slice(-15).join('\n')}\n--- stderr\n${err.split('\n').slice(-15).join('\n')}`;
}

/** POSTs a raw JSON-RPC body (object, array or text) and returns status, headers and the parsed body. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A JSON-RPC request object. */
export function rpc(method: string, params: unknown[] = [], id: number | string = 1): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params };
}

/** Runs another l2node command (`bin/run.js <args>`) to completion. */
export function runCli(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, XDG_CONFIG_HOME: CONFIG_HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr?.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      live.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Whether stdout holds the whole start banner: the --json envelope line, or the human banner to its end. */
function bannerPrinted(stdout: string): boolean {
  if (/^\{"status".*\}$/m.test(stdout)) return true;
  if (!stdout.includes('Public RPC')) return false;
  // The admin key box, when this start made a key, is the banner's end.
  return !stdout.includes('ADMIN API KEY (shown once)') || stdout.includes('Restart with --reset-admin-api-key');
}

async function waitForBanner(proc: SpawnedProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!bannerPrinted(proc.stdout())) {
    if (Date.now() > deadline) throw new Error(`the start banner did not appear within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
