import { METHOD_NOT_FOUND } from '../errors.js';
import { RPC_METHODS, type RpcMethodName, type RpcMethods } from '../method-table.js';
import type { ClientArgs, ParamsOf, ResultOf } from '../rpc-method.js';
import { RpcClientError } from './rpc-client-error.js';

export interface RpcClientOptions {
  /** Listener URL, e.g. http://127.0.0.1:8080 (public) or http://127.0.0.1:8880 (admin). */
  readonly url: string;
  /** Admin API key, sent as x-api-key. */
  readonly apiKey?: string;
  /** Per call; default 30 s. */
  readonly timeoutMs?: number;
  /** Largest answer read, in bytes; a larger one is cut off and the call fails. Unset: no limit. */
  readonly maxResponseSize?: number;
  readonly fetch?: typeof globalThis.fetch;
  /**
   * What a failure becomes for the caller (the CLI's command errors naming a flag, the follower's upstream
   * errors); unset, the RpcClientError itself is thrown.
   */
  readonly mapError?: (err: RpcClientError) => Error;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A JSON-RPC client of one listener, typed from the method table: `call('node_getBlockNumber')` returns
 * a number. Every failure is an RpcClientError whose message says what to do.
 */
export class RpcClient {
  readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly fetch: typeof globalThis.fetch;
  private readonly maxResponseSize: number | undefined;
  private readonly mapError: (err: RpcClientError) => Error;
  private nextId = 1;

  constructor(options: RpcClientOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (options.apiKey) this.headers['x-api-key'] = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.maxResponseSize = options.maxResponseSize;
    this.mapError = options.mapError ?? ((err) => err);
  }

  /** Calls a method of the table; the result is decoded (and checked) by the table's codec. */
  async call<N extends RpcMethodName>(
    method: N,
    ...params: ClientArgs<ParamsOf<RpcMethods[N]>>
  ): Promise<ResultOf<RpcMethods[N]>> {
    const json = await this.callRaw(method, params);
    try {
      return RPC_METHODS[method].result.decode(json) as ResultOf<RpcMethods[N]>;
    } catch (err) {
      throw this.mapError(
        new RpcClientError(
          'bad-response',
          `${this.url} answered ${method} with a result of the wrong shape (${(err as Error).message}): is it an l2node of another version?`,
        ),
      );
    }
  }

  /** Calls any method by name with JSON params and returns the result as parsed JSON (`l2node rpc`). */
  async callRaw(method: string, params: readonly unknown[]): Promise<unknown> {
    try {
      return await this.request(method, params);
    } catch (err) {
      throw err instanceof RpcClientError ? this.mapError(err) : err;
    }
  }

  private async request(method: string, params: readonly unknown[]): Promise<unknown> {
    const id = this.nextId++;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    let response: Response;
    try {
      response = await this.fetch(`${this.url}/`, {
        method: 'POST',
        headers: this.headers,
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw this.transportError(err, method);
    }
    const text = await this.readBody(response, method);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.status === 401) {
      throw new RpcClientError(
        'unauthorized',
        `${this.url} refused the admin API key (HTTP 401${this.headers['x-api-key'] ? ': wrong key' : ': no key given'}): ` +
          'run `l2node admin login` or pass --api-key',
        { httpStatus: 401, code: errorOf(parsed)?.code },
      );
    }
    const error = errorOf(parsed);
    if (response.status === 413) {
      throw new RpcClientError(
        'http',
        `the request to ${this.url} is larger than the node accepts (HTTP 413): send less at once, or raise --rpc-max-body-size on the node`,
        { httpStatus: 413, code: error?.code },
      );
    }
    if (!isObject(parsed)) {
      throw new RpcClientError(
        response.ok ? 'bad-response' : 'http',
        `${this.url} answered HTTP ${response.status} without a JSON-RPC body: is it the node's RPC address?`,
        { httpStatus: response.status },
      );
    }
    if (error) {
      const hint =
        error.code === METHOD_NOT_FOUND && error.message.startsWith('Method not found')
          ? ' (is the node older than this client, or is this the other listener?)'
          : '';
      throw new RpcClientError(response.ok ? 'rpc' : 'http', `${method} failed: ${error.message}${hint}`, {
        code: error.code,
        data: error.data,
        httpStatus: response.status,
        remoteMessage: error.message,
      });
    }
    if (!response.ok || parsed.id !== id || !('result' in parsed)) {
      throw new RpcClientError(
        'bad-response',
        `${this.url} answered ${method} with HTTP ${response.status} and no usable JSON-RPC result: is it the node's RPC address?`,
        { httpStatus: response.status },
      );
    }
    return parsed.result;
  }

  /** The answer's text, read no further than maxResponseSize: a huge answer must not take the memory with it. */
  private async readBody(response: Response, method: string): Promise<string> {
    const max = this.maxResponseSize;
    if (max === undefined || !response.body) return response.text().catch(() => '');
    const tooLarge = () =>
      new RpcClientError(
        'too-large',
        `${this.url} answered ${method} with more than ${max} bytes, the most this node reads from it`,
        { httpStatus: response.status },
      );
    if (Number(response.headers.get('content-length')) > max) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge();
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > max) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(value);
      }
    } catch (err) {
      if (err instanceof RpcClientError) throw err;
      return '';
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private transportError(err: unknown, method: string): RpcClientError {
    const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      return new RpcClientError(
        'timeout',
        `${this.url} did not answer ${method} within ${this.timeoutMs} ms: the node may be busy or stuck; check its log or raise --timeout`,
      );
    }
    const why = e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
    return new RpcClientError('unreachable', `cannot reach ${this.url} (${why}): is the node running at ${this.url}?`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function errorOf(parsed: unknown): { code: number; message: string; data?: unknown } | undefined {
  if (!isObject(parsed) || !isObject(parsed.error)) return undefined;
  const { code, message, data } = parsed.error;
  if (typeof code !== 'number' || typeof message !== 'string') return undefined;
  return { code, message, data };
}
