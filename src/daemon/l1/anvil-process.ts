import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import { foundryBinary } from './foundry-binary.js';

export interface AnvilProcessOptions {
  /** The node's data directory: anvil keeps its chain in `l1/anvil-state.json` there. Absent: in memory. */
  readonly dataDirectory: string | undefined;
  readonly chainId: number;
  readonly log: Logger;
  /** Seconds to wait for anvil to listen. */
  readonly startTimeout?: number;
}

/** anvil did not start, or stopped under the node. */
export class AnvilProcessError extends Error {
  override name = 'AnvilProcessError';
}

/** Where anvil's state is dumped, under the node's data directory. */
export function anvilStatePath(dataDirectory: string): string {
  return join(dataDirectory, 'l1', 'anvil-state.json');
}

/** Seconds between periodic state dumps: an abrupt end of the node loses at most this much L1 history. */
const STATE_INTERVAL = 5;
/** Lines of anvil's output kept to explain a failed start. */
const TAIL_LINES = 20;

/**
 * `--l1 anvil`: the real anvil binary (Foundry 1.7.1 from npm) as a child process, started before the node's
 * services and stopped after them. It listens on 127.0.0.1 on a port it picks (read from its "Listening on"
 * line) and keeps its chain in the data directory (loaded at start, dumped periodically and on stop), so a
 * restart resumes the same L1. It starts mining each tx as it comes (forge's deployment hangs on interval
 * mining); `mineEvery` then gives it a block time. Its output goes to the node's log at debug.
 */
export class AnvilProcess implements Service {
  readonly name = 'anvil';
  private child: ChildProcess | undefined;
  private url: string | undefined;
  private stopping = false;
  private readonly tail: string[] = [];

  constructor(private readonly o: AnvilProcessOptions) {}

  /** The JSON-RPC URL of the running anvil. */
  get rpcUrl(): string {
    if (!this.url) throw new AnvilProcessError('anvil is not running');
    return this.url;
  }

  async start(): Promise<void> {
    const { o } = this;
    const args = ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(o.chainId)];
    if (o.dataDirectory) {
      const state = anvilStatePath(o.dataDirectory);
      mkdirSync(join(o.dataDirectory, 'l1'), { recursive: true });
      args.push('--state', state, '--state-interval', String(STATE_INTERVAL));
    }
    const binary = foundryBinary('anvil');
    o.log.info({ binary, args }, 'starting anvil');
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.stopping = false;
    // A node that exits without stopping its services (a crash) takes anvil with it.
    const killOnExit = () => child.kill('SIGTERM');
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
    this.url = await new Promise<string>((resolve, reject) => {
      const timeout = setTimeout(
        () => fail(`anvil did not listen within ${o.startTimeout ?? 30} s`),
        (o.startTimeout ?? 30) * 1000,
      );
      const fail = (why: string) => {
        clearTimeout(timeout);
        child.kill('SIGKILL');
        reject(new AnvilProcessError(`${why}${this.tail.length ? `; its last output:\n${this.tail.join('\n')}` : ''}`));
      };
      const onLine = (line: string) => {
        if (!line.trim()) return;
        this.tail.push(line);
        if (this.tail.length > TAIL_LINES) this.tail.shift();
        o.log.debug({ anvil: line }, 'anvil');
        const listening = /Listening on (\S+):(\d+)/.exec(line);
        if (listening && !this.url) {
          clearTimeout(timeout);
          resolve(`http://127.0.0.1:${listening[2]}`);
        }
      };
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', onLine);
      createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', onLine);
      child.once('error', (err) => fail(`anvil could not be run (${binary}): ${err.message}`));
      child.once('exit', (code, signal) => {
        if (!this.url) fail(`anvil exited during start (${signal ?? `code ${code}`})`);
        else if (!this.stopping) {
          o.log.error(
            { code, signal, tail: this.tail.slice(-5) },
            `anvil exited unexpectedly (${signal ?? `code ${code}`}): the node's L1 is down until it restarts`,
          );
        }
      });
    });
    o.log.info({ rpcUrl: this.url, pid: child.pid }, `anvil listening on ${this.url}`);
  }

  /** Interval mining from now on: a block every `seconds`, so L1 time follows the wall clock as slots do. */
  async mineEvery(seconds: number): Promise<void> {
    const res = await fetch(this.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_setIntervalMining', params: [seconds] }),
    });
    const body = (await res.json()) as { error?: { message: string } };
    if (body.error) throw new AnvilProcessError(`anvil refused interval mining: ${body.error.message}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.stopping = true;
    // SIGTERM: anvil dumps its state to the --state file, then exits.
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    this.url = undefined;
  }
}
