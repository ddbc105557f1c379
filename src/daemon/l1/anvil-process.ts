import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import { AnvilStateFile, anvilRpc } from './anvil-state-file.js';
import { describeExit, signalGroup, spawnSupervised, supervisedPid } from './anvil-supervisor.js';
import { foundryBinary } from './foundry-binary.js';
import { POINT_EVALUATION, zeroPolynomialOpening } from './point-evaluation-warm-up.js';

export interface AnvilProcessOptions {
  /** The node's data directory: anvil's chain is kept in `l1/anvil-state.json` there. Absent: in memory. */
  readonly dataDirectory: string | undefined;
  readonly chainId: number;
  /** The port to listen on; taken by another process, anvil falls back to one the system picks. 0: any. */
  readonly port: number;
  readonly log: Logger;
  /** Seconds to wait for anvil to listen. */
  readonly startTimeout?: number;
}

/** anvil did not start, or stopped under the node. */
export class AnvilProcessError extends Error {
  override name = 'AnvilProcessError';
}

/** Whether anvil runs, and why not when it does not (GET /status, readiness). */
export interface AnvilHealth {
  readonly up: boolean;
  /** The port anvil listens on (kept across restarts). */
  readonly port?: number;
  /** Why anvil is down (how it ended, what the node does about it). */
  readonly reason?: string;
  /** When it went down (ISO 8601). */
  readonly since?: string;
  /** How many times the node restarted it since it started. */
  readonly restarts: number;
}

/** Seconds between periodic saves of anvil's state (on top of the saves after each proposal and proof). */
const STATE_INTERVAL_MS = 5_000;
/** Lines of anvil's output kept to explain a failed start. */
const TAIL_LINES = 20;
/** Restart delays after anvil dies under the node (ms), the last one repeated. */
const RESTART_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000];

/** One run of the anvil binary. */
interface Run {
  /** The supervisor (its pid is the process group's). */
  readonly child: ChildProcess;
  /** anvil's own pid. */
  readonly pid: number | undefined;
  readonly url: string;
  readonly port: number;
}

/**
 * `--l1 anvil`: the real anvil binary (Foundry 1.7.1 from npm) as a supervised child process (anvil-supervisor.ts:
 * it dies with the node however the node dies), started before the node's services and stopped after them. It
 * listens on 127.0.0.1 on the asked port (or one the system picks when that one is taken). Its chain is loaded
 * from the data directory at start and saved there by the node (AnvilStateFile: atomically, the previous good
 * state kept) every 5 s, after each proposal and proof, and on stop. When anvil dies under the node it is started
 * again from its last saved state on the same port, and reported down meanwhile (`health`). It starts mining each
 * tx as it comes (forge's deployment hangs on interval mining); `mineEvery` then gives it a block time. Its
 * output goes to the node's log at debug.
 */
export class AnvilProcess implements Service {
  readonly name = 'anvil';
  private run: Run | undefined;
  private stopping = false;
  private readonly tail: string[] = [];
  private readonly state: AnvilStateFile | undefined;
  private blockTime: number | undefined;
  private warming: Promise<void> = Promise.resolve();
  private saveTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private down: { reason: string; since: string } | undefined;
  private restarts = 0;
  private failedRestarts = 0;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly o: AnvilProcessOptions) {
    this.state = o.dataDirectory ? new AnvilStateFile(o.dataDirectory) : undefined;
  }

  /** The JSON-RPC URL of the running anvil (it stays the same across restarts). */
  get rpcUrl(): string {
    if (!this.run) throw new AnvilProcessError('anvil is not running');
    return this.run.url;
  }

  /** The port anvil listens on. */
  get port(): number {
    if (!this.run) throw new AnvilProcessError('anvil is not running');
    return this.run.port;
  }

  health(): AnvilHealth {
    return {
      up: this.down === undefined,
      ...(this.run ? { port: this.run.port } : {}),
      ...(this.down ?? {}),
      restarts: this.restarts,
    };
  }

  /** Tells `listener` when anvil goes down or comes back. */
  onHealth(listener: () => void): void {
    this.listeners.add(listener);
  }

  async start(): Promise<void> {
    this.stopping = false;
    const started = performance.now();
    this.run = await this.launch(this.o.port, true);
    this.o.log.info(
      {
        rpcUrl: this.run.url,
        pid: this.run.pid,
        group: this.run.child.pid,
        ms: Math.round(performance.now() - started),
      },
      `anvil listening on ${this.run.url}`,
    );
    // Not awaited: reads are answered meanwhile, and a restart needs nothing else before it serves.
    this.warming = this.warmUp(this.run.url);
    this.scheduleSave();
  }

  /**
   * Resolves once anvil has loaded its KZG set-up: it mines no block and runs no tx meanwhile (its state dump
   * waits too), but answers reads. A deployment waits for it, so that none of its txs times out behind it.
   */
  kzgLoaded(): Promise<void> {
    return this.warming;
  }

  /**
   * anvil loads its KZG set-up on the first point evaluation (1 to 2 s on a quiet machine, over 10 s on a busy
   * one): it is loaded here, as anvil starts, before the node sends it a tx. One eth_call to the precompile;
   * nothing is sent.
   */
  private async warmUp(url: string): Promise<void> {
    const started = performance.now();
    await anvilRpc(url, 'eth_call', [{ to: POINT_EVALUATION, data: zeroPolynomialOpening() }, 'latest']).catch((err) =>
      this.o.log.debug({ err: (err as Error).message }, 'anvil KZG warm-up failed'),
    );
    const ms = Math.round(performance.now() - started);
    this.o.log.info({ ms }, `anvil KZG set-up loaded in ${ms} ms`);
  }

  /**
   * Starts anvil on `port` from the best saved state: a state anvil cannot load is set aside and the previous
   * good one is taken, with a warning; with no loadable state left, start-up stops with the recovery to run.
   */
  private async launch(port: number, firstStart: boolean): Promise<Run> {
    const { o } = this;
    if (o.dataDirectory) mkdirSync(join(o.dataDirectory, 'l1'), { recursive: true, mode: 0o700 });
    const candidates = this.state?.candidates() ?? [];
    const setAside: string[] = [];
    for (;;) {
      const load = candidates.shift();
      try {
        return await this.spawnOnce(port, load);
      } catch (err) {
        if (err instanceof PortTakenError && firstStart && port !== 0) {
          o.log.warn({ port }, `port ${port} is taken: anvil listens on a port the system picks instead`);
          port = 0;
          if (load) candidates.unshift(load);
          continue;
        }
        if (!(err instanceof StateUnloadableError) || !load || !this.state) throw err;
        const aside = this.state.setAsideDamaged(load);
        setAside.push(aside);
        const next = candidates[0];
        if (next) {
          o.log.warn(
            { damaged: aside, from: next, err: err.message },
            `anvil cannot load its state ${load} (${err.message}); it was moved to ${aside}, and anvil starts ` +
              `from the previous good state ${next}: the L1 goes back to that save, and the node unwinds what ` +
              'it recorded after it',
          );
          continue;
        }
        throw new AnvilProcessError(
          `anvil cannot load its saved state (${err.message}); no good state is left (set aside: ` +
            `${setAside.join(', ')}). The L1 this data directory's chain was settled on is lost: move the ` +
            `directory aside and start a new one (\`mv ${o.dataDirectory} ${o.dataDirectory}.lost && l2node start ` +
            `--l1 anvil --data-directory ${o.dataDirectory}\`)`,
        );
      }
    }
  }

  /** One start of the binary; resolves once it listens. */
  private spawnOnce(port: number, loadState: string | undefined): Promise<Run> {
    const { o } = this;
    const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(o.chainId)];
    if (loadState) args.push('--load-state', loadState);
    if (this.blockTime !== undefined) args.push('--block-time', String(this.blockTime));
    const binary = foundryBinary('anvil');
    o.log.info({ binary, args }, 'starting anvil');
    const child = spawnSupervised(binary, args);
    this.tail.length = 0;
    return new Promise<Run>((resolve, reject) => {
      let listening: Run | undefined;
      let pid: number | undefined;
      const timeout = setTimeout(
        () => fail(new AnvilProcessError(`anvil did not listen within ${o.startTimeout ?? 30} s`)),
        (o.startTimeout ?? 30) * 1000,
      );
      const fail = (err: Error) => {
        clearTimeout(timeout);
        signalGroup(child, 'SIGKILL');
        reject(err);
      };
      const onLine = (line: string) => {
        if (!line.trim()) return;
        pid ??= supervisedPid(line);
        if (pid !== undefined && supervisedPid(line) !== undefined) return;
        this.tail.push(line);
        if (this.tail.length > TAIL_LINES) this.tail.shift();
        o.log.debug({ anvil: line }, 'anvil');
        const match = /Listening on (\S+):(\d+)/.exec(line);
        if (match && !listening) {
          clearTimeout(timeout);
          const p = Number(match[2]);
          listening = { child, pid, url: `http://127.0.0.1:${p}`, port: p };
          resolve(listening);
        }
      };
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', onLine);
      createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', onLine);
      child.once('error', (err) => fail(new AnvilProcessError(`anvil could not be run (${binary}): ${err.message}`)));
      // 'close': after anvil's last output line, so a failed start is explained by it.
      child.once('close', (code, signal) => {
        // The watcher of a supervisor whose anvil is gone goes with it.
        signalGroup(child, 'SIGKILL');
        if (!listening) {
          const output = this.tail.join('\n');
          if (/address already in use/i.test(output)) fail(new PortTakenError(port));
          else if (loadState && /load-state/.test(output)) {
            fail(new StateUnloadableError(this.tail.find((l) => /load-state/.test(l)) ?? output));
          } else {
            fail(
              new AnvilProcessError(
                `anvil exited during start (${describeExit(code, signal)})${output ? `; its last output:\n${output}` : ''}`,
              ),
            );
          }
        } else if (this.run?.child === child && !this.stopping) {
          this.died(describeExit(code, signal));
        }
      });
    });
  }

  /** anvil ended under the running node: reported down, and started again from its last saved state. */
  private died(how: string): void {
    const saved = this.state?.savedAt;
    const reason =
      `anvil exited unexpectedly (${how}); restarting it from its state ` +
      (saved ? `saved at ${saved.toISOString()}` : this.state ? 'saved at start' : '(in memory: the L1 starts over)');
    this.down = { reason, since: new Date().toISOString() };
    clearTimeout(this.saveTimer);
    this.o.log.error({ how, tail: this.tail.slice(-5) }, `the node's L1 is down: ${reason}`);
    this.changed();
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const delay = RESTART_DELAYS_MS[Math.min(this.failedRestarts, RESTART_DELAYS_MS.length - 1)] as number;
    this.restartTimer = setTimeout(() => void this.restart(), delay);
  }

  private async restart(): Promise<void> {
    const port = this.run?.port ?? this.o.port;
    try {
      const run = await this.launch(port, false);
      await this.warmUp(run.url);
      if (this.stopping) {
        signalGroup(run.child, 'SIGKILL');
        return;
      }
      this.run = run;
      this.restarts++;
      this.failedRestarts = 0;
      this.down = undefined;
      this.o.log.info(
        { rpcUrl: run.url, pid: run.pid, group: run.child.pid },
        `anvil is back on ${run.url}: the node's L1 is up`,
      );
      this.changed();
      this.scheduleSave();
    } catch (err) {
      this.failedRestarts++;
      const message = (err as Error).message.split('\n')[0] ?? 'unknown error';
      if (this.down) this.down = { ...this.down, reason: `anvil could not be restarted (${message}); retrying` };
      if (this.failedRestarts === 1) this.o.log.error({ err: message }, `anvil could not be restarted: ${message}`);
      this.changed();
      if (!this.stopping) this.scheduleRestart();
    }
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private scheduleSave(): void {
    if (!this.state) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      void this.saveState()
        .catch((err) => this.o.log.debug({ err: (err as Error).message }, 'periodic save of anvil state failed'))
        .finally(() => {
          if (!this.stopping && !this.down) this.scheduleSave();
        });
    }, STATE_INTERVAL_MS);
  }

  /**
   * Saves anvil's chain to the data directory now (no-op in memory). The settlement calls it after each
   * proposal and proof and before recording them, so what the node records is on the saved L1.
   */
  async saveState(): Promise<void> {
    if (!this.state) return;
    if (this.down || !this.run) throw new AnvilProcessError(`anvil is down: ${this.down?.reason ?? 'not started'}`);
    await this.state.save(this.run.url);
  }

  /**
   * Interval mining from now on: a block every `seconds`, so L1 time follows the wall clock as slots do. Set once
   * anvil has loaded its KZG set-up (kzgLoaded): it could mine no block before, and every eth_call would wait
   * behind the block it tries to mine.
   */
  async mineEvery(seconds: number): Promise<void> {
    // A restart starts with it.
    this.blockTime = seconds;
    await this.warming;
    if (!this.stopping) await anvilRpc(this.rpcUrl, 'evm_setIntervalMining', [seconds]);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.saveTimer);
    clearTimeout(this.restartTimer);
    const run = this.run;
    if (!run || run.child.exitCode !== null || run.child.signalCode !== null) return;
    if (!this.down) {
      await this.saveState().catch((err) =>
        this.o.log.warn({ err: (err as Error).message }, `anvil's state could not be saved on stop: ${err}`),
      );
    }
    const exited = new Promise<void>((resolve) => run.child.once('close', () => resolve()));
    signalGroup(run.child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(run.child, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    await this.warming;
    this.run = undefined;
  }
}

/** anvil's port is taken by another process. */
class PortTakenError extends AnvilProcessError {
  constructor(port: number) {
    super(`port ${port} is taken`);
  }
}

/** anvil refused the state it was asked to load. */
class StateUnloadableError extends AnvilProcessError {}
