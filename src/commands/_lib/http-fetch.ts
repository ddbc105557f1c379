import type { IncomingMessage } from 'node:http';

// node:http through process.getBuiltinModule, not an `import`: an ESM import of node:http reads every export of
// the module, and its lazy `WebSocket` getter loads undici (~60 ms of CPU on a loaded machine), the very cost this
// file exists to avoid. node:https, imported only for an https:// URL, pays it then.
const { request: httpRequest } = process.getBuiltinModule('node:http');

/**
 * The part of `fetch` the RPC client uses (one request, status, headers, text), over node:http. A command
 * makes a handful of calls and exits: global fetch would first load undici, ~35 ms of every command's start-up
 * (bench/cli). Failures look like fetch's: a connection error as the `cause` of a TypeError, a timeout or abort
 * as the signal's reason (a TimeoutError DOMException), so RpcClient reports them the same way.
 */
export const httpFetch: typeof globalThis.fetch = async (input, init) => {
  // Neither Request nor Headers is touched: the first use of either global loads undici too.
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const request =
    url.protocol === 'https:'
      ? (await import('node:https')).request
      : url.protocol === 'http:'
        ? httpRequest
        : undefined;
  if (!request) throw new TypeError(`unsupported URL protocol ${url.protocol}`);
  const signal = init?.signal ?? undefined;
  signal?.throwIfAborted();
  const headers = plainHeaders(init?.headers);
  const body = typeof init?.body === 'string' ? init.body : undefined;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise<Response>((resolve, reject) => {
    // agent: false: one connection per call, closed after it, so no idle socket keeps the process alive.
    const req = request(url, { method: init?.method ?? 'GET', headers, agent: false }, (res) => {
      readAll(res).then((text) => resolve(minimalResponse(res, text)), reject);
    });
    const onAbort = () => req.destroy(signal?.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: err }));
    });
    req.once('close', () => signal?.removeEventListener('abort', onAbort));
    req.end(body);
  });
};

function plainHeaders(init: RequestInit['headers']): Record<string, string> {
  if (init === undefined) return {};
  if (Array.isArray(init)) return Object.fromEntries(init);
  if (typeof (init as Headers).entries === 'function') return Object.fromEntries((init as Headers).entries());
  return { ...(init as Record<string, string>) };
}

function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.once('error', reject);
  });
}

/** The members of a Response that the RPC client and NodeConnection read; `Headers.get` is case-insensitive. */
function minimalResponse(res: IncomingMessage, text: string): Response {
  const status = res.statusCode ?? 0;
  const headers = {
    get: (name: string): string | null => {
      const v = res.headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
  };
  return {
    status,
    ok: status >= 200 && status < 300,
    headers,
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  } as unknown as Response;
}
