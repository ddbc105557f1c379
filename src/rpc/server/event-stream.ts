import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';
import type { NodeStreamEvent, SnapshotEvent } from '../node-stream-event.js';

/** What the stream needs from the node: a snapshot for each new client, then every change. */
export interface EventFeed {
  /** The node's state now, sent first on every connection. */
  snapshot(): SnapshotEvent;
  /** Calls `listener` with every event from now on; returns the unsubscribe. */
  subscribe(listener: (event: NodeStreamEvent) => void): () => void;
}

export interface EventStreamOptions {
  readonly feed: EventFeed;
  /** A client with more than this many bytes queued and unsent is dropped (default 1 MiB). */
  readonly maxBufferedBytes?: number;
  /** How often clients are pinged; one that has not answered the previous ping by the next is dropped (default 15 s). */
  readonly pingIntervalMs?: number;
  /** Most clients at once; more are refused with close code 1013 (default 64). */
  readonly maxClients?: number;
  readonly log: Logger;
}

const DEFAULT_MAX_BUFFERED = 1024 * 1024;
const DEFAULT_PING_MS = 15_000;
const DEFAULT_MAX_CLIENTS = 64;
/** Clients get this long to answer the close frame when the node stops; then their sockets are cut. */
const CLOSE_GRACE_MS = 500;

interface Client {
  alive: boolean;
  readonly remote: string | undefined;
}

/**
 * The admin listener's event stream (WebSocket on `/events`, docs/dashboard.md): every client gets a snapshot
 * of the node, then each event of the feed as one JSON text message. The RPC listener authenticates the upgrade
 * request before handing it here. The node never waits for a client: each event is serialised once and queued
 * on every socket, and a client whose queue grows past `maxBufferedBytes` (it reads too slowly) is dropped. Pings
 * find clients that went away without closing.
 */
export class EventStream {
  /**
   * Made with the first `GET /events`: ws (with node:https and node:tls behind it) is a sizeable part of a start's
   * module loading (bench/startup), and most nodes never serve a dashboard.
   */
  private wss: Promise<WebSocketServer> | undefined;
  private readonly clients = new Map<WebSocket, Client>();
  private readonly maxBuffered: number;
  private unsubscribe: (() => void) | undefined;
  private pinger: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(private readonly options: EventStreamOptions) {
    this.maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED;
  }

  /** Clients connected now. */
  get clientCount(): number {
    return this.clients.size;
  }

  /** Subscribes to the feed (once the node's services run) and starts the keepalive. */
  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.options.feed.subscribe((event) => this.broadcast(event));
    this.pinger = setInterval(() => this.ping(), this.options.pingIntervalMs ?? DEFAULT_PING_MS);
    this.pinger.unref();
  }

  /** Completes the WebSocket handshake of an authenticated `GET /events` and starts sending. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss ??= import('ws').then(
      ({ WebSocketServer }) => new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 4096 }),
    );
    this.wss.then(
      (wss) => {
        // The client may have gone while ws loaded.
        if (socket.destroyed) return;
        wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req));
      },
      (err: Error) => {
        this.options.log.error({ err: err.message }, `event stream unavailable: ${err.message}`);
        socket.destroy();
      },
    );
  }

  /** Closes every connection (code 1001, going away) and stops; resolves once all sockets are gone. */
  async close(): Promise<void> {
    this.closing = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.pinger);
    const open = [...this.clients.keys()];
    await Promise.all(
      open.map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) return resolve();
            const cut = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
            ws.once('close', () => {
              clearTimeout(cut);
              resolve();
            });
            ws.close(1001, 'the node is stopping');
          }),
      ),
    );
    this.clients.clear();
  }

  private accept(ws: WebSocket, req: IncomingMessage): void {
    const { log, feed } = this.options;
    const remote = req.socket.remoteAddress;
    ws.on('error', (err) => log.debug({ err, remote }, 'event stream socket error'));
    if (this.closing) {
      ws.close(1001, 'the node is stopping');
      return;
    }
    if (this.clients.size >= (this.options.maxClients ?? DEFAULT_MAX_CLIENTS)) {
      log.warn({ remote, clients: this.clients.size }, 'event stream client refused: too many clients');
      ws.close(1013, 'too many event stream clients; try again later');
      return;
    }
    let snapshot: SnapshotEvent;
    try {
      snapshot = feed.snapshot();
    } catch (err) {
      log.error({ err }, 'the event stream could not take a snapshot of the node');
      ws.close(1011, 'the node could not describe its state; see its log');
      return;
    }
    const client: Client = { alive: true, remote };
    this.clients.set(ws, client);
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('close', () => this.clients.delete(ws));
    // Clients have nothing to say on this stream; what they send is ignored (and capped by maxPayload).
    ws.on('message', () => {});
    log.debug({ remote, clients: this.clients.size }, 'event stream client connected');
    // Sent in the same tick as the registration: no event can fall between the snapshot and the stream.
    this.send(ws, client, JSON.stringify(snapshot));
  }

  private broadcast(event: NodeStreamEvent): void {
    if (this.clients.size === 0) return;
    const text = JSON.stringify(event);
    for (const [ws, client] of this.clients) this.send(ws, client, text);
  }

  private send(ws: WebSocket, client: Client, text: string): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > this.maxBuffered) {
      this.options.log.warn(
        { remote: client.remote, bufferedBytes: ws.bufferedAmount, maxBufferedBytes: this.maxBuffered },
        'event stream client dropped: it reads more slowly than the node sends',
      );
      this.clients.delete(ws);
      ws.terminate();
      return;
    }
    ws.send(text);
  }

  private ping(): void {
    for (const [ws, client] of this.clients) {
      if (!client.alive) {
        this.options.log.info({ remote: client.remote }, 'event stream client dropped: no answer to the last ping');
        this.clients.delete(ws);
        ws.terminate();
        continue;
      }
      client.alive = false;
      ws.ping();
    }
  }
}
