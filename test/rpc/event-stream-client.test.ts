import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EventStreamClient,
  type EventStreamState,
  eventStreamUrl,
  readSnapshot,
} from '../../src/rpc/client/event-stream-client.js';
import { RpcClientError } from '../../src/rpc/client/rpc-client-error.js';
import type { NodeStreamEvent } from '../../src/rpc/node-stream-event.js';
import { EventStream } from '../../src/rpc/server/event-stream.js';
import { blockEvent, sampleSnapshot, T0 } from '../helpers/stream-fixtures.js';
import { untilTrue } from '../helpers/until.js';

/**
 * The event stream client against a real stream server that the test stops and starts again on the same port:
 * it says when it reconnects (attempt n), comes back with a fresh snapshot, and gives up only on a refused key.
 */
const log = pino({ level: 'silent' });
const KEY = 'k'.repeat(64);

interface TestNode {
  readonly adminUrl: string;
  emit(event: NodeStreamEvent): void;
  stop(): Promise<void>;
}

const running = new Set<TestNode>();
afterEach(async () => {
  await Promise.all([...running].map((n) => n.stop()));
});

/** A stream server on `port` (0: any) that wants `KEY` as x-api-key. */
async function startNode(port = 0, snapshotBlock = 12): Promise<TestNode> {
  const listeners = new Set<(e: NodeStreamEvent) => void>();
  const stream = new EventStream({
    feed: {
      snapshot: () =>
        sampleSnapshot({ tips: { ...sampleSnapshot().tips, proposed: { number: snapshotBlock, hash: '0x' } } }),
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
    log,
  });
  const server: Server = createServer();
  server.on('upgrade', (req, socket, head) => {
    if (req.headers['x-api-key'] !== KEY) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    stream.handleUpgrade(req, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  stream.start();
  const node: TestNode = {
    adminUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    emit: (e) => {
      for (const l of listeners) l(e);
    },
    stop: async () => {
      running.delete(node);
      await stream.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  running.add(node);
  return node;
}

const POLL = { timeoutMs: 10_000, intervalMs: 5 } as const;

describe('eventStreamUrl', () => {
  it('maps the admin URL to ws(s)://host:port/events', () => {
    expect(eventStreamUrl('http://127.0.0.1:8880')).toBe('ws://127.0.0.1:8880/events');
    expect(eventStreamUrl('https://node.example/admin/')).toBe('wss://node.example/admin/events');
    expect(() => eventStreamUrl('ftp://x')).toThrow('must start with http:// or https://');
    expect(() => eventStreamUrl('not a url')).toThrow('is not a URL');
  });
});

describe('EventStreamClient', () => {
  it('reconnects with a growing delay while the node is down, then starts again from a snapshot', async () => {
    const node = await startNode();
    const client = new EventStreamClient({ adminUrl: node.adminUrl, apiKey: KEY, minDelayMs: 20, maxDelayMs: 80 });
    const states: EventStreamState[] = [];
    const events: NodeStreamEvent[] = [];
    client.onState((s) => states.push(s));
    client.onEvent((e) => events.push(e));
    client.start();
    await untilTrue('the first snapshot', () => events.length === 1, POLL);
    node.emit(blockEvent(13, T0 + 1));
    await untilTrue('a block event', () => events.length === 2, POLL);

    const port = Number(new URL(node.adminUrl).port);
    await node.stop();
    await untilTrue(
      'three reconnection attempts while the node is down',
      () => states.filter((s) => s.status === 'reconnecting').length >= 3,
      POLL,
    );
    const attempts = states.flatMap((s) => (s.status === 'reconnecting' ? [s] : []));
    expect(attempts.slice(0, 3).map((s) => s.attempt)).toEqual([1, 2, 3]);
    expect(attempts.slice(0, 3).map((s) => s.delayMs)).toEqual([20, 40, 80]);
    expect(attempts[0]?.reason).toBe('the node is stopping');
    expect(attempts[1]?.reason).toBe('ECONNREFUSED');

    await startNode(port, 20);
    await untilTrue(
      'the snapshot after the restart',
      () => client.state.status === 'open' && events.length === 3,
      POLL,
    );
    expect(events.map((e) => e.type)).toEqual(['snapshot', 'block', 'snapshot']);
    expect((events[2] as { tips: { proposed: { number: number } } }).tips.proposed.number).toBe(20);
    client.close();
    expect(client.state.status).toBe('closed');
  });

  it('stops on a refused key instead of retrying', async () => {
    const node = await startNode();
    const client = new EventStreamClient({ adminUrl: node.adminUrl, apiKey: 'wrong', minDelayMs: 10 });
    client.start();
    await untilTrue('the refusal', () => client.state.status === 'unauthorized', POLL);
    expect(client.state).toMatchObject({ reason: expect.stringContaining('HTTP 401: wrong key') });
    await new Promise((r) => setTimeout(r, 100));
    expect(client.state.status).toBe('unauthorized');
    client.close();
  });
});

describe('readSnapshot', () => {
  it('resolves with the first message, the snapshot', async () => {
    const node = await startNode();
    expect(await readSnapshot({ adminUrl: node.adminUrl, apiKey: KEY, timeoutMs: 5000 })).toMatchObject({
      type: 'snapshot',
      production: { state: 'synced' },
    });
  });

  it('fails as unauthorized on a refused key, and as unreachable without a node', async () => {
    const node = await startNode();
    const refused = await readSnapshot({ adminUrl: node.adminUrl, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RpcClientError);
    expect(refused).toMatchObject({ kind: 'unauthorized', message: expect.stringContaining('no key given') });
    const port = Number(new URL(node.adminUrl).port);
    await node.stop();
    const down = await readSnapshot({ adminUrl: `http://127.0.0.1:${port}`, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(down).toMatchObject({ kind: 'unreachable', message: expect.stringContaining('ECONNREFUSED') });
  });
});
