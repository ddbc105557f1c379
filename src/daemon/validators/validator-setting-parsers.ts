import { EthAddress } from '../../core/eth-address.js';
import { parseBigInt, parseBoolean, parseInteger } from '../config/parsers.js';
import { SettingParseError } from '../config/setting.js';

/**
 * Parsers of the validator and slashing rows of the settings table: the flag or env string, and the JSON value
 * nodeAdmin_setConfig receives for the runtime ones (4.1.2 sends bigints as decimal strings, percentages as
 * numbers, address lists as arrays). Each throws SettingParseError saying what it expected.
 */

/** Comma-separated L1 addresses; an empty value is an empty list. */
export function parseEthAddressList(raw: string): EthAddress[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items.map((s, i) => {
    try {
      return EthAddress.fromString(s);
    } catch (err) {
      throw new SettingParseError(`address ${i + 1} of the list: ${(err as Error).message}`);
    }
  });
}

export function formatEthAddressList(list: readonly EthAddress[]): string {
  return list.length === 0 ? '(none)' : list.map((a) => a.toString()).join(',');
}

/** A JSON array of address strings (or the flag's comma-separated string). */
export function jsonEthAddressList(value: unknown): EthAddress[] {
  if (typeof value === 'string') return parseEthAddressList(value);
  if (!Array.isArray(value)) throw new SettingParseError('expected an array of L1 addresses (0x + 40 hex digits)');
  return value.map((v, i) => {
    try {
      if (typeof v !== 'string') throw new Error('expected an address string');
      return EthAddress.fromString(v);
    } catch (err) {
      throw new SettingParseError(`entry ${i}: ${(err as Error).message}`);
    }
  });
}

/** A share in (0, 1], such as 0.9. */
export function parseFraction(raw: string): number {
  const s = raw.trim();
  const n = Number(s);
  if (!/^[0-9]*\.?[0-9]+$/.test(s) || !(n > 0 && n <= 1)) {
    throw new SettingParseError(`expected a number above 0 and at most 1 (such as 0.9), got "${raw}"`);
  }
  return n;
}

export function jsonFraction(value: unknown): number {
  if (typeof value === 'number' || typeof value === 'string') return parseFraction(String(value));
  throw new SettingParseError('expected a number above 0 and at most 1');
}

/** A non-negative amount as a decimal string (the bigint wire form) or a safe integer. */
export function jsonAmount(value: unknown): bigint {
  if (typeof value === 'string') return parseBigInt(0n)(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return parseBigInt(0n)(String(value));
  throw new SettingParseError('expected a non-negative integer amount as a decimal string');
}

export function jsonCount(min: number, max: number): (value: unknown) => number {
  return (value) => {
    if (typeof value === 'number' || typeof value === 'string') return parseInteger(min, max)(String(value));
    throw new SettingParseError(`expected an integer from ${min} to ${max}`);
  };
}

export function jsonBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return parseBoolean(value);
  throw new SettingParseError('expected true or false');
}
