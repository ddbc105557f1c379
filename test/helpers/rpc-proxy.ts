/**
 * A JSON-RPC proxy on 127.0.0.1 for follower tests: it forwards every POST to a target node and lets the
 * test rewrite requests (e.g. cap a batch size), rewrite answers (e.g. change a note hash in a block), or hold
 * the answers of a method until released. Closed when the test file ends.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

export interface RpcCall {
  method: string;
  params: unknown[];
}

export interface RpcProxy {
  readonly url: string;
  /** Rewrites a request before it is forwarded (single requests and batch items). */
  rewriteRequest: ((call: RpcCall) => void) | undefined;
  /** Rewrites a result before it is answered. */
  rewriteResult: ((method: string, result: unknown) => unknown) | undefined;
  /** Every answer is held this long (ms) before it is sent: a slow upstream. */
  delayMs: number;
  /** Answers of these methods wait until `release()`. */
  hold(method: string): void;
  release(): void;
  /** How many calls of a method went through. */
  count(method: string): number;
  close(): Promise<void>;
}

const proxies = new Set<Server>();
afterAll(async () => {
  await Promise.all([...proxies].map(closeServer));
});

function closeServer(s: Server): Promise<void> {
  return new Promise<void>((r) => {
    s.close(() => r());
    s.closeAllConnections();
  });
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const held = new Set<string>();
  let waiting: (() => void)[] = [];
  const counts = new Map<string, number>();
  const proxy: RpcProxy = {
    url: '',
    rewriteRequest: undefined,
    rewriteResult: undefined,
    delayMs: 0,
    hold: (method) => {
      held.add(method);
    },
    release: () => {
      held.clear();
      for (const w of waiting) w();
      waiting = [];
    },
    count: (method) => counts.get(method) ?? 0,
    close: () => {
      proxy.release();
      return closeServer(server);
    },
  };
  const server = createServer((req, res) => {
    void (async () => {
      const body = JSON.parse(await read(req)) as Record<string, unknown> | Record<string, unknown>[];
      const calls = Array.isArray(body) ? body : [body];
      for (const c of calls) {
        const call = c as unknown as RpcCall;
        counts.set(call.method, (counts.get(call.method) ?? 0) + 1);
        proxy.rewriteRequest?.(call);
      }
      const upstream = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      let answer = (await upstream.json()) as Record<string, unknown> | Record<string, unknown>[];
      const answers = Array.isArray(answer) ? answer : [answer];
      for (const [i, a] of answers.entries()) {
        const method = (calls[i] as unknown as RpcCall | undefined)?.method ?? '';
        if ('result' in a && proxy.rewriteResult) a.result = proxy.rewriteResult(method, a.result);
        if (held.has(method)) await new Promise<void>((r) => waiting.push(r));
      }
      if (proxy.delayMs > 0) await new Promise((r) => setTimeout(r, proxy.delayMs));
      answer = Array.isArray(answer) ? answers : (answers[0] as Record<string, unknown>);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      for (const [k, v] of upstream.headers) if (k.startsWith('x-aztec-')) headers[k] = v;
      res.writeHead(upstream.status, headers);
      res.end(JSON.stringify(answer));
    })().catch((err: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  proxies.add(server);
  server.on('close', () => proxies.delete(server));
  (proxy as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      s += c;
    });
    req.on('end', () => resolve(s));
    req.on('error', reject);
  });
}
