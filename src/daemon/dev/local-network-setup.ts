import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import type { SetupReport } from './local-network-setup-process.js';

const CHILD = fileURLToPath(new URL('./local-network-setup-process.js', import.meta.url));
/** The last lines of the child's stderr kept for a failure's message. */
const STDERR_TAIL = 4096;

/** GET /status `localNetworkSetup`: where the set-up of 4.1.2's local network stands. */
export type LocalNetworkSetupStatus =
  | { readonly state: 'skipped'; readonly reason: string }
  | {
      readonly state: 'running' | 'done' | 'failed';
      /** The test accounts deployed so far, then the BananaCoin and BananaFPC. */
      readonly accounts: readonly string[];
      readonly bananaCoin?: string;
      readonly bananaFpc?: string;
      readonly error?: string;
      readonly seconds?: number;
    };

export interface LocalNetworkSetupOptions {
  /** Why the set-up does not run on this start, or undefined when it does (decided by the node, see node.ts). */
  readonly skipReason: string | undefined;
  /** The node's public JSON-RPC URL, once its listeners are up. */
  readonly nodeUrl: () => string;
  readonly log: Logger;
}

/**
 * What `aztec start --local-network` does once its node runs, done at the first start of a fresh dev chain: the
 * three test accounts deployed and the BananaFPC set up with its token (local-network-setup-process.ts). The txs
 * are built by the official wallet packages, which the node never loads itself: a child process runs them
 * against the node's own public listener, in the background, so start-up does not wait for it. Started after the
 * listeners; stopping the node ends the child.
 */
export class LocalNetworkSetup implements Service {
  readonly name = 'local-network-setup';
  private child: ChildProcess | undefined;
  private stopped = false;
  private current: LocalNetworkSetupStatus;
  private startedAt = 0;
  private readonly ended: Promise<void>;
  private end: () => void = () => {};

  constructor(private readonly o: LocalNetworkSetupOptions) {
    this.current = o.skipReason ? { state: 'skipped', reason: o.skipReason } : { state: 'running', accounts: [] };
    this.ended = new Promise((resolve) => {
      this.end = resolve;
    });
    if (o.skipReason) this.end();
  }

  /** Resolves once the set-up is done, failed or skipped (or the node stopped it). */
  finished(): Promise<void> {
    return this.ended;
  }

  status(): LocalNetworkSetupStatus {
    return this.current;
  }

  async start(): Promise<void> {
    if (this.current.state === 'skipped') return;
    // Loaded here, not with the node: a start without the set-up (a data directory, a follower, an L1, or
    // `--local-network-setup false`) never spawns it, and loading them was part of every start's time.
    const [{ spawn }, { createInterface }] = await Promise.all([import('node:child_process'), import('node:readline')]);
    // The node may have stopped the set-up while they loaded: then there is nothing to start.
    if (this.stopped) return;
    this.startedAt = Date.now();
    const url = loopbackUrl(this.o.nodeUrl());
    this.o.log.info({ nodeUrl: url }, 'local network set-up: deploying the test accounts and the BananaFPC');
    // The IPC channel is only there to close: a node that dies without stopping it ends the child too.
    const child = spawn(process.execPath, [CHILD, url], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    this.child = child;
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    createInterface({ input: child.stdout! }).on('line', (line) => this.onReport(line));
    child.once('exit', (code, signal) => {
      this.child = undefined;
      if (this.current.state !== 'running') return;
      const why = signal ? `stopped by ${signal}` : `exited with code ${code}`;
      const last = stderr.trim().split('\n').pop();
      this.fail(`the set-up process ${why}${last ? `: ${last}` : ''}`);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const child = this.child;
    this.end();
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  private onReport(line: string): void {
    let r: SetupReport;
    try {
      r = JSON.parse(line) as SetupReport;
    } catch {
      return; // not a report: a library's own output
    }
    const s = this.current;
    if (s.state !== 'running') return;
    const seconds = Math.round((Date.now() - this.startedAt) / 100) / 10;
    switch (r.event) {
      case 'account':
        this.current = { ...s, accounts: [...s.accounts, r.address] };
        this.o.log.info({ address: r.address, seconds }, 'local network set-up: test account deployed');
        break;
      case 'contract':
        this.current = r.name === 'BananaCoin' ? { ...s, bananaCoin: r.address } : { ...s, bananaFpc: r.address };
        this.o.log.info({ address: r.address, seconds }, `local network set-up: ${r.name} deployed`);
        break;
      case 'done':
        this.current = { ...s, state: 'done', seconds };
        this.end();
        this.o.log.info({ ...this.current }, 'local network set-up done: test accounts deployed, BananaFPC set up');
        break;
      case 'failed':
        this.fail(r.error);
        break;
    }
  }

  private fail(error: string): void {
    const s = this.current;
    if (s.state !== 'running') return;
    this.current = { ...s, state: 'failed', error, seconds: Math.round((Date.now() - this.startedAt) / 1000) };
    this.end();
    this.o.log.error({ error }, 'local network set-up failed (the chain runs on; deploy the accounts yourself)');
  }
}

/** The node's own listener through loopback (a listener bound to every address answers there too). */
function loopbackUrl(url: string): string {
  const u = new URL(url);
  if (u.hostname === '0.0.0.0') u.hostname = '127.0.0.1';
  else if (u.hostname === '[::]') u.hostname = '[::1]';
  return u.origin;
}
