import { Fr } from '../core/fr.js';
import type { ResultCodec } from './rpc-method.js';

/**
 * Result codecs of the method table. The server encodes a handler's value to JSON with `encode`; the
 * client checks and decodes an answer with `decode`. Not found and void travel as null (DESIGN section 4).
 */

/** The node answered something of the wrong shape (client side). */
export class ResultDecodeError extends Error {
  override name = 'ResultDecodeError';
}

function check<T>(type: string, ok: (v: unknown) => v is T): ResultCodec<T> {
  return {
    type,
    encode: (v) => v,
    decode: (json) => {
      if (!ok(json)) throw new ResultDecodeError(`expected ${type}, got ${JSON.stringify(json)?.slice(0, 80)}`);
      return json;
    },
  };
}

export const integerResult = check('integer', (v): v is number => typeof v === 'number' && Number.isInteger(v));
export const stringResult = check('string', (v): v is string => typeof v === 'string');
export const booleanResult = check('boolean', (v): v is boolean => typeof v === 'boolean');
export const stringArrayResult = check(
  'string[]',
  (v): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string'),
);

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
    encode: (v) => (v === undefined || v === null ? null : codec.encode(v)),
    decode: (json) => (json === null || json === undefined ? undefined : codec.decode(json)),
  };
}

/** A type with its own JSON codec in src/core (toJSON on the value, fromJSON on the class). */
export function classResult<T extends { toJSON(): unknown }>(
  type: string,
  fromJSON: (json: unknown) => T,
): ResultCodec<T> {
  return { type, encode: (v) => v.toJSON(), decode: (json) => fromJSON(json) };
}

/**
 * A result whose typed codec lands with the issue that implements the method: the handler returns the
 * wire JSON itself, and the client gets it as parsed. `type` names the reference type (aztec-wire 6.x).
 */
export function wireJsonResult(type: string): ResultCodec<unknown> {
  return { type, encode: (v) => v, decode: (json) => json };
}

/** A field element as 0x + 64 hex digits. */
export const fieldResult: ResultCodec<Fr> = {
  type: 'hex32',
  encode: (v) => v.toString(),
  decode: (json) => {
    if (typeof json !== 'string') throw new ResultDecodeError(`expected a hex field element, got ${typeof json}`);
    return Fr.fromString(json);
  },
};
