import WebSocket from 'ws';
import {
  EVENT_STREAM_PATH,
  NODE_STREAM_EVENT_TYPES,
  type NodeStreamEvent,
  type SnapshotEvent,
} from '../node-stream-event.js';
import { RpcClientError } from './rpc-client-error.js';

/** Where the client stands; a dashboard shows it as it is. */
export type EventStreamState =
  | { readonly status: 'connecting'; readonly url: string }
  | { readonly status: 'open'; readonly url: string }
  /** The connection failed or was lost; attempt `attempt` starts in `delayMs`. */
  | {
      readonly status: 'reconnecting';
      readonly url: string;
      readonly attempt: number;
      readonly delayMs: number;
      readonly reason: string;
    }
  /** The node refused the API key (HTTP 401): retrying with the same key cannot help. */
  | { readonly status: 'unauthorized'; readonly url: string; readonly reason: string }
  | { readonly status: 'closed'; readonly url: string };

export interface EventStreamClientOptions {
  /** The node's admin listener, e.g. http://127.0.0.1:8880. */
  readonly adminUrl: string;
  /** Sent as x-api-key. */
  readonly apiKey?: string;
  /** First reconnection delay; it doubles on each failed attempt up to `maxDelayMs` (defaults 250 ms and 5 s). */
  readonly minDelayMs?: number;
  readonly maxDelayMs?: number;
  /** A connection that brings neither a message nor a ping for this long is taken as dead (default 40 s). */
  readonly idleTimeoutMs?: number;
  /** How long the opening handshake may take (default 10 s). */
  readonly handshakeTimeoutMs?: number;
}

const DEFAULT_MIN_DELAY_MS = 250;
const DEFAULT_MAX_DELAY_MS = 5000;
/** The server pings every 15 s: two missed pings and a margin. */
const DEFAULT_IDLE_MS = 40_000;
const DEFAULT_HANDSHAKE_MS = 10_000;

/** The stream's URL for an admin listener URL: ws(s)://host:port/events. */
export function eventStreamUrl(adminUrl: string): string {
  let u: URL;
  try {
    u = new URL(adminUrl);
  } catch {
    throw new RpcClientError('http', `the admin URL "${adminUrl}" is not a URL: expected e.g. http://127.0.0.1:8880`);
  }
  if (u.protocol === 'http:' || u.protocol === 'ws:') u.protocol = 'ws:';
  else if (u.protocol === 'https:' || u.protocol === 'wss:') u.protocol = 'wss:';
  else throw new RpcClientError('http', `the admin URL "${adminUrl}" must start with http:// or https://`);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}${EVENT_STREAM_PATH}`;
  u.search = '';
  return u.toString();
}

/**
 * A client of the admin event stream (src/rpc/server/event-stream.ts) that stays connected: when the node
 * restarts or the connection drops it reconnects with a doubling delay, and says so through `onState`. Each
 * connection starts with a `snapshot` event, so listeners can redraw from scratch after a reconnection.
 * Messages of a type this client does not know (a newer node) are skipped.
 */
export class EventStreamClient {
  readonly url: string;
  private readonly eventListeners = new Set<(event: NodeStreamEvent) => void>();
  private readonly stateListeners = new Set<(state: EventStreamState) => void>();
  private socket: WebSocket | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  #state: EventStreamState;

  constructor(private readonly options: EventStreamClientOptions) {
    this.url = eventStreamUrl(options.adminUrl);
    this.#state = { status: 'closed', url: this.url };
  }

  get state(): EventStreamState {
    return this.#state;
  }

  onEvent(listener: (event: NodeStreamEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onState(listener: (state: EventStreamState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Connects, and keeps reconnecting until `close()` or a refused key. */
  start(): void {
    this.stopped = false;
    this.connect();
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.idleTimer);
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.terminate();
    }
    this.setState({ status: 'closed', url: this.url });
  }

  private connect(): void {
    if (this.stopped) return;
    this.setState({ status: 'connecting', url: this.url });
    const socket = new WebSocket(this.url, {
      headers: this.options.apiKey ? { 'x-api-key': this.options.apiKey } : {},
      handshakeTimeout: this.options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_MS,
      perMessageDeflate: false,
    });
    this.socket = socket;
    let failure: Error | undefined;
    socket.on('open', () => {
      this.failures = 0;
      this.setState({ status: 'open', url: this.url });
      this.touch();
    });
    socket.on('ping', () => this.touch());
    socket.on('message', (data, isBinary) => {
      this.touch();
      if (isBinary) return;
      const event = parseEvent(data.toString());
      if (event) for (const listener of this.eventListeners) listener(event);
    });
    socket.on('error', (err) => {
      failure = err;
    });
    socket.on('close', (code, reason) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      clearTimeout(this.idleTimer);
      if (this.stopped) return;
      const status = failure && httpStatusOf(failure);
      if (status === 401) {
        this.setState({
          status: 'unauthorized',
          url: this.url,
          reason: `${this.url} refused the admin API key (HTTP 401${this.options.apiKey ? ': wrong key' : ': no key given'})`,
        });
        return;
      }
      this.scheduleReconnect(describeLoss(failure, code, reason.toString()));
    });
  }

  private scheduleReconnect(reason: string): void {
    this.failures++;
    const min = this.options.minDelayMs ?? DEFAULT_MIN_DELAY_MS;
    const max = this.options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    const delayMs = Math.min(max, min * 2 ** (this.failures - 1));
    this.setState({ status: 'reconnecting', url: this.url, attempt: this.failures, delayMs, reason });
    this.retryTimer = setTimeout(() => this.connect(), delayMs);
  }

  /** Something arrived: the connection lives. Silence past the idle timeout means it died without a close. */
  private touch(): void {
    clearTimeout(this.idleTimer);
    const socket = this.socket;
    this.idleTimer = setTimeout(() => socket?.terminate(), this.options.idleTimeoutMs ?? DEFAULT_IDLE_MS);
  }

  private setState(state: EventStreamState): void {
    this.#state = state;
    for (const listener of this.stateListeners) listener(state);
  }
}

/**
 * Connects once and resolves with the node's snapshot (`l2node dashboard --once`). Fails with an RpcClientError:
 * `unauthorized` (401), `unreachable`, `timeout`, or `bad-response` when the first message is not a snapshot.
 */
export function readSnapshot(options: {
  readonly adminUrl: string;
  readonly apiKey?: string;
  readonly timeoutMs: number;
}): Promise<SnapshotEvent> {
  const url = eventStreamUrl(options.adminUrl);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      headers: options.apiKey ? { 'x-api-key': options.apiKey } : {},
      handshakeTimeout: options.timeoutMs,
      perMessageDeflate: false,
    });
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.terminate();
      settle();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new RpcClientError(
              'timeout',
              `${url} sent no snapshot within ${options.timeoutMs} ms: the node may be busy or stuck; check its log or raise --timeout`,
            ),
          ),
        ),
      options.timeoutMs,
    );
    socket.on('message', (data) => {
      const event = parseEvent(data.toString());
      if (event?.type === 'snapshot') finish(() => resolve(event));
      else {
        finish(() =>
          reject(
            new RpcClientError(
              'bad-response',
              `${url} did not start with a snapshot event: is it an l2node admin listener of this version?`,
            ),
          ),
        );
      }
    });
    socket.on('error', (err) => finish(() => reject(connectError(url, err, options.apiKey !== undefined))));
    socket.on('close', (code, reason) =>
      finish(() =>
        reject(
          new RpcClientError('unreachable', `${url} closed the event stream before a snapshot (${code} ${reason})`),
        ),
      ),
    );
  });
}

function connectError(url: string, err: Error, keyGiven: boolean): RpcClientError {
  const status = httpStatusOf(err);
  if (status === 401) {
    return new RpcClientError(
      'unauthorized',
      `${url} refused the admin API key (HTTP 401${keyGiven ? ': wrong key' : ': no key given'}): run \`l2node admin login\` or pass --api-key`,
      { httpStatus: 401 },
    );
  }
  if (status !== undefined) {
    return new RpcClientError(
      'http',
      `${url} answered HTTP ${status} instead of opening the event stream: is it the admin listener of an l2node that serves ${EVENT_STREAM_PATH}?`,
      { httpStatus: status },
    );
  }
  const code = (err as NodeJS.ErrnoException).code;
  if (/timed out|timeout/i.test(err.message)) {
    return new RpcClientError('timeout', `${url} did not answer the handshake in time: the node may be busy or stuck`);
  }
  return new RpcClientError('unreachable', `cannot reach ${url} (${code ?? err.message}): is the node running?`);
}

function httpStatusOf(err: Error): number | undefined {
  const m = /Unexpected server response: (\d{3})/.exec(err.message);
  return m ? Number(m[1]) : undefined;
}

function describeLoss(err: Error | undefined, code: number, reason: string): string {
  if (err) {
    const status = httpStatusOf(err);
    if (status !== undefined) return `HTTP ${status}`;
    return (err as NodeJS.ErrnoException).code ?? err.message;
  }
  if (code === 1001) return reason || 'the node is stopping';
  return reason ? `closed (${code}: ${reason})` : `connection lost (${code})`;
}

const KNOWN_TYPES = new Set<string>(NODE_STREAM_EVENT_TYPES);

/** One message as an event, or undefined for what this client cannot read (not JSON, an unknown type). */
function parseEvent(text: string): NodeStreamEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, at } = value as { type?: unknown; at?: unknown };
  if (typeof type !== 'string' || !KNOWN_TYPES.has(type) || typeof at !== 'number') return undefined;
  return value as NodeStreamEvent;
}
