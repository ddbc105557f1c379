import type { z } from 'zod';
import { AztecAddress } from '../core/aztec-address.js';
import { BlockHash } from '../core/block-hash.js';
import { type BlockParameter, parseBlockParameter } from '../core/block-parameter.js';
import { EthAddress } from '../core/eth-address.js';
import { Fr } from '../core/fr.js';
import { describe } from '../core/serialize/json-reader.js';
import { Tx, type TxJson } from '../core/tx/tx.js';
import { TxHash } from '../core/tx-hash.js';
import type { WireType } from './rpc-method.js';

/**
 * The wire types of the method table's params. Each reads one JSON value and fails with a message of
 * the form "expected <what>, got <what came>", which the server prefixes with the param index and name.
 * A wire type holds how to build its zod schema, not the schema: the server builds a method's schemas with the
 * first call of that method (src/rpc/server/param-parser.ts), and the CLI's clients, which read this table for
 * the names and result codecs, load no zod at all (issue 27: zod and the table's schemas were a third of
 * `l2node query tips`).
 */

/** A wire type from a reader that throws when the value is wrong; its message becomes the zod issue. */
export function wireType<In, Out>(type: string, expected: string, read: (v: unknown) => Out): WireType<In, Out> {
  return {
    type,
    schema: (zod) =>
      zod.unknown().transform((v, ctx): Out => {
        try {
          return read(v);
        } catch (err) {
          const why = err instanceof Error && err.message ? err.message : '';
          ctx.addIssue({
            code: 'custom',
            message: `expected ${expected}, got ${describe(v)}${why ? ` (${why})` : ''}`,
          });
          return zod.NEVER;
        }
      }),
  };
}

/** Fails without a reason of its own: the "expected ..., got ..." message says it all. */
class Refused extends Error {
  constructor() {
    super('');
  }
}

export function integer(min: number, max: number): WireType<number, number> {
  return wireType(`integer ${min}..${max}`, `an integer from ${min} to ${max}`, (v) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new Refused();
    return v;
  });
}

export const boolean: WireType<boolean, boolean> = wireType('boolean', 'true or false', (v) => {
  if (typeof v !== 'boolean') throw new Refused();
  return v;
});

export function string(maxLength: number): WireType<string, string> {
  return wireType('string', `a string of at most ${maxLength} characters`, (v) => {
    if (typeof v !== 'string' || v.length > maxLength) throw new Refused();
    return v;
  });
}

export const nonEmptyString: WireType<string, string> = wireType('string', 'a non-empty string', (v) => {
  if (typeof v !== 'string' || v.trim().length === 0) throw new Refused();
  return v;
});

/** Number, "latest" or block hash (docs/architecture.md section 4.6). */
export const blockParameter: WireType<number | 'latest' | string, BlockParameter> = wireType(
  'number | "latest" | hex32',
  'a block number, "latest" or a block hash (0x + 64 hex digits)',
  (v) => {
    // A hash-shaped string can still be out of the field: that reason is worth passing on.
    if (typeof v === 'string' && v.startsWith('0x') && v.length === 66) return BlockHash.fromString(v);
    try {
      return parseBlockParameter(v);
    } catch {
      throw new Refused();
    }
  },
);

/**
 * Every 32-byte param (spec parts 3 and 4: "32-byte hex") follows one rule: 0x and exactly 64 hex digits,
 * either case (what the official client sends). Shorter hex and decimal digits are refused, so a caller
 * cannot mean one value and have another read.
 */
const HEX32 = /^0x[0-9a-fA-F]{64}$/;

function hex32<T>(what: string, read: (s: string) => T): WireType<string, T> {
  return wireType('hex32', `${what} (0x + 64 hex digits)`, (v) => {
    if (typeof v !== 'string' || !HEX32.test(v)) throw new Refused();
    return read(v);
  });
}

/** A field element: 32-byte hex below the modulus. */
export const field: WireType<string, Fr> = hex32('a field element', (v) => Fr.fromString(v));

export const blockHash: WireType<string, BlockHash> = hex32('a block hash', (v) => BlockHash.fromString(v));

export const txHash: WireType<string, TxHash> = hex32('a tx hash', (v) => TxHash.fromString(v));

/** An L2 address: 32-byte hex (or the 32 bytes in base64, which 4.1.2 also reads). */
export const aztecAddress: WireType<string, AztecAddress> = wireType(
  'hex32',
  'an L2 address (0x + 64 hex digits)',
  (v) => {
    if (typeof v !== 'string' || (v.startsWith('0x') && !HEX32.test(v))) throw new Refused();
    return AztecAddress.fromString(v);
  },
);

export const ethAddress: WireType<string, EthAddress> = wireType('hex20', 'an L1 address (0x + 40 hex digits)', (v) => {
  if (typeof v !== 'string') throw new Refused();
  return EthAddress.fromString(v);
});

/** A non-negative bigint: a decimal string (the wire form) or a safe integer number. */
export const unsignedBigInt: WireType<string | number, bigint> = wireType(
  'decimal string',
  'a non-negative integer as a decimal string',
  (v) => {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
    if (typeof v === 'string' && /^[0-9]{1,78}$/.test(v)) return BigInt(v);
    throw new Refused();
  },
);

export function arrayOf<In, Out>(item: WireType<In, Out>, maxLength: number): WireType<In[], Out[]> {
  return {
    type: `${item.type}[] (at most ${maxLength})`,
    schema: (zod) =>
      zod.array(item.schema(zod), { error: `expected an array of ${item.type}` }).max(maxLength, {
        error: (issue) => `expected at most ${maxLength} entries, got ${(issue.input as unknown[]).length}`,
      }),
  };
}

/**
 * A transaction in its wire JSON (4.1.2 Tx), read with Tx.fromJSON: the handler gets a Tx, and a bad field
 * is refused with its path (`tx.data.constants...: expected ...`).
 */
export const tx: WireType<TxJson, Tx> = {
  type: 'Tx',
  schema: (zod) =>
    zod.unknown().transform((v, ctx): Tx => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        ctx.addIssue({ code: 'custom', message: `expected a Tx object, got ${describe(v)}` });
        return zod.NEVER;
      }
      try {
        return Tx.fromJSON(v, 'tx');
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return zod.NEVER;
      }
    }),
};

/** Any JSON object, handed over as parsed: the handler checks its keys (NodeAdminConfig against the settings table). */
export function jsonObject(typeName: string): WireType<Record<string, unknown>, Record<string, unknown>> {
  return wireType(typeName, `a ${typeName} object`, (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Refused();
    return v as Record<string, unknown>;
  });
}

type InOf<W> = W extends WireType<infer I, unknown> ? I : never;
type OutOf<W> = W extends WireType<unknown, infer O> ? O : never;
type Shape = Record<string, WireType<unknown, unknown>>;

/**
 * An object of known keys: `required` keys must be present, `optional` ones may be left out (not null,
 * as 4.1.2's plain `.optional()` fields); unknown keys are dropped, as 4.1.2's zod objects do.
 */
export function objectOf<R extends Shape, O extends Shape>(
  typeName: string,
  requiredKeys: R,
  optionalKeys: O,
  /** Refuse keys not named here (instead of ignoring them), naming the first unknown one. */
  options: { strict?: boolean } = {},
): WireType<
  { [K in keyof R]: InOf<R[K]> } & { [K in keyof O]?: InOf<O[K]> },
  { [K in keyof R]: OutOf<R[K]> } & { [K in keyof O]?: OutOf<O[K]> }
> {
  const schema = (zod: typeof z) => {
    const fields: Record<string, z.ZodType> = {};
    for (const [k, w] of Object.entries(requiredKeys)) fields[k] = w.schema(zod);
    for (const [k, w] of Object.entries(optionalKeys)) fields[k] = w.schema(zod).optional();
    return options.strict
      ? zod.strictObject(fields, {
          error: (issue) =>
            issue.code === 'unrecognized_keys'
              ? `unknown ${typeName} key "${String(issue.keys[0]).slice(0, 40)}" (known: ${Object.keys(fields).join(', ')})`
              : `expected a ${typeName} object`,
        })
      : zod.object(fields, { error: `expected a ${typeName} object` });
  };
  return { type: typeName, schema } as never;
}

/** A boolean that may also be null (4.1.2's `optional(z.boolean())` inside option objects): null is unset. */
export const booleanOrNull: WireType<boolean | null, boolean | undefined> = wireType(
  'boolean | null',
  'true, false or null',
  (v) => {
    if (v === null) return undefined;
    if (typeof v !== 'boolean') throw new Refused();
    return v;
  },
);

/** `all`, `current`, or a round number (decimal string or number). */
export const slashRound: WireType<string | number, bigint | 'all' | 'current'> = wireType(
  '"all" | "current" | decimal string',
  '"all", "current" or a round number',
  (v) => {
    if (v === 'all' || v === 'current') return v;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
    if (typeof v === 'string' && /^[0-9]{1,20}$/.test(v)) return BigInt(v);
    throw new Refused();
  },
);
