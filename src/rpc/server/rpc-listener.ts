import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createGzip, gzip } from 'node:zlib';
import type { Logger } from 'pino';
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, RpcError, rpcErrors } from '../errors.js';
import type { Listener } from '../rpc-method.js';
import type { AdminAuthenticator } from './admin-authenticator.js';
import { BatchAnswer, JsonText } from './batch-answer.js';
import { errorResponse, type MethodDispatcher } from './method-dispatcher.js';
import { type RpcRequestHeaders, readRpcRequestHeaders } from './request-headers.js';

// node:http through process.getBuiltinModule, not an `import`: an ESM import of node:http reads every export of
// the module, and its lazy `WebSocket` getter loads undici (Node's fetch), a large part of a dev start's time to
// its first /status answer (bench/startup) for code the listener never uses.
const { createServer, STATUS_CODES } = process.getBuiltinModule('node:http');

/**
 * What GET /status (liveness: 200 while the node serves, 503 while it starts or stops) and GET /ready
 * (readiness: 200 only while it is also `ready`, 503 otherwise) answer, with the same body.
 */
export interface StatusReport {
  readonly serving: boolean;
  /** Serving and following the chain (not paused, not behind, storage writable): readiness probes route on it. */
  readonly ready: boolean;
  readonly body: Readonly<Record<string, unknown>>;
}

export interface RpcListenerOptions {
  readonly listener: Listener;
  readonly host: string;
  readonly port: number;
  /** Largest request body in bytes; larger ones get HTTP 413. */
  readonly maxBodySize: number;
  /** Most requests one connection may have in flight (pipelined); more get HTTP 429. */
  readonly maxRequestsPerConnection: number;
  readonly dispatcher: MethodDispatcher;
  /** Sent on every response except the 401 (version headers). */
  readonly headers: readonly (readonly [string, string])[];
  /** Access-Control-Allow-Origin for browsers; unset means no CORS (the admin listener). */
  readonly corsOrigin?: string;
  /** Set when the listener requires the admin API key. */
  readonly auth?: AdminAuthenticator;
  readonly status: () => StatusReport;
  /** A WebSocket endpoint (the admin event stream): upgrade requests to `path` that passed `auth` go to `handle`. */
  readonly upgrade?: {
    readonly path: string;
    readonly handle: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  };
  readonly log: Logger;
}

/** Answers longer than this (in characters) are gzipped for clients that accept it, and carry `Vary`. */
export const GZIP_THRESHOLD = 1024;
/** A body past the limit is read and thrown away up to here (so the client sees the 413), then cut off. */
const DRAIN_LIMIT = 64 * 1024 * 1024;
/**
 * An idle keep-alive connection is closed after this long (announced in `Keep-Alive: timeout=60`). Node's default
 * of 5 s raced with busy clients: one that sends its next request on a connection the node closes at that moment
 * sees a reset, not an answer (the 10-minute soak of bench/hostile lost a request that way about every 10 s on a
 * loaded machine, none with 60 s). Idle connections cost the node a socket each, as they did already for the 60 s
 * a client may take to send a request's headers.
 */
const KEEP_ALIVE_MS = 60_000;
/** In-flight requests get this long to finish when the listener stops; then their connections are closed. */
const STOP_GRACE_MS = 2000;
const UNAUTHORIZED_BODY = JSON.stringify(errorResponse(rpcErrors.unauthorized()));
const FLAGS: Record<Listener, string> = { public: '--host/--port', admin: '--admin-host/--admin-port' };

/**
 * One HTTP listener of the node (node:http; jayson does the JSON-RPC part through the dispatcher).
 * Routes: POST / (JSON-RPC), GET|HEAD /status (health), OPTIONS for CORS preflights; 405 for other verbs
 * on those paths and 404 elsewhere. Everything per request that can be computed once is computed here.
 */
export class RpcListener {
  private readonly server: Server;
  private readonly jsonHeaders: string[];
  private readonly closingHeaders: string[];
  private readonly corsHeaders: string[];
  /** Requests in flight per connection (--rpc-max-requests-per-connection). */
  private readonly inFlight = new WeakMap<Socket, number>();
  private closing = false;
  private boundUrl: string | undefined;

  constructor(private readonly options: RpcListenerOptions) {
    this.jsonHeaders = jsonResponseHeaders(options.headers);
    this.closingHeaders = [...this.jsonHeaders, 'connection', 'close'];
    // CORS headers go to CORS requests only: browsers send Origin with every cross-origin request (and every
    // POST); other clients have no use for them, and each header costs CPU on every answer (bench/rpc).
    this.corsHeaders = options.corsOrigin
      ? [
          'access-control-allow-origin',
          options.corsOrigin,
          'access-control-expose-headers',
          options.headers.map(([k]) => k).join(', ') || 'content-length',
        ]
      : [];
    this.server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS }, (req, res) => this.onRequest(req, res));
    if (options.upgrade) this.server.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket, head));
  }

  get url(): string {
    if (!this.boundUrl) throw new Error(`The ${this.options.listener} listener is not started`);
    return this.boundUrl;
  }

  async start(): Promise<void> {
    const { host, port, listener } = this.options;
    await new Promise<void>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        const why = err.code === 'EADDRINUSE' ? 'address already in use' : err.message;
        reject(new Error(`the ${listener} RPC listener cannot listen on ${host}:${port} (${FLAGS[listener]}): ${why}`));
      };
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.boundUrl = `http://${shownHost}:${address.port}`;
    this.server.on('error', (err) => this.options.log.error({ err }, `${listener} listener error`));
  }

  async stop(): Promise<void> {
    if (!this.server.listening) return;
    this.closing = true;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => this.server.closeAllConnections(), STOP_GRACE_MS);
      force.unref();
      this.server.close(() => {
        clearTimeout(force);
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    try {
      this.route(req, res);
    } catch (err) {
      // Nothing may take the server down: a bug in routing still gets an answer.
      this.failed(err, 'routing a request', readRpcRequestHeaders(req), res, 500);
    }
  }

  /**
   * An upgrade request (WebSocket): the same key rule as every other request, checked before the handshake, so
   * a refused client gets a plain HTTP 401 and never a socket.
   */
  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => {
      // The client went away during the handshake: nothing to answer.
    });
    const upgrade = this.options.upgrade;
    try {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      if (this.options.auth && !this.options.auth.accepts(req.headers)) {
        this.options.log.warn(
          { remoteAddress: req.socket.remoteAddress, method: req.method, path: withoutQuery(req.url) },
          'admin event stream refused: invalid or missing API key',
        );
        rawResponse(socket, 401, UNAUTHORIZED_BODY, ['WWW-Authenticate: Bearer realm="l2node admin"']);
      } else if (!upgrade || path !== upgrade.path || req.method !== 'GET') {
        const body = JSON.stringify(
          errorResponse(
            new RpcError(INVALID_REQUEST, `Not Found: the event stream is served with GET ${upgrade?.path}`),
          ),
        );
        rawResponse(socket, 404, body);
      } else if (this.closing) {
        rawResponse(socket, 503, JSON.stringify(errorResponse(new RpcError(INVALID_REQUEST, 'The node is stopping'))));
      } else {
        upgrade.handle(req, socket, head);
      }
    } catch (err) {
      this.options.log.error({ err }, 'unexpected error while upgrading a connection');
      socket.destroy();
    }
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const method = req.method;
    // GET /status is the only request that needs no key (spec part 5); /ready is its readiness twin.
    const health = path === '/status' || path === '/ready';
    if (this.options.auth && !(method === 'GET' && health) && !this.options.auth.accepts(req.headers)) {
      this.unauthorized(req, res);
      return;
    }
    if (path === '/') {
      if (method === 'POST') this.post(req, res);
      else if (method === 'OPTIONS' && this.options.corsOrigin) this.preflight(req, res);
      else this.refuse(req, res, 405, 'Method Not Allowed: send JSON-RPC requests with POST to /', 'POST');
      return;
    }
    if (health) {
      if (method === 'GET' || method === 'HEAD') this.status(req, res, method === 'HEAD', path === '/ready');
      else if (method === 'OPTIONS' && this.options.corsOrigin) this.preflight(req, res);
      else this.refuse(req, res, 405, `Method Not Allowed: ${path} answers GET and HEAD`, 'GET, HEAD');
      return;
    }
    this.refuse(
      req,
      res,
      404,
      'Not Found: JSON-RPC is served with POST /, liveness with GET /status, readiness with GET /ready',
    );
  }

  private post(req: IncomingMessage, res: ServerResponse): void {
    const headers = readRpcRequestHeaders(req);
    const contentType = headers.contentType;
    if (!isJsonContentType(contentType)) {
      const got = contentType ? `"${contentType.slice(0, 60)}"` : 'none';
      this.sendJson(
        headers,
        res,
        200,
        errorResponse(rpcErrors.invalidRequest(`Content-Type must be application/json, got ${got}`)),
      );
      return;
    }
    if (!this.admit(req, res)) {
      const limit = this.options.maxRequestsPerConnection;
      const error = rpcErrors.limitExceeded(
        `more than ${limit} requests in flight on one connection (--rpc-max-requests-per-connection): wait for answers before sending more`,
        '--rpc-max-requests-per-connection',
        limit,
      );
      this.sendJson(headers, res, 429, errorResponse(error));
      return;
    }
    const max = this.options.maxBodySize;
    const declared = Number(headers.contentLength);
    if (declared > DRAIN_LIMIT) {
      this.tooLarge(req, headers, res, true);
      return;
    }
    // A body past the limit is still read (and dropped) so that the client gets to read the 413.
    let refused = declared > max;
    let answered = false;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (refused) {
        if (size > DRAIN_LIMIT && !answered) {
          answered = true;
          this.tooLarge(req, headers, res, true);
        }
        return;
      }
      if (size > max) {
        refused = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (answered) return;
      answered = true;
      if (refused) this.tooLarge(req, headers, res, false);
      else this.answer(headers, res, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    });
    req.on('error', () => {
      // The client went away mid-body: there is no one to answer.
    });
  }

  /** Counts a request against its connection's cap until its response is done; false when over the cap. */
  private admit(req: IncomingMessage, res: ServerResponse): boolean {
    const socket = req.socket;
    const count = this.inFlight.get(socket) ?? 0;
    if (count >= this.options.maxRequestsPerConnection) return false;
    this.inFlight.set(socket, count + 1);
    // Done when the answer is written ('finish') or the connection went away first ('close'): whichever comes first.
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      this.inFlight.set(socket, (this.inFlight.get(socket) ?? 1) - 1);
    };
    res.once('finish', release);
    res.once('close', release);
    return true;
  }

  private answer(headers: RpcRequestHeaders, res: ServerResponse, raw: Buffer): void {
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      this.sendJson(
        headers,
        res,
        200,
        errorResponse(new RpcError(PARSE_ERROR, `Parse error: ${(err as Error).message}`)),
      );
      return;
    }
    // `reply` runs inside the handler's promise reaction: it must not throw (that would be an unhandled rejection).
    const reply = (response: JsonText | BatchAnswer | undefined) => {
      try {
        if (response === undefined) this.sendEmpty(headers, res, 204);
        else this.sendJson(headers, res, 200, response);
      } catch (err) {
        this.failed(err, 'answering a request', headers, res, 200);
      }
    };
    try {
      this.options.dispatcher.dispatch(body, reply);
    } catch (err) {
      this.failed(err, 'dispatching a request', headers, res, 200);
    }
  }

  private status(req: IncomingMessage, res: ServerResponse, headOnly: boolean, readiness: boolean): void {
    const report = this.options.status();
    const ok = readiness ? report.serving && report.ready : report.serving;
    const text = JSON.stringify(report.body);
    const headers = [
      ...this.baseHeaders(readRpcRequestHeaders(req)),
      'content-length',
      String(Buffer.byteLength(text)),
      'cache-control',
      'no-store',
    ];
    res.writeHead(ok ? 200 : 503, headers);
    res.end(headOnly ? undefined : text);
  }

  private preflight(req: IncomingMessage, res: ServerResponse): void {
    const requested = req.headers['access-control-request-headers'];
    res.writeHead(204, [
      'access-control-allow-origin',
      this.options.corsOrigin as string,
      'access-control-allow-methods',
      'POST, GET, HEAD, OPTIONS',
      'access-control-allow-headers',
      typeof requested === 'string' && requested.length > 0 ? requested : 'content-type',
      'access-control-max-age',
      '86400',
      ...this.options.headers.flat(),
    ]);
    res.end();
  }

  private unauthorized(req: IncomingMessage, res: ServerResponse): void {
    this.options.log.warn(
      { remoteAddress: req.socket.remoteAddress, method: req.method, path: withoutQuery(req.url) },
      'admin request refused: invalid or missing API key',
    );
    res.writeHead(401, [
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      String(UNAUTHORIZED_BODY.length),
      'www-authenticate',
      'Bearer realm="l2node admin"',
    ]);
    res.end(UNAUTHORIZED_BODY);
  }

  private tooLarge(req: IncomingMessage, headers: RpcRequestHeaders, res: ServerResponse, cutOff: boolean): void {
    const max = this.options.maxBodySize;
    const error = rpcErrors.invalidRequest(
      `request body too large: the limit is ${max} bytes (--rpc-max-body-size); split the batch or raise the limit`,
    );
    if (cutOff) res.once('finish', () => req.destroy());
    this.sendJson(headers, res, 413, errorResponse(error), cutOff);
  }

  private refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string, allow?: string): void {
    const body = JSON.stringify(errorResponse(new RpcError(INVALID_REQUEST, message)));
    const headers = [
      ...this.baseHeaders(readRpcRequestHeaders(req)),
      'content-length',
      String(Buffer.byteLength(body)),
    ];
    if (allow) headers.push('allow', allow);
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /**
   * The last resort when serving a request threw: an internal error if nothing was sent yet, else the connection
   * is cut. Never throws.
   */
  private failed(err: unknown, what: string, headers: RpcRequestHeaders, res: ServerResponse, status: number): void {
    this.options.log.error({ err }, `unexpected error while ${what}`);
    try {
      if (!res.headersSent) {
        this.sendJson(headers, res, status, errorResponse(new RpcError(INTERNAL_ERROR, 'Internal error')));
        return;
      }
    } catch {
      // Even the error answer failed: cutting the connection is all that is left.
    }
    res.destroy();
  }

  private sendEmpty(request: RpcRequestHeaders, res: ServerResponse, status: number): void {
    res.writeHead(status, this.baseHeaders(request));
    res.end();
  }

  /** The headers every answer to this request carries; CORS ones only for a browser's (CORS) request. */
  private baseHeaders(request: RpcRequestHeaders, close = false): string[] {
    const base = this.closing || close ? this.closingHeaders : this.jsonHeaders;
    return this.corsHeaders.length > 0 && request.origin !== undefined ? base.concat(this.corsHeaders) : base;
  }

  private sendJson(
    headers: RpcRequestHeaders,
    res: ServerResponse,
    status: number,
    value: unknown,
    close = false,
  ): void {
    const base = this.baseHeaders(headers, close);
    if (value instanceof BatchAnswer) {
      this.sendBatch(headers, res, status, value, base);
      return;
    }
    // The dispatcher's answers come serialised (it measures them against the response budget); the listener's own
    // refusals are plain objects.
    const text = value instanceof JsonText ? value.text : JSON.stringify(value);
    if (text.length <= GZIP_THRESHOLD) {
      writeText(res, status, base, text);
      return;
    }
    // Only an answer long enough to be compressed depends on Accept-Encoding, so only it says so.
    const varying = [...base, 'vary', 'Accept-Encoding'];
    if (!acceptsGzip(headers.acceptEncoding)) {
      writeText(res, status, varying, text);
      return;
    }
    gzip(text, (err, zipped) => {
      if (err) {
        writeText(res, status, varying, text);
        return;
      }
      res.writeHead(status, [...varying, 'content-encoding', 'gzip', 'content-length', String(zipped.length)]);
      res.end(zipped);
    });
  }

  /**
   * A big batch answer, written as its members answer (BatchAnswer): in chunked encoding (its length is not known
   * before its end), plain or through a gzip stream (compressed off the event loop).
   */
  private sendBatch(
    headers: RpcRequestHeaders,
    res: ServerResponse,
    status: number,
    answer: BatchAnswer,
    base: readonly string[],
  ): void {
    const varying = [...base, 'vary', 'Accept-Encoding'];
    if (!acceptsGzip(headers.acceptEncoding)) {
      res.writeHead(status, varying);
      answer.writeTo(res);
      return;
    }
    res.writeHead(status, [...varying, 'content-encoding', 'gzip']);
    const zip = createGzip();
    zip.on('error', () => res.destroy());
    res.once('close', () => zip.destroy());
    zip.pipe(res);
    answer.writeTo(zip);
  }
}

/**
 * A request path for the log, its query string replaced: a client may put a key there (`/?x-api-key=...`), and
 * the node never accepts one from there anyway.
 */
export function withoutQuery(url: string | undefined): string {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q === -1 ? u : `${u.slice(0, q)}?<redacted>`;
}

/** Writes an uncompressed text answer with its length. */
function writeText(res: ServerResponse, status: number, headers: readonly string[], text: string): void {
  res.writeHead(status, [...headers, 'content-length', String(Buffer.byteLength(text))]);
  res.end(text);
}

/**
 * The headers every JSON answer of a listener carries, as a flat name/value list: the content type and the
 * version headers (spec part 1). Computed once per listener: each header costs CPU on every response.
 */
export function jsonResponseHeaders(versionHeaders: readonly (readonly [string, string])[]): string[] {
  return ['content-type', 'application/json; charset=utf-8', ...versionHeaders.flat()];
}

/** An HTTP response written straight on the socket of an upgrade request, which has no ServerResponse. */
function rawResponse(socket: Duplex, status: number, body: string, headers: readonly string[] = []): void {
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...headers,
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const semi = value.indexOf(';');
  const mime = (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
  return mime === 'application/json';
}

/** True when Accept-Encoding lists gzip (or *) without q=0. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}
