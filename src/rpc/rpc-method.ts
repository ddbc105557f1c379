import type { z } from 'zod';

/**
 * The shape of one row of the method table (docs/architecture.md section 4.2: each RPC method is declared once). The
 * table is shared by the server, the client, `l2node rpc`, the generated docs and the conformance tests,
 * so it holds no handler and imports nothing from the daemon: the daemon supplies handlers by name
 * (`RpcHandlers`) and the server binds them.
 */

/** The two HTTP listeners of spec part 1. A method is served on exactly one of them. */
export type Listener = 'public' | 'admin';

/** JSON-RPC namespace (the part of the method name before `_`) that names each listener (docs, hints). */
export const LISTENER_NAMESPACE = { public: 'node', admin: 'nodeAdmin' } as const satisfies Record<Listener, string>;

/**
 * Every namespace each listener serves. The admin listener also serves `nodeDev_`: dev-mode controls (such
 * as injecting an L1-to-L2 message) that need the same protection as the admin methods.
 */
export const LISTENER_NAMESPACES = {
  public: ['node'],
  admin: ['nodeAdmin', 'nodeDev'],
} as const satisfies Record<Listener, readonly string[]>;

/**
 * A wire type: how one JSON value is read into the value a handler receives. `In` is what a client
 * sends (typed for the client); `Out` is what the schema produces.
 */
export interface WireType<In, Out> {
  /** The JSON form, for the docs and for error messages (`number | "latest" | hex32`). */
  readonly type: string;
  /**
   * Builds the zod schema that reads the value, from the zod module given: only the server loads zod and builds
   * schemas (with a method's first call), so a client of the table loads none (src/rpc/wire-types.ts).
   */
  readonly schema: (zod: typeof z) => z.ZodType<Out, unknown>;
  /** Phantom: only carries the client-side input type. */
  readonly __in?: In;
}

/** `required` params must be present and non-null; `optional` ones may be omitted or null (then undefined). */
export type Presence = 'required' | 'optional' | 'defaulted';

export interface ParamSpec<In = unknown, Out = unknown, P extends Presence = Presence> {
  readonly name: string;
  readonly description: string;
  readonly wire: WireType<In, Out>;
  readonly presence: P;
  /** Given to the handler when a `defaulted` param is omitted or null. */
  readonly defaultValue?: Out;
}

/**
 * How answers are written (`--rpc-answer-style`): `aztec`, the forms the official 4.1.2 client reads
 * (receipt statuses proposed/checkpointed/proven/finalized, base64 sibling paths), or `spec`, the forms the
 * spec gives (status `mined` for every included tx, sibling paths as string[] of 32-byte hex).
 */
export type AnswerStyle = 'aztec' | 'spec';
export const ANSWER_STYLES = ['aztec', 'spec'] as const satisfies readonly AnswerStyle[];

/**
 * How a handler's result travels: the handler returns the domain object (an L2Block, a TxReceipt, a witness),
 * the server encodes it to JSON, and the client, the follower and the CLI decode (and check) it back.
 */
export interface ResultCodec<T> {
  /** The JSON form, for the docs. */
  readonly type: string;
  /**
   * To a JSON-safe value (no bigint, no undefined: not-found and void are null), in the answer style
   * (default `aztec`); containers pass the style on to their items.
   */
  encode(value: T, style?: AnswerStyle): unknown;
  /**
   * From the parsed JSON of a response; throws a DecodeError naming the path below `path` that was wrong
   * when the node answered something of the wrong shape.
   */
  decode(json: unknown, path?: string): T;
  /** Set when `encode` returns its input as is (the value is JSON already): containers then skip the walk. */
  readonly identity?: boolean;
}

/** How the method relates to Aztec 4.1.2 (which methods the conformance harness may call). */
export type AztecCompat = { readonly aztec: 'same' } | { readonly aztec: 'differs' | 'absent'; readonly note: string };

export interface RpcMethodSpec<Ps extends readonly ParamSpec[] = readonly ParamSpec[], R = unknown> {
  /** One line for the docs and `l2node rpc --help`. */
  readonly summary: string;
  readonly params: Ps;
  readonly result: ResultCodec<R>;
  readonly compat: AztecCompat;
}

export interface RpcMethod<Ps extends readonly ParamSpec[] = readonly ParamSpec[], R = unknown>
  extends RpcMethodSpec<Ps, R> {
  /** Full wire name, `node_getBlock`. */
  readonly name: string;
  readonly listener: Listener;
}

export function required<In, Out>(
  name: string,
  wire: WireType<In, Out>,
  description: string,
): ParamSpec<In, Out, 'required'> {
  return { name, wire, description, presence: 'required' };
}

export function optional<In, Out>(
  name: string,
  wire: WireType<In, Out>,
  description: string,
): ParamSpec<In, Out, 'optional'> {
  return { name, wire, description, presence: 'optional' };
}

export function defaulted<In, Out>(
  name: string,
  wire: WireType<In, Out>,
  defaultValue: Out,
  description: string,
): ParamSpec<In, Out, 'defaulted'> {
  return { name, wire, description, presence: 'defaulted', defaultValue };
}

export function defineMethod<const Ps extends readonly ParamSpec[], R>(
  spec: RpcMethodSpec<Ps, R>,
): RpcMethodSpec<Ps, R> {
  return spec;
}

type Named<T extends Record<string, RpcMethodSpec>> = {
  readonly [K in keyof T & string]: T[K] & { readonly name: K; readonly listener: ListenerOf<K> };
};

type ListenerOf<K extends string> = K extends `nodeAdmin_${string}` | `nodeDev_${string}` ? 'admin' : 'public';

/**
 * Completes the table: the key is the wire name and the listener follows from the namespace, so a
 * method can never be declared on the wrong port.
 */
export function nameMethods<T extends Record<string, RpcMethodSpec>>(specs: T): Named<T> {
  const out: Record<string, RpcMethod> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const namespace = name.slice(0, name.indexOf('_'));
    const listener = (Object.keys(LISTENER_NAMESPACES) as Listener[]).find((l) =>
      (LISTENER_NAMESPACES[l] as readonly string[]).includes(namespace),
    );
    if (!listener || name.length === namespace.length + 1) {
      throw new Error(`Method ${name} is not in the node_, nodeAdmin_ or nodeDev_ namespace`);
    }
    out[name] = Object.freeze({ ...spec, name, listener });
  }
  return Object.freeze(out) as Named<T>;
}

/** What the handler of a method receives, param by param. */
export type HandlerArgs<Ps extends readonly unknown[]> = {
  -readonly [K in keyof Ps]: Ps[K] extends ParamSpec<unknown, infer O, infer P>
    ? P extends 'optional'
      ? O | undefined
      : O
    : never;
};

/** What a client passes: wire values; trailing optional params may be left out or given as null. */
export type ClientArgs<Ps extends readonly unknown[]> = Ps extends readonly [infer H, ...infer T]
  ? H extends ParamSpec<infer I, unknown, infer P>
    ? P extends 'required'
      ? [I, ...ClientArgs<T>]
      : [(I | null)?, ...ClientArgs<T>]
    : never
  : [];

export type ParamsOf<M> = M extends RpcMethodSpec<infer Ps, unknown> ? Ps : never;
export type ResultOf<M> = M extends RpcMethodSpec<readonly ParamSpec[], infer R> ? R : never;

/** A handler bound by the daemon: any throw becomes a JSON-RPC error (RpcError as is, else -32603). */
export type RpcHandler<M> = (...args: HandlerArgs<ParamsOf<M>>) => Promise<ResultOf<M>>;
