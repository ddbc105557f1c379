import { randomBytes } from 'node:crypto';
import jayson from 'jayson/promise/index.js';
import type { Logger } from 'pino';
import { INTERNAL_ERROR, INVALID_REQUEST, type JsonRpcErrorObject, RpcError, rpcErrors } from '../errors.js';
import { RPC_METHODS } from '../method-table.js';
import type { RpcHandlers } from '../rpc-handlers.js';
import { LISTENER_NAMESPACES, type Listener, type RpcMethod } from '../rpc-method.js';
import { buildParamParser } from './param-parser.js';

export interface DispatcherOptions {
  readonly listener: Listener;
  readonly handlers: RpcHandlers;
  readonly maxBatchSize: number;
  readonly log: Logger;
  /** Undefined while the node serves; otherwise its state ("starting", "stopping"), answered as NOT_READY. */
  readonly notServing: () => string | undefined;
  /** Told of every call a handler answered (metrics): method, seconds, and whether it succeeded. */
  readonly observe?: (method: string, seconds: number, ok: boolean) => void;
}

type AnyHandler = (...args: unknown[]) => Promise<unknown>;

const INVALID_REQUEST_MESSAGE =
  'Invalid request: expected {"jsonrpc":"2.0","method":"<name>","params":[...],"id":<number or string>}';

/**
 * Runs JSON-RPC requests (single or batch) against the methods of one listener, with jayson doing the
 * protocol: request checks, routing, notifications, the response envelope. Everything the table says
 * about a method (params, result encoding) happens in the jayson method built for it at start-up.
 * Nothing a handler does can escape as an exception: every failure becomes a JSON-RPC error.
 */
export class MethodDispatcher {
  private readonly server: jayson.Server;
  private readonly methods = new Map<string, jayson.Method>();

  constructor(private readonly options: DispatcherOptions) {
    for (const method of Object.values(RPC_METHODS) as RpcMethod[]) {
      if (method.listener !== options.listener) continue;
      this.methods.set(method.name, this.bind(method));
    }
    const route = (name: string) => this.methods.get(name) ?? this.notFound(name);
    this.server = new jayson.Server({}, { router: route });
    this.server.errorMessages[INVALID_REQUEST] = INVALID_REQUEST_MESSAGE;
  }

  /** Wire names served here, with whether a handler is bound. */
  served(): { name: string; available: boolean }[] {
    return [...this.methods.keys()].map((name) => ({ name, available: name in this.options.handlers }));
  }

  /**
   * Answers a parsed body: a response object, an array of them for a batch (in request order), or
   * undefined when nothing is owed (notifications only).
   */
  dispatch(body: unknown): Promise<unknown> {
    if (!Array.isArray(body)) return this.one(body);
    if (body.length === 0) return Promise.resolve(errorResponse(rpcErrors.invalidRequest('empty batch')));
    if (body.length > this.options.maxBatchSize) {
      return Promise.resolve(
        errorResponse(
          rpcErrors.invalidRequest(
            `batch of ${body.length} requests exceeds the limit of ${this.options.maxBatchSize} (--rpc-max-batch-size)`,
          ),
        ),
      );
    }
    // Items run concurrently and are answered in request order; notifications get no slot.
    return Promise.all(body.map((item) => this.one(item))).then((answers) => {
      const owed = answers.filter((a) => a !== undefined);
      return owed.length > 0 ? owed : undefined;
    });
  }

  private one(request: unknown): Promise<unknown> {
    // jayson would re-parse a string body and never answers a nested array: both are invalid requests here.
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return Promise.resolve(errorResponse(new RpcError(INVALID_REQUEST, INVALID_REQUEST_MESSAGE)));
    }
    return new Promise((resolve) => {
      this.server.call(request as jayson.JSONRPCRequest, (error, success) => resolve(error ?? success));
    });
  }

  private bind(method: RpcMethod): jayson.Method {
    const name = method.name;
    const handler = this.options.handlers[name as keyof RpcHandlers] as AnyHandler | undefined;
    if (!handler) {
      const refusal = rpcErrors.notAvailableYet(name).toJSON();
      return new jayson.Method(async () => Promise.reject(refusal));
    }
    const parse = buildParamParser(method);
    const encode = method.result.encode;
    const notServing = this.options.notServing;
    const observe = this.options.observe;
    // Must stay async: jayson lets a synchronous throw escape the server.
    return new jayson.Method(async (params: unknown) => {
      const started = performance.now();
      try {
        const state = notServing();
        if (state !== undefined) throw rpcErrors.notReady(state);
        const value = await handler(...parse(params));
        const encoded = encode(value);
        observe?.(name, (performance.now() - started) / 1000, true);
        return encoded;
      } catch (err) {
        observe?.(name, (performance.now() - started) / 1000, false);
        throw this.toErrorObject(err, name);
      }
    });
  }

  private notFound(name: unknown): jayson.Method {
    const label = typeof name === 'string' ? name.slice(0, 100) : String(name);
    const other = this.options.listener === 'public' ? 'admin' : 'public';
    const namespace = typeof name === 'string' ? name.slice(0, name.indexOf('_')) : '';
    const hint = (LISTENER_NAMESPACES[other] as readonly string[]).includes(namespace)
      ? `${namespace}_ methods are served on the ${other} listener`
      : undefined;
    const refusal = rpcErrors.methodNotFound(label, hint).toJSON();
    return new jayson.Method(async () => Promise.reject(refusal));
  }

  /** An RpcError goes out as is; anything else is an internal error, logged under an id the caller sees. */
  private toErrorObject(err: unknown, method: string): JsonRpcErrorObject {
    if (err instanceof RpcError) {
      this.options.log.debug({ method, code: err.code, err: err.message }, `${method} answered error ${err.code}`);
      return err.toJSON();
    }
    const errorId = randomBytes(4).toString('hex');
    this.options.log.error({ method, errorId, err }, `internal error in ${method} (id ${errorId})`);
    return { code: INTERNAL_ERROR, message: `Internal error (id ${errorId}): the node log has the details` };
  }
}

export function errorResponse(error: RpcError, id: string | number | null = null): unknown {
  return { jsonrpc: '2.0', id, error: error.toJSON() };
}
