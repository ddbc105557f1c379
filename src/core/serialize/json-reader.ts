/**
 * Readers for the values of Aztec 4.1.2's wire JSON, each with the leniency of the matching 4.1.2 zod schema
 * (docs/aztec-facts.md section 1.4): Fr only from strings (hex, or decimal digits read as decimal); UInt32, integers
 * and bigints coerced from numbers or numeric strings; addresses and hashes by their own rules. Every reader
 * takes the path of the value's parent and its key; the path is only formatted when the value is bad.
 * Unknown object keys are ignored by the callers, as zod's default object parsing does.
 */
import { AztecAddress } from '../aztec-address.js';
import { BlockHash } from '../block-hash.js';
import { EthAddress } from '../eth-address.js';
import { Fr, parseFieldString } from '../fr.js';
import { TxHash } from '../tx-hash.js';
import { DecodeError, joinPath } from './decode-error.js';

const INTEGER_STRING = /^(0x[0-9a-fA-F]+|[0-9]+)$/;

export type JsonObject = Record<string, unknown>;

export function describe(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v.length > 40 ? `string "${v.slice(0, 37)}..."` : `string "${v}"`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

function fail(path: string, key: string | number | undefined, reason: string): DecodeError {
  return new DecodeError(joinPath(path, key), reason);
}

export function readObject(v: unknown, path: string, key?: string | number): JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw fail(path, key, `expected an object, received ${describe(v)}`);
  }
  return v as JsonObject;
}

export function readArray(v: unknown, path: string, key?: string | number, maxLength?: number): unknown[] {
  if (!Array.isArray(v)) throw fail(path, key, `expected an array, received ${describe(v)}`);
  if (maxLength !== undefined && v.length > maxLength) {
    throw fail(path, key, `at most ${maxLength} entries allowed, received ${v.length}`);
  }
  return v;
}

export function readString(v: unknown, path: string, key?: string | number): string {
  if (typeof v !== 'string') throw fail(path, key, `expected a string, received ${describe(v)}`);
  return v;
}

export function readBoolean(v: unknown, path: string, key?: string | number): boolean {
  if (typeof v !== 'boolean') throw fail(path, key, `expected a boolean, received ${describe(v)}`);
  return v;
}

/** A field element as a bigint: strings only, `0x` hex of any length or decimal digits (read as decimal). */
export function readFieldValue(v: unknown, path: string, key?: string | number): bigint {
  if (typeof v !== 'string') throw fail(path, key, `expected a field element string, received ${describe(v)}`);
  try {
    return parseFieldString(v);
  } catch (e) {
    throw fail(path, key, (e as Error).message);
  }
}

export function readFr(v: unknown, path: string, key?: string | number): Fr {
  const x = readFieldValue(v, path, key);
  return x === 0n ? Fr.ZERO : new Fr(x);
}

/** A list of field elements; with `maxLength`, longer lists are rejected. */
export function readFrArray(v: unknown, path: string, key?: string | number, maxLength?: number): Fr[] {
  const arr = readArray(v, path, key, maxLength);
  const out = new Array<Fr>(arr.length);
  const base = key === undefined ? path : joinPath(path, key);
  for (let i = 0; i < arr.length; i++) out[i] = readFr(arr[i], base, i);
  return out;
}

/** A JSON number only (zod `z.number()`), required to be an integer in [min, max]. */
export function readStrictInteger(
  v: unknown,
  path: string,
  key: string | number | undefined,
  min: number,
  max: number,
) {
  if (typeof v !== 'number') throw fail(path, key, `expected a number, received ${describe(v)}`);
  if (!Number.isInteger(v) || v < min || v > max) {
    throw fail(path, key, `expected an integer from ${min} to ${max}, received ${v}`);
  }
  return v;
}

/**
 * An integer coerced the way 4.1.2's number schemas do (UInt32, BlockNumber, CheckpointNumber...): a JSON
 * number, or a string of decimal digits or 0x hex; then range-checked.
 */
export function readInteger(
  v: unknown,
  path: string,
  key: string | number | undefined,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'bigint') n = Number(v);
  else if (typeof v === 'string' && INTEGER_STRING.test(v)) n = Number(v);
  else throw fail(path, key, `expected an integer, received ${describe(v)}`);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw fail(path, key, `expected an integer from ${min} to ${max}, received ${describe(v)}`);
  }
  return n;
}

export function readU32(v: unknown, path: string, key?: string | number): number {
  return readInteger(v, path, key, 0, 0xffffffff);
}

/** A bigint coerced like 4.1.2's BigInt/UInt64 schemas (number, decimal or 0x string), checked against [0, max]. */
export function readBigInt(v: unknown, path: string, key: string | number | undefined, max: bigint): bigint {
  let x: bigint;
  if (typeof v === 'bigint') x = v;
  else if (typeof v === 'number' && Number.isSafeInteger(v)) x = BigInt(v);
  else if (typeof v === 'string' && INTEGER_STRING.test(v)) x = BigInt(v);
  else throw fail(path, key, `expected an integer or a decimal string, received ${describe(v)}`);
  if (x < 0n || x > max) throw fail(path, key, `value ${x} is out of range [0, ${max}]`);
  return x;
}

export const U64_MAX = (1n << 64n) - 1n;
export const U128_MAX = (1n << 128n) - 1n;

export function readAztecAddress(v: unknown, path: string, key?: string | number): AztecAddress {
  if (typeof v !== 'string') throw fail(path, key, `expected an address string, received ${describe(v)}`);
  try {
    return AztecAddress.fromString(v);
  } catch (e) {
    throw fail(path, key, (e as Error).message);
  }
}

export function readEthAddress(v: unknown, path: string, key?: string | number): EthAddress {
  if (typeof v !== 'string') throw fail(path, key, `expected an Ethereum address string, received ${describe(v)}`);
  try {
    return EthAddress.fromString(v);
  } catch (e) {
    throw fail(path, key, (e as Error).message);
  }
}

export function readTxHash(v: unknown, path: string, key?: string | number): TxHash {
  if (typeof v !== 'string') throw fail(path, key, `expected a tx hash string, received ${describe(v)}`);
  try {
    return TxHash.fromString(v);
  } catch (e) {
    throw fail(path, key, (e as Error).message);
  }
}

export function readBlockHash(v: unknown, path: string, key?: string | number): BlockHash {
  return new BlockHash(readFieldValue(v, path, key));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Binary data as 4.1.2 sends it: a standard, padded base64 string, or the `{type: 'Buffer', data: [...]}`
 * object Node's Buffer.toJSON produces. With `expectedLength`, other sizes are rejected.
 */
export function readBuffer(v: unknown, path: string, key?: string | number, expectedLength?: number): Buffer {
  let buf: Buffer;
  if (typeof v === 'string') {
    if (v.length % 4 !== 0 || !BASE64.test(v)) throw fail(path, key, 'not a valid base64 string');
    buf = Buffer.from(v, 'base64');
  } else if (typeof v === 'object' && v !== null && (v as JsonObject).type === 'Buffer') {
    const data = (v as JsonObject).data;
    if (!Array.isArray(data) || !data.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
      throw fail(path, key, 'a Buffer object needs a data array of bytes');
    }
    buf = Buffer.from(data as number[]);
  } else {
    throw fail(path, key, `expected a base64 string, received ${describe(v)}`);
  }
  if (expectedLength !== undefined && buf.length !== expectedLength) {
    throw fail(path, key, `expected ${expectedLength} bytes, received ${buf.length}`);
  }
  return buf;
}
