import {
  type AllowedSetupFunction,
  type AllowedSetupFunctionJson,
  parseAllowedSetupList,
} from '../mempool/tx-checks/allowed-setup-function.js';
import { parseInteger } from './parsers.js';
import { SettingParseError } from './setting.js';

/**
 * Parsers for the JSON values nodeAdmin_setConfig receives (`parseJson` of the runtime rows of the settings
 * table). Each throws SettingParseError saying what it expected and what came.
 */

/**
 * An integer in a range, as a JSON number only: a string is refused (4.1.2 coerced numeric strings for some
 * keys, but a quoted number is a caller's mistake that one rule for every number setting catches).
 */
export function jsonInteger(min: number, max: number): (value: unknown) => number {
  const parse = parseInteger(min, max);
  return (value) => {
    if (typeof value === 'number') return parse(String(value));
    throw new SettingParseError(`expected an integer from ${min} to ${max}, got ${describe(value)}`);
  };
}

/** A value given as a JSON string, parsed like the flag. */
export function jsonString<T>(parse: (raw: string) => T): (value: unknown) => T {
  return (value) => {
    if (typeof value !== 'string') throw new SettingParseError(`expected a string, got ${describe(value)}`);
    return parse(value);
  };
}

/**
 * The setup allow-list extension: an array of 4.1.2 AllowedElement objects (docs/aztec-facts.md section 2.8), or the
 * flag's string form (I:<address>:<selector>[:<flags>],...).
 */
export function jsonAllowList(value: unknown): AllowedSetupFunction[] {
  if (typeof value === 'string') return wrap(() => parseAllowedSetupList(value));
  if (!Array.isArray(value)) {
    throw new SettingParseError(
      `expected an array of {address|classId, selector, ...} objects, got ${describe(value)}`,
    );
  }
  const entries = value.map((e, i) => {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) {
      throw new SettingParseError(`entry ${i}: expected an object, got ${describe(e)}`);
    }
    const o = e as AllowedSetupFunctionJson & Record<string, unknown>;
    const unknown = Object.keys(o).filter(
      (k) => !['address', 'classId', 'selector', 'onlySelf', 'rejectNullMsgSender', 'calldataLength'].includes(k),
    );
    if (unknown.length > 0) throw new SettingParseError(`entry ${i}: unknown keys ${unknown.join(', ')}`);
    if ((o.address === undefined) === (o.classId === undefined)) {
      throw new SettingParseError(`entry ${i}: give exactly one of address and classId`);
    }
    const target = o.address !== undefined ? `I:${String(o.address)}` : `C:${String(o.classId)}`;
    const flags: string[] = [];
    if (o.onlySelf !== undefined && typeof o.onlySelf !== 'boolean') {
      throw new SettingParseError(`entry ${i}: onlySelf must be a boolean`);
    }
    if (o.rejectNullMsgSender !== undefined && typeof o.rejectNullMsgSender !== 'boolean') {
      throw new SettingParseError(`entry ${i}: rejectNullMsgSender must be a boolean`);
    }
    if (o.onlySelf) flags.push('os');
    if (o.rejectNullMsgSender) flags.push('rn');
    if (o.calldataLength !== undefined) {
      if (!Number.isInteger(o.calldataLength) || (o.calldataLength as number) < 0) {
        throw new SettingParseError(`entry ${i}: calldataLength must be a non-negative integer`);
      }
      flags.push(`cl=${o.calldataLength}`);
    }
    const text = `${target}:${String(o.selector)}${flags.length > 0 ? `:${flags.join('+')}` : ''}`;
    const [parsed] = wrap(() => parseAllowedSetupList(text), `entry ${i}: `);
    const entry = parsed as AllowedSetupFunction;
    // The string form only carries flags that are set; keep explicit false values as given.
    return {
      ...entry,
      ...(o.onlySelf === false ? { onlySelf: false } : {}),
      ...(o.rejectNullMsgSender === false ? { rejectNullMsgSender: false } : {}),
    } as AllowedSetupFunction;
  });
  return entries;
}

function wrap<T>(fn: () => T, prefix = ''): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof SettingParseError) throw err;
    throw new SettingParseError(`${prefix}${(err as Error).message}`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 60 ? `${value.slice(0, 60)}...` : value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
