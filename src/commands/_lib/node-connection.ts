import { RpcClient } from '../../rpc/client/rpc-client.js';
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
  /** A call of the method table, its result decoded by the table's codec; failures are command errors. */
  readonly call: RpcClient['call'];
  /** Any method by name with JSON params (`l2node rpc`). */
  readonly callRaw: RpcClient['callRaw'];
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
      mapError: (err) => rpcFailure(err, this.listener),
    });
    this.call = this.client.call.bind(this.client);
    this.callRaw = this.client.callRaw.bind(this.client);
  }

  /** Headers of the last answer, e.g. `x-aztec-l2CircuitsVkTreeRoot`. */
  get lastHeaders(): Headers | undefined {
    return this.#lastHeaders;
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
