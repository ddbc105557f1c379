import { RpcClient } from '../../rpc/client/rpc-client.js';
import { RpcClientError } from '../../rpc/client/rpc-client-error.js';
import type { RpcMethodName, RpcMethods } from '../../rpc/method-table.js';
import type { ClientArgs, ParamsOf, ResultOf } from '../../rpc/rpc-method.js';
import { httpFetch } from './http-fetch.js';
import { type ListenerKind, rpcFailure } from './rpc-failure.js';

export interface NodeConnectionOptions {
  readonly url: string;
  readonly listener: ListenerKind;
  readonly apiKey?: string;
  readonly timeoutMs: number;
}

/**
 * One listener of a running node, as commands use it: the typed RPC client (src/rpc/client), whose failures
 * become command errors naming the right flag, and the response headers of the last answer (the node's
 * component versions travel there, docs/aztec-facts.md section 1.2).
 */
export class NodeConnection {
  readonly url: string;
  readonly listener: ListenerKind;
  private readonly client: RpcClient;
  #lastHeaders: Headers | undefined;

  constructor(options: NodeConnectionOptions) {
    this.url = options.url;
    this.listener = options.listener;
    this.client = new RpcClient({
      url: options.url,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs,
      fetch: async (input, init) => {
        const response = await httpFetch(input, init);
        this.#lastHeaders = response.headers;
        return response;
      },
    });
  }

  /** Headers of the last answer, e.g. `x-aztec-l2CircuitsVkTreeRoot`. */
  get lastHeaders(): Headers | undefined {
    return this.#lastHeaders;
  }

  async call<N extends RpcMethodName>(
    method: N,
    ...params: ClientArgs<ParamsOf<RpcMethods[N]>>
  ): Promise<ResultOf<RpcMethods[N]>> {
    try {
      return await this.client.call(method, ...params);
    } catch (err) {
      throw err instanceof RpcClientError ? rpcFailure(err, this.listener) : err;
    }
  }

  /** Any method by name with JSON params (`l2node rpc`). */
  async callRaw(method: string, params: readonly unknown[]): Promise<unknown> {
    try {
      return await this.client.callRaw(method, params);
    } catch (err) {
      throw err instanceof RpcClientError ? rpcFailure(err, this.listener) : err;
    }
  }

  /** GET /status of the listener (no key needed): its HTTP status and JSON body, or undefined when unreachable. */
  async health(): Promise<{ status: number; body: unknown } | undefined> {
    try {
      const res = await httpFetch(`${this.url.replace(/\/+$/, '')}/status`, { signal: AbortSignal.timeout(5000) });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      return { status: res.status, body };
    } catch {
      return undefined;
    }
  }
}
