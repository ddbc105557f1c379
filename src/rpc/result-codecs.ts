import { Fr, toHex64 } from '../core/fr.js';
import { DecodeError, joinPath } from '../core/serialize/decode-error.js';
import { bigIntToBuffer32 } from '../core/serialize/field-bytes.js';
import { readArray, readBigInt, readBuffer, readFieldValue, readObject } from '../core/serialize/json-reader.js';
import type { AnswerStyle, ResultCodec } from './rpc-method.js';

/**
 * Result codecs of the method table: each names a result's JSON form for the docs, encodes the handler's
 * domain object on the server and decodes the answer on the client (the follower and the CLI included), so
 * both sides share one type. Not found and void travel as null (docs/rpc.md). Decoding failures are
 * DecodeErrors naming the path that was wrong (`proven.block.hash: expected ...`).
 *
 * Encoding walks nothing it does not have to: class results call the class's own toJSON, and containers
 * whose items are JSON already (`identity`) return the value as is, so a result costs what its toJSON costs.
 */

export type ValueOf<C> = C extends ResultCodec<infer T> ? T : never;

function check<T>(type: string, ok: (v: unknown) => v is T): ResultCodec<T> {
  return {
    type,
    identity: true,
    encode: (v) => v,
    decode: (json, path = '') => {
      if (!ok(json)) throw new DecodeError(path, `expected ${type}, got ${JSON.stringify(json)?.slice(0, 80)}`);
      return json;
    },
  };
}

export const integerResult = check('integer', (v): v is number => typeof v === 'number' && Number.isInteger(v));
export const numberResult = check('number', (v): v is number => typeof v === 'number' && Number.isFinite(v));
export const stringResult = check('string', (v): v is string => typeof v === 'string');
export const booleanResult = check('boolean', (v): v is boolean => typeof v === 'boolean');

/** One of a fixed set of strings. */
export function oneOfResult<const S extends string>(values: readonly S[]): ResultCodec<S> {
  return check(values.map((v) => `"${v}"`).join(' | '), (v): v is S => values.includes(v as S));
}

/** Methods that return nothing: the answer is `null`. */
export const voidResult: ResultCodec<void> = {
  type: 'null',
  encode: () => null,
  decode: () => undefined,
};

/** T, or null when not found; the handler returns undefined for "not found". */
export function nullable<T>(codec: ResultCodec<T>): ResultCodec<T | undefined> {
  return {
    type: `${codec.type} | null`,
    encode: (v, style) => (v === undefined || v === null ? null : codec.encode(v, style)),
    decode: (json, path) => (json === null || json === undefined ? undefined : codec.decode(json, path)),
  };
}

/** A type with its own JSON codec in src/core (toJSON on the value, fromJSON on the class). */
export function classResult<T extends { toJSON(): unknown }>(
  type: string,
  fromJSON: (json: unknown, path: string) => T,
): ResultCodec<T> {
  return { type, encode: (v) => v.toJSON(), decode: (json, path = '') => fromJSON(json, path) };
}

/** A type whose JSON codec is a pair of functions in src/core (a response object of class instances). */
export function jsonResult<T>(
  type: string,
  toJSON: (value: T) => unknown,
  fromJSON: (json: unknown, path: string) => T,
): ResultCodec<T> {
  return { type, encode: toJSON, decode: (json, path = '') => fromJSON(json, path) };
}

/**
 * A domain object whose wire form has other names or nesting (`{index, blockNumber}` travels as
 * `{data, l2BlockNumber}`): `toWire` and `fromWire` map it onto the codec of its wire form.
 */
export function convertedResult<W, T>(
  codec: ResultCodec<W>,
  toWire: (v: T) => W,
  fromWire: (w: W) => T,
): ResultCodec<T> {
  return {
    type: codec.type,
    encode: (v, style) => codec.encode(toWire(v), style),
    decode: (json, path) => fromWire(codec.decode(json, path)),
  };
}

/** T, or the given value when the key is missing from an answer (4.1.2 nodes that leave it out). */
export function orDefault<T>(codec: ResultCodec<T>, missing: T): ResultCodec<T> {
  return { ...codec, decode: (json, path) => (json === undefined ? missing : codec.decode(json, path)) };
}

/** A field element as 0x + 64 hex digits. */
export const fieldResult: ResultCodec<Fr> = {
  type: 'hex32',
  encode: (v) => v.toString(),
  decode: (json, path = '') => new Fr(readFieldValue(json, path)),
};

/** A field element held as a bigint (tree leaves, messages, keys), as 0x + 64 hex digits. */
export const fieldValueResult: ResultCodec<bigint> = {
  type: 'hex32',
  encode: (v) => toHex64(v),
  decode: (json, path = '') => readFieldValue(json, path),
};

/**
 * A 32-byte hash kept as its wire string (tips, L1 block hashes): 0x + 1 to 64 hex digits, read back as
 * 0x + 64 lowercase hex digits.
 */
export const hashStringResult: ResultCodec<string> = {
  type: 'hex32',
  identity: true,
  encode: (v) => v,
  decode: (json, path = '') => {
    if (typeof json !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(json)) {
      throw new DecodeError(path, `expected a 0x hex hash, got ${JSON.stringify(json)?.slice(0, 80)}`);
    }
    return `0x${json.slice(2).toLowerCase().padStart(64, '0')}`;
  },
};

/** A non-negative bigint as a decimal string (numbers and decimal strings are read). */
export const decimalResult: ResultCodec<bigint> = {
  type: 'decimal string',
  encode: (v) => v.toString(),
  decode: (json, path = '') => readBigInt(json, path, undefined, (1n << 256n) - 1n),
};

/** A list of field elements held as bigints, leaf order. */
export const fieldValuesResult = arrayResult(fieldValueResult);

export function arrayResult<T>(item: ResultCodec<T>): ResultCodec<readonly T[]> {
  return {
    type: `${item.type.includes(' ') ? `(${item.type})` : item.type}[]`,
    identity: item.identity,
    encode: item.identity ? (v) => v : (v, style) => v.map((x) => item.encode(x, style)),
    decode: (json, path = '') => readArray(json, path).map((x, i) => item.decode(x, joinPath(path, i))),
  };
}

/** A JSON object whose keys are free (an address, a setting name) and whose values share one codec. */
export function recordResult<T>(type: string, value: ResultCodec<T>): ResultCodec<Readonly<Record<string, T>>> {
  return {
    type,
    identity: value.identity,
    encode: value.identity
      ? (v) => v
      : (v, style) => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value.encode(x, style)])),
    decode: (json, path = '') => {
      const o = readObject(json, path);
      const out: Record<string, T> = {};
      for (const [k, x] of Object.entries(o)) out[k] = value.decode(x, joinPath(path, k));
      return out;
    },
  };
}

/**
 * Any JSON value, passed as parsed: for maps whose value types are declared elsewhere (NodeAdminConfig's
 * values follow the settings table, which the node owns).
 */
export const jsonValueResult: ResultCodec<unknown> = {
  type: 'JSON',
  identity: true,
  encode: (v) => v,
  decode: (json, path = '') => {
    if (json === undefined) throw new DecodeError(path, 'expected a JSON value, got nothing');
    return json;
  },
};

/** A key the object may leave out (never null on the wire, as 4.1.2's `.optional()` fields). */
export interface OptionalKey<T> extends ResultCodec<T> {
  readonly optionalKey: true;
}

export function optionalKey<T>(codec: ResultCodec<T>): OptionalKey<T> {
  return { ...codec, optionalKey: true };
}

type Fields = Record<string, ResultCodec<never> | ResultCodec<unknown>>;
type RequiredKeys<F> = { [K in keyof F]: F[K] extends OptionalKey<unknown> ? never : K }[keyof F];
type Flatten<T> = { [K in keyof T]: T[K] };
export type ObjectOf<F> = Flatten<
  { readonly [K in RequiredKeys<F>]: ValueOf<F[K]> } & {
    readonly [K in Exclude<keyof F, RequiredKeys<F>>]?: ValueOf<F[K]>;
  }
>;

/**
 * An object of known keys, encoded in the order they are declared here (the wire order); optional keys
 * are left out when undefined. Unknown keys of an answer are dropped, as 4.1.2's zod objects do.
 */
export function objectResult<F extends Fields>(type: string, fields: F): ResultCodec<ObjectOf<F>> {
  const entries = Object.entries(fields) as [string, ResultCodec<unknown> & { optionalKey?: true }][];
  const identity = entries.every(([, c]) => c.identity);
  return {
    type,
    identity,
    encode: identity
      ? (v) => v
      : (v, style) => {
          const source = v as Record<string, unknown>;
          const out: Record<string, unknown> = {};
          for (const [key, codec] of entries) {
            const x = source[key];
            if (x === undefined && codec.optionalKey) continue;
            out[key] = codec.encode(x, style);
          }
          return out;
        },
    decode: (json, path = '') => {
      const o = readObject(json, path);
      const out: Record<string, unknown> = {};
      for (const [key, codec] of entries) {
        const x = o[key];
        if (x === undefined && codec.optionalKey) continue;
        out[key] = codec.decode(x, joinPath(path, key));
      }
      return out as ObjectOf<F>;
    },
  };
}

/** A fixed-length JSON array of differently typed items. */
export function tupleResult<A, B>(type: string, a: ResultCodec<A>, b: ResultCodec<B>): ResultCodec<readonly [A, B]> {
  return {
    type,
    encode: (v, style) => [a.encode(v[0], style), b.encode(v[1], style)],
    decode: (json, path = '') => {
      const arr = readArray(json, path);
      if (arr.length !== 2) throw new DecodeError(path, `expected 2 items, got ${arr.length}`);
      return [a.decode(arr[0], joinPath(path, 0)), b.decode(arr[1], joinPath(path, 1))];
    },
  };
}

/** Binary data as padded base64 (4.1.2's Buffer schemas), held as a Buffer. */
export const base64Result: ResultCodec<Buffer> = {
  type: 'base64',
  encode: (v) => v.toString('base64'),
  decode: (json, path = '') => readBuffer(json, path),
};

/** The siblings of a leaf from the leaf level up: 32-byte big-endian nodes, `nodes[0]` the leaf's neighbour. */
export interface SiblingNodes {
  readonly nodes: readonly Uint8Array[];
}

/**
 * SiblingPath<N>: base64 of a u32 big-endian count, then the N 32-byte nodes, leaf level first; in the spec
 * answer style the nodes as string[] of 0x + 64 hex digits (read back in either form).
 */
export const siblingPathResult: ResultCodec<SiblingNodes> = {
  type: 'SiblingPath',
  encode: (v, style?: AnswerStyle) => {
    if (style === 'spec') return v.nodes.map((n) => `0x${Buffer.from(n).toString('hex')}`);
    const count = Buffer.allocUnsafe(4);
    count.writeUInt32BE(v.nodes.length, 0);
    return concatNodes(count, v.nodes);
  },
  decode: (json, path = '') => {
    if (Array.isArray(json)) {
      return { nodes: json.map((x, i) => bigIntToBuffer32(readFieldValue(x, joinPath(path, i)))) };
    }
    const b = readBuffer(json, path);
    const n = b.length >= 4 ? b.readUInt32BE(0) : -1;
    if (n < 0 || b.length !== 4 + 32 * n) {
      throw new DecodeError(
        path,
        `a sibling path is a 4-byte count and that many 32-byte nodes, got ${b.length} bytes`,
      );
    }
    return { nodes: splitNodes(b, 4, n) };
  },
};

/** A leaf index with its sibling path (note hash, archive, L1-to-L2 message witnesses). */
export interface IndexWithPath {
  readonly index: bigint;
  readonly siblingPath: SiblingNodes;
}

/** MembershipWitness<N>: base64 of the leaf index as 32 bytes big-endian, then the N siblings; no count. */
export const membershipWitnessResult: ResultCodec<IndexWithPath> = {
  type: 'MembershipWitness',
  encode: (v) => concatNodes(bigIntToBuffer32(v.index), v.siblingPath.nodes),
  decode: (json, path = '') => {
    const b = readBuffer(json, path);
    if (b.length < 32 || b.length % 32 !== 0) {
      throw new DecodeError(path, `a membership witness is a 32-byte index and 32-byte nodes, got ${b.length} bytes`);
    }
    const index = Fr.fromBuffer(b).value;
    return { index, siblingPath: { nodes: splitNodes(b, 32, b.length / 32 - 1) } };
  },
};

/** base64 of `head` followed by the 32-byte nodes. */
function concatNodes(head: Buffer, nodes: readonly Uint8Array[]): string {
  const out = Buffer.allocUnsafe(head.length + 32 * nodes.length);
  head.copy(out, 0);
  for (let i = 0; i < nodes.length; i++) out.set(nodes[i] as Uint8Array, head.length + 32 * i);
  return out.toString('base64');
}

function splitNodes(b: Buffer, at: number, n: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => b.subarray(at + 32 * i, at + 32 + 32 * i));
}
