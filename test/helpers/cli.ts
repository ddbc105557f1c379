/**
 * Runs the real CLI (`bin/run.js` on the built dist/) as a user would, for the command tests: arguments, an
 * optional stdin, and an environment cleaned of the outer shell's NODE_* and BOT_* variables, with the test
 * file's own config home (so saved admin keys stay in it). Build first: `npm run build`.
 */
import { spawn } from 'node:child_process';
import { CONFIG_HOME, REPO_ROOT } from './spawn-node.js';

const BIN = `${REPO_ROOT}bin/run.js`;

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The --json envelope of every command. */
export interface Envelope {
  readonly status: number;
  readonly result?: unknown;
  readonly error?: { code: string; message: string; actions: string[]; data?: unknown };
  readonly warnings: string[];
}

export interface CliOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Written to stdin, then closed; without it stdin is empty (not a terminal). */
  readonly input?: string;
  readonly timeoutMs?: number;
}

export function l2node(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if ((!k.startsWith('NODE_') && !k.startsWith('BOT_')) || k === 'NODE_OPTIONS') env[k] = v;
  }
  env.XDG_CONFIG_HOME = CONFIG_HOME;
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env: env as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    child.stdin.end(options.input ?? '');
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The envelope a --json run printed; fails the test with the output when stdout is not one JSON object. */
export function envelopeOf(run: CliRun): Envelope {
  try {
    return JSON.parse(run.stdout) as Envelope;
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
  }
}

/**
 * The shape of a JSON value for snapshots: types instead of values (hex strings by their length), arrays by
 * their first element. Scripts rely on shapes, and a changed shape must show up as a failed snapshot.
 */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shapeOf(v)]));
  }
  if (typeof value === 'string') {
    if (/^0x[0-9a-f]{64}$/.test(value)) return 'hex32';
    if (/^0x[0-9a-f]{40}$/.test(value)) return 'hex20';
    if (/^[0-9]+$/.test(value)) return 'decimal';
    return 'string';
  }
  return typeof value;
}
