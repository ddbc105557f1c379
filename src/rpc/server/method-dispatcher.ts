import { randomBytes } from 'node:crypto';
import jayson from 'jayson/index.js';
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

/** Receives the answer owed for a body: a response, an array of them for a batch, or undefined (notifications). */
export type Reply = (response: unknown) => void;

/**
 * Runs JSON-RPC requests (single or batch) against the methods of one listener, with jayson doing the
 * protocol: request checks, routing, notifications, the response envelope. Everything the table says
 * about a method (params, result encoding) happens in the jayson method built for it at start-up.
 * Nothing a handler does can escape as an exception: every failure becomes a JSON-RPC error.
 *
 * Callbacks, not promises, carry an answer from the handler to the socket (jayson's own style): each
 * promise hop between them measurably costs small requests (bench/rpc), and the only promise left is
 * the handler's own.
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

  /**
   * Answers a parsed body through `reply`, called once: a response object, an array of them for a batch
   * (in request order), or undefined when nothing is owed (notifications only).
   */
  dispatch(body: unknown, reply: Reply): void {
    if (!Array.isArray(body)) {
      this.one(body, reply);
      return;
    }
    if (body.length === 0) {
      reply(errorResponse(rpcErrors.invalidRequest('empty batch')));
      return;
    }
    if (body.length > this.options.maxBatchSize) {
      reply(
        errorResponse(
          rpcErrors.invalidRequest(
            `batch of ${body.length} requests exceeds the limit of ${this.options.maxBatchSize} (--rpc-max-batch-size)`,
          ),
        ),
      );
      return;
    }
    // Items run concurrently and are answered in request order; notifications get no slot.
    const answers = new Array<unknown>(body.length);
    let pending = body.length;
    body.forEach((item, i) => {
      this.one(item, (answer) => {
        answers[i] = answer;
        if (--pending > 0) return;
        const owed = answers.filter((a) => a !== undefined);
        reply(owed.length > 0 ? owed : undefined);
      });
    });
  }

  private one(request: unknown, reply: Reply): void {
    // jayson would re-parse a string body and never answers a nested array: both are invalid requests here.
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      reply(errorResponse(new RpcError(INVALID_REQUEST, INVALID_REQUEST_MESSAGE)));
      return;
    }
    try {
      this.server.call(request as jayson.JSONRPCRequestLike, (error, success) => reply(error ?? success));
    } catch (err) {
      // jayson itself failed on this request (handlers never throw, see bind): still an answer, never a crash.
      const id = (request as { id?: unknown }).id;
      reply(
        errorResponse(
          this.internalError(err, 'the request'),
          typeof id === 'string' || typeof id === 'number' ? id : null,
        ),
      );
    }
  }

  private bind(method: RpcMethod): jayson.Method {
    const name = method.name;
    const handler = this.options.handlers[name as keyof RpcHandlers] as AnyHandler | undefined;
    // The handler map's type has every method; only an untyped caller can leave one out: refuse to start.
    if (typeof handler !== 'function') throw new Error(`No handler for ${name}: every method of the table needs one`);
    const parse = buildParamParser(method);
    const encode = method.result.encode;
    const notServing = this.options.notServing;
    const observe = this.options.observe;
    // A jayson callback method: it must never throw (jayson would let a throw escape the server), so every
    // failure, synchronous or not, goes to `callback` as a JSON-RPC error.
    return new jayson.Method((params: unknown, callback: jayson.JSONRPCCallbackTypePlain) => {
      // The clock is read only when someone observes (metrics on): it is a cost on every small call.
      const started = observe ? performance.now() : 0;
      const fail = (err: unknown) => {
        observe?.(name, (performance.now() - started) / 1000, false);
        callback(asJaysonError(this.toErrorObject(err, name)));
      };
      let pending: Promise<unknown>;
      try {
        const state = notServing();
        if (state !== undefined) throw rpcErrors.notReady(state);
        // Promise.resolve is the identity on a promise; it only guards a handler that answers synchronously.
        pending = Promise.resolve(handler(...parse(params)));
      } catch (err) {
        fail(err);
        return;
      }
      pending.then((value) => {
        let encoded: unknown;
        try {
          encoded = encode(value);
        } catch (err) {
          fail(err);
          return;
        }
        observe?.(name, (performance.now() - started) / 1000, true);
        callback(null, encoded);
      }, fail);
    });
  }

  private notFound(name: unknown): jayson.Method {
    const label = typeof name === 'string' ? name.slice(0, 100) : String(name);
    const other = this.options.listener === 'public' ? 'admin' : 'public';
    const namespace = typeof name === 'string' ? name.slice(0, name.indexOf('_')) : '';
    const hint = (LISTENER_NAMESPACES[other] as readonly string[]).includes(namespace)
      ? `${namespace}_ methods are served on the ${other} listener`
      : undefined;
    return refusingMethod(rpcErrors.methodNotFound(label, hint).toJSON());
  }

  /** An RpcError goes out as is; anything else is an internal error, logged under an id the caller sees. */
  private toErrorObject(err: unknown, method: string): JsonRpcErrorObject {
    if (err instanceof RpcError) {
      this.options.log.debug({ method, code: err.code, err: err.message }, `${method} answered error ${err.code}`);
      return err.toJSON();
    }
    return this.internalError(err, method).toJSON();
  }

  private internalError(err: unknown, what: string): RpcError {
    const errorId = randomBytes(4).toString('hex');
    this.options.log.error({ method: what, errorId, err }, `internal error in ${what} (id ${errorId})`);
    return new RpcError(INTERNAL_ERROR, `Internal error (id ${errorId}): the node log has the details`);
  }
}

/** A jayson method that answers every call with the same JSON-RPC error. */
function refusingMethod(refusal: JsonRpcErrorObject): jayson.Method {
  const error = asJaysonError(refusal);
  return new jayson.Method((_params: unknown, callback: jayson.JSONRPCCallbackTypePlain) => callback(error));
}

/** jayson's typings want `data` to be an object; at run time it passes any JSON-RPC error object through. */
function asJaysonError(error: JsonRpcErrorObject): jayson.JSONRPCErrorLike {
  return error as jayson.JSONRPCErrorLike;
}

export function errorResponse(error: RpcError, id: string | number | null = null): unknown {
  return { jsonrpc: '2.0', id, error: error.toJSON() };
}
