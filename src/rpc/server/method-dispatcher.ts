import { randomBytes } from 'node:crypto';
import jayson from 'jayson/index.js';
import type { Logger } from 'pino';
import {
  INTERNAL_ERROR,
  INVALID_REQUEST,
  type JsonRpcErrorObject,
  METHOD_NOT_FOUND,
  RpcError,
  rpcErrors,
} from '../errors.js';
import { RPC_METHODS } from '../method-table.js';
import type { RpcHandlers } from '../rpc-handlers.js';
import { type AnswerStyle, LISTENER_NAMESPACES, type Listener, type RpcMethod } from '../rpc-method.js';
import { BatchAnswer, JsonText } from './batch-answer.js';
import { inSlice, mayStartNow, nextTurn } from './event-loop-turns.js';
import { buildParamParser } from './param-parser.js';

export interface DispatcherOptions {
  readonly listener: Listener;
  readonly handlers: RpcHandlers;
  readonly maxBatchSize: number;
  /** Largest answer (bytes of JSON) to one request or one batch: --rpc-max-response-size. */
  readonly maxResponseSize: number;
  /** The forms results are written in (`--rpc-answer-style`); default `aztec`. */
  readonly answerStyle?: AnswerStyle;
  readonly log: Logger;
  /** Undefined while the node serves; otherwise its state ("starting", "stopping"), answered as NOT_READY. */
  readonly notServing: () => string | undefined;
  /** Turns a failure the node recognises (a full disk) into its application error; else it is an internal error. */
  readonly translateError?: (err: unknown) => RpcError | undefined;
  /**
   * Told of every answered call (metrics): method, seconds, and the JSON-RPC error code (0 when it succeeded). A
   * method that is not served here is reported too, with the name the caller sent and METHOD_NOT_FOUND.
   */
  readonly observe?: (method: string, seconds: number, code: number) => void;
}

type AnyHandler = (...args: unknown[]) => Promise<unknown>;

const INVALID_REQUEST_MESSAGE =
  'Invalid request: expected {"jsonrpc":"2.0","method":"<name>","params":[...],"id":<number or string>}';

/**
 * Receives the answer owed for a body, serialised: a response, an array of them for a batch (a BatchAnswer when
 * it is big enough to be written as it goes), or undefined (notifications).
 */
export type Reply = (response: JsonText | BatchAnswer | undefined) => void;

const RESPONSE_SIZE_FLAG = '--rpc-max-response-size';

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
  /** The methods of this listener, by name. */
  private readonly served = new Map<string, RpcMethod>();
  /** Their jayson methods, each built with its first call: a node calls few of them (bench/startup). */
  private readonly methods = new Map<string, jayson.Method>();

  constructor(private readonly options: DispatcherOptions) {
    for (const method of Object.values(RPC_METHODS) as RpcMethod[]) {
      if (method.listener !== options.listener) continue;
      // The handler map's type has every method; only an untyped caller can leave one out: refuse to start.
      if (typeof options.handlers[method.name as keyof RpcHandlers] !== 'function') {
        throw new Error(`No handler for ${method.name}: every method of the table needs one`);
      }
      this.served.set(method.name, method);
    }
    const route = (name: string) => this.methods.get(name) ?? this.bindServed(name) ?? this.notFound(name);
    this.server = new jayson.Server({}, { router: route });
    this.server.errorMessages[INVALID_REQUEST] = INVALID_REQUEST_MESSAGE;
  }

  /**
   * Answers a parsed body through `reply`, called once: a response object, an array of them for a batch
   * (in request order), or undefined when nothing is owed (notifications only).
   */
  dispatch(body: unknown, reply: Reply): void {
    if (!Array.isArray(body)) {
      this.one(body, (answer) => reply(answer === undefined ? undefined : this.measured(answer, idOf(body))));
      return;
    }
    if (body.length === 0) {
      reply(this.serialise(errorResponse(rpcErrors.invalidRequest('empty batch'))));
      return;
    }
    if (body.length > this.options.maxBatchSize) {
      reply(
        this.serialise(
          errorResponse(
            rpcErrors.invalidRequest(
              `batch of ${body.length} requests exceeds the limit of ${this.options.maxBatchSize} (--rpc-max-batch-size)`,
            ),
          ),
        ),
      );
      return;
    }
    this.batch(body, reply);
  }

  /**
   * A batch: items run concurrently (the next starts when the previous answered or the event loop turned, so
   * items that wait on each other still finish) and are answered in request order; notifications get no slot.
   * Every answer is serialised as it arrives and counted against --rpc-max-response-size: once the batch is over
   * it, the answers kept so far stay, and every later item gets LIMIT_EXCEEDED without running (geth bounds batch
   * answers the same way). A big answer is written as it goes (BatchAnswer), and the next item starts only when
   * the client's connection has room for its answer. Items run in the time slices of the fair scheduler
   * (event-loop-turns): the first one at once only when no other big work waits, the next ones while the slice
   * lasts, then in the batch's next turn, so other requests are read between them.
   */
  private batch(items: readonly unknown[], reply: Reply): void {
    const answer = new BatchAnswer(
      items.length,
      this.options.maxResponseSize,
      (i) => this.overBudgetText(idOf(items[i])),
      reply,
    );
    let next = 0;
    const record = (i: number, text: JsonText | undefined) => answer.record(i, text?.text);
    const launch = (): void => {
      while (next < items.length) {
        // Resumed on the queue of steps, not in the drain event: 24 connections draining in one poll phase would
        // otherwise run 24 items back to back.
        if (answer.waitForRoom(() => nextTurn(launch))) return;
        const i = next++;
        const item = items[i];
        if (answer.overBudget) {
          // Over budget: the rest is refused without running (a notification is owed nothing).
          record(i, isNotification(item) ? undefined : new JsonText(''));
          continue;
        }
        let advanced = false;
        let synchronous = true;
        let continueLoop = false;
        const turn = nextTurn(() => {
          if (advanced) return;
          advanced = true;
          launch();
        });
        this.one(item, (response) => {
          record(i, response === undefined ? undefined : this.serialise(response));
          if (advanced) return;
          // The slice is used: the queued turn starts the next item, after the big work queued before it.
          if (!inSlice()) return;
          advanced = true;
          turn.cancel();
          if (synchronous) continueLoop = true;
          else launch();
        });
        synchronous = false;
        if (!continueLoop) return;
      }
    };
    // Started at once when no big work waits; else behind it (24 batches read in one poll must not run 24 items).
    if (mayStartNow()) launch();
    else nextTurn(launch);
  }

  /** One answer (not a batch) against the budget: past it, LIMIT_EXCEEDED with the request's id. */
  private measured(answer: unknown, id: string | number | null): JsonText {
    const text = this.serialise(answer);
    return text.text.length > this.options.maxResponseSize ? new JsonText(this.overBudgetText(id)) : text;
  }

  private overBudgetText(id: string | number | null): string {
    const max = this.options.maxResponseSize;
    return JSON.stringify(
      errorResponse(
        rpcErrors.limitExceeded(
          `the answer is larger than ${max} bytes (${RESPONSE_SIZE_FLAG}): ask for less at once (fewer blocks, a smaller batch) or raise the limit`,
          RESPONSE_SIZE_FLAG,
          max,
        ),
        id,
      ),
    );
  }

  /**
   * Serialises an answer. Plain JSON.stringify: results are already JSON-safe (encoded by the table), and
   * jayson's circular-safe stringify costs about half the CPU on large results.
   */
  private serialise(answer: unknown): JsonText {
    try {
      return new JsonText(JSON.stringify(answer));
    } catch (err) {
      this.options.log.error({ err }, 'a response could not be serialised');
      return new JsonText(
        JSON.stringify(
          errorResponse(
            new RpcError(INTERNAL_ERROR, 'Internal error: the response could not be serialised'),
            idOf(answer),
          ),
        ),
      );
    }
  }

  private one(request: unknown, reply: (response: unknown) => void): void {
    // jayson would re-parse a string body and never answers a nested array: both are invalid requests here.
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      reply(errorResponse(new RpcError(INVALID_REQUEST, INVALID_REQUEST_MESSAGE)));
      return;
    }
    // An id such as 1e400 parses to Infinity, which no answer can carry back: refused, not run.
    const id = (request as { id?: unknown }).id;
    if (typeof id === 'number' && !Number.isFinite(id)) {
      reply(
        errorResponse(rpcErrors.invalidRequest('the id is a number out of range; use a smaller number or a string')),
      );
      return;
    }
    try {
      this.server.call(request as jayson.JSONRPCRequestLike, (error, success) => reply(error ?? success));
    } catch (err) {
      // jayson itself failed on this request (handlers never throw, see bind): still an answer, never a crash.
      reply(errorResponse(this.internalError(err, 'the request'), idOf(request)));
    }
  }

  /** The jayson method of a method this listener serves, built on its first call; undefined for any other name. */
  private bindServed(name: unknown): jayson.Method | undefined {
    const method = typeof name === 'string' ? this.served.get(name) : undefined;
    if (!method) return undefined;
    const bound = this.bind(method);
    this.methods.set(method.name, bound);
    return bound;
  }

  private bind(method: RpcMethod): jayson.Method {
    const name = method.name;
    const handler = this.options.handlers[name as keyof RpcHandlers] as AnyHandler;
    const parse = buildParamParser(method);
    const codec = method.result;
    const style = this.options.answerStyle ?? 'aztec';
    const notServing = this.options.notServing;
    const observe = this.options.observe;
    // A jayson callback method: it must never throw (jayson would let a throw escape the server), so every
    // failure, synchronous or not, goes to `callback` as a JSON-RPC error.
    const log = this.options.log;
    // The request log (method, code, duration) is at debug: `--log-level "info; debug: rpc"` turns it on.
    const logCalls = log.isLevelEnabled('debug');
    const timed = observe !== undefined || logCalls;
    const done = (started: number, code: number) => {
      const seconds = (performance.now() - started) / 1000;
      observe?.(name, seconds, code);
      if (logCalls) {
        const ms = Math.round(seconds * 10_000) / 10;
        log.debug({ method: name, code, ms }, `${name} ${code === 0 ? 'ok' : `error ${code}`} in ${ms} ms`);
      }
    };
    return new jayson.Method((params: unknown, callback: jayson.JSONRPCCallbackTypePlain) => {
      // The clock is read only when someone observes (metrics on, or the request log): a cost on every small call.
      const started = timed ? performance.now() : 0;
      const fail = (err: unknown) => {
        const error = this.toErrorObject(err, name);
        if (timed) done(started, error.code);
        callback(asJaysonError(error));
      };
      let pending: Promise<unknown>;
      try {
        const state = notServing();
        if (state !== undefined) throw rpcErrors.notReady(state);
        const args = parse(params);
        // Promise.resolve is the identity on a promise; it only guards a handler that answers synchronously.
        pending = Array.isArray(args) ? Promise.resolve(handler(...args)) : args.then((read) => handler(...read));
      } catch (err) {
        fail(err);
        return;
      }
      pending.then((value) => {
        let encoded: unknown;
        try {
          encoded = codec.encode(value, style);
        } catch (err) {
          fail(err);
          return;
        }
        if (timed) done(started, 0);
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
    // Routing is the whole of the work: no time worth measuring.
    this.options.observe?.(label, 0, METHOD_NOT_FOUND);
    return refusingMethod(rpcErrors.methodNotFound(label, hint).toJSON());
  }

  /** An RpcError goes out as is; anything else is an internal error, logged under an id the caller sees. */
  private toErrorObject(err: unknown, method: string): JsonRpcErrorObject {
    // The refusal is in the request log (debug), with its code.
    if (err instanceof RpcError) return err.toJSON();
    const known = this.options.translateError?.(err);
    if (known) return known.toJSON();
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

/** The id of a request (or response) object, when it has a valid one. */
function idOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A request object without an id: JSON-RPC owes it no answer. */
function isNotification(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !('id' in value);
}

export function errorResponse(error: RpcError, id: string | number | null = null): unknown {
  return { jsonrpc: '2.0', id, error: error.toJSON() };
}
