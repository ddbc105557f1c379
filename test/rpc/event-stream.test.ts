import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { NodeStreamEvent, SnapshotEvent } from '../../src/rpc/node-stream-event.js';
import { hashAdminApiKey } from '../../src/rpc/server/admin-api-key.js';
import { type EventFeed, EventStream } from '../../src/rpc/server/event-stream.js';
import { RpcService } from '../../src/rpc/server/rpc-service.js';
import { rpcServiceOptions } from '../helpers/rpc-service-options.js';
import { blockEvent, sampleSnapshot, T0 } from '../helpers/stream-fixtures.js';
import { testHandlers } from '../helpers/test-handlers.js';
import { untilTrue } from '../helpers/until.js';

/**
 * The admin listener's event stream in-process (RpcService with an API key, a feed the test drives): the key
 * is checked before the WebSocket handshake, a snapshot comes first, a slow reader is dropped while the node
 * goes on, and a client that stops answering pings is cut.
 */
const KEY = 'a'.repeat(64);
const logLines: { msg?: string; [k: string]: unknown }[] = [];
const log = pino(
  { level: 'debug' },
  new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) logLines.push(JSON.parse(line));
      done();
    },
  }),
);

class TestFeed implements EventFeed {
  readonly listeners = new Set<(e: NodeStreamEvent) => void>();
  snapshot(): SnapshotEvent {
    return sampleSnapshot();
  }
  subscribe(listener: (e: NodeStreamEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(event: NodeStreamEvent): void {
    for (const l of this.listeners) l(event);
  }
}

const feed = new TestFeed();
let service: RpcService;
let eventsUrl: string;

beforeAll(async () => {
  service = new RpcService(
    rpcServiceOptions({
      adminApiKeyHash: hashAdminApiKey(KEY).toString('hex'),
      disableAdminApiKey: false,
      handlers: testHandlers({}),
      events: feed,
      log,
    }),
  );
  await service.start();
  eventsUrl = `${service.adminUrl.replace('http:', 'ws:')}/events`;
});
afterAll(async () => {
  await service?.stop();
});

/** An upgrade request by hand: the HTTP answer when refused, the raw socket when switched. */
function upgrade(
  url: string,
  headers: Record<string, string>,
): Promise<{ kind: 'refused'; status: number; body: string } | { kind: 'switched'; status: 101; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = request(url.replace('ws:', 'http:'), {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-key': Buffer.from('0123456789abcdef').toString('base64'),
        'sec-websocket-version': '13',
        ...headers,
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ kind: 'refused', status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', (_res, socket) => resolve({ kind: 'switched', status: 101, socket }));
    req.on('error', reject);
    req.end();
  });
}

/** Opens a client and collects its messages. */
function connect(headers: Record<string, string>): Promise<{ ws: WebSocket; messages: NodeStreamEvent[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(eventsUrl, { headers });
    const messages: NodeStreamEvent[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    ws.once('open', () => resolve({ ws, messages }));
    ws.once('error', reject);
  });
}

const POLL = { timeoutMs: 10_000, intervalMs: 5 } as const;

describe('authentication at the upgrade', () => {
  it('refuses a missing key with HTTP 401 and the JSON-RPC body, before any handshake', async () => {
    const res = await upgrade(eventsUrl, {});
    expect(res.status).toBe(401);
    expect(JSON.parse((res as { body: string }).body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Unauthorized: invalid or missing API key', data: { code: 'UNAUTHORIZED' } },
    });
    expect(logLines.some((l) => l.msg === 'admin event stream refused: invalid or missing API key')).toBe(true);
  });

  it('refuses a wrong key in either header', async () => {
    expect((await upgrade(eventsUrl, { 'x-api-key': 'b'.repeat(64) })).status).toBe(401);
    expect((await upgrade(eventsUrl, { authorization: `Bearer ${'b'.repeat(64)}` })).status).toBe(401);
  });

  it('accepts the key as x-api-key or as Authorization: Bearer, and sends the snapshot first', async () => {
    const forms: Record<string, string>[] = [{ 'x-api-key': KEY }, { authorization: `Bearer ${KEY}` }];
    for (const headers of forms) {
      const { ws, messages } = await connect(headers);
      await untilTrue('the snapshot', () => messages.length > 0, POLL);
      expect(messages[0]).toEqual(sampleSnapshot());
      ws.close();
    }
  });

  it('keeps GET /status the only request without a key, and answers 404 for other upgrade paths', async () => {
    expect((await fetch(`${service.adminUrl}/status`)).status).toBe(200);
    expect((await upgrade(`${service.adminUrl}/other`, { 'x-api-key': KEY })).status).toBe(404);
  });

  it('serves no stream on the public listener', async () => {
    const ws = new WebSocket(`${service.publicUrl.replace('http:', 'ws:')}/events`);
    const failed = await new Promise<boolean>((resolve) => {
      ws.once('open', () => resolve(false));
      ws.once('error', () => resolve(true));
    });
    expect(failed).toBe(true);
  });
});

describe('streaming', () => {
  it('sends each feed event after the snapshot, in order', async () => {
    const { ws, messages } = await connect({ 'x-api-key': KEY });
    await untilTrue('the snapshot', () => messages.length === 1, POLL);
    feed.emit(blockEvent(13, T0 + 1000));
    feed.emit({
      type: 'paused',
      at: T0 + 1001,
      production: { state: 'paused', producer: 'sequencer', pausedBy: ['operator'], blockNumber: 13 },
    });
    await untilTrue('two events', () => messages.length === 3, POLL);
    expect(messages.map((m) => m.type)).toEqual(['snapshot', 'block', 'paused']);
    ws.close();
  });

  it('drops a client that does not read without slowing the node, and keeps serving the others', async () => {
    const slow = await upgrade(eventsUrl, { 'x-api-key': KEY });
    if (slow.kind !== 'switched') throw new Error(`upgrade refused: ${slow.status}`);
    slow.socket.pause(); // never reads: the server's queue for it can only grow
    const fast = await connect({ 'x-api-key': KEY });
    await untilTrue('the fast client snapshot', () => fast.messages.length === 1, POLL);
    const big = 'x'.repeat(64 * 1024);
    const count = 400; // about 26 MB: far past the kernel's socket buffers and the 1 MiB limit
    let slowestEmitMs = 0;
    // In batches of 8 (512 KB) that the fast reader (in this same process) gets to read between batches; the
    // slow one reads nothing, so its queue passes the limit.
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      feed.emit({ type: 'config', at: T0 + i, changed: { i, big } });
      slowestEmitMs = Math.max(slowestEmitMs, performance.now() - started);
      if (i % 8 === 7) await untilTrue(`event ${i} at the fast client`, () => fast.messages.length === i + 2, POLL);
    }
    // Emitting never waits for a socket: each event is queued and the node moves on.
    expect(slowestEmitMs).toBeLessThan(250);
    await untilTrue(
      'the slow client to be dropped',
      () => logLines.some((l) => l.msg === 'event stream client dropped: it reads more slowly than the node sends'),
      POLL,
    );
    expect(fast.messages.length).toBe(count + 1);
    expect((fast.messages.at(-1) as unknown as { changed: { i: number } }).changed.i).toBe(count - 1);
    expect(fast.ws.readyState).toBe(WebSocket.OPEN);
    const closed = new Promise<void>((resolve) => slow.socket.once('close', () => resolve()));
    slow.socket.resume();
    await closed;
    fast.ws.close();
  });
});

describe('keepalive and stop', () => {
  let server: Server;
  let stream: EventStream;
  let url: string;

  beforeAll(async () => {
    stream = new EventStream({ feed: new TestFeed(), pingIntervalMs: 100, log });
    server = createServer();
    server.on('upgrade', (req, socket, head) => stream.handleUpgrade(req, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    stream.start();
  });
  afterAll(async () => {
    await stream.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('cuts a client that stops answering pings and keeps one that answers', async () => {
    const mute = new WebSocket(url, { autoPong: false });
    const lively = new WebSocket(url);
    await Promise.all([mute, lively].map((ws) => new Promise((r) => ws.once('open', r))));
    const muteClosed = new Promise<number>((resolve) => mute.once('close', (code) => resolve(code)));
    expect(await muteClosed).toBe(1006);
    expect(lively.readyState).toBe(WebSocket.OPEN);
    expect(stream.clientCount).toBe(1);
    lively.close();
  });

  it('closes its clients with 1001 when the node stops', async () => {
    const ws = new WebSocket(url);
    await new Promise((r) => ws.once('open', r));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await stream.close();
    expect(await closed).toBe(1001);
  });
});
