import { AztecAddress } from '../../core/aztec-address.js';
import { EthAddress } from '../../core/eth-address.js';
import { Fr } from '../../core/fr.js';
import { type AllowedSetupFunction, parseAllowedSetupList } from '../mempool/tx-checks/allowed-setup-function.js';
import { SettingParseError } from './setting.js';

/** Parsers shared by the settings table; each throws SettingParseError saying what it expected. */

export function parseInteger(min: number, max: number): (raw: string) => number {
  return (raw) => {
    const s = raw.trim();
    if (!/^-?[0-9]+$/.test(s)) throw new SettingParseError(`expected an integer from ${min} to ${max}, got "${raw}"`);
    const n = Number(s);
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new SettingParseError(`expected an integer from ${min} to ${max}, got ${s}`);
    }
    return n;
  };
}

/** A non-negative decimal (0, 3, 0.5), at most `max`. */
export function parseNonNegativeDecimal(max: number): (raw: string) => number {
  return (raw) => {
    const s = raw.trim();
    const n = Number(s);
    if (!/^[0-9]+(\.[0-9]+)?$/.test(s) || !(n <= max)) {
      throw new SettingParseError(`expected a non-negative decimal up to ${max} (such as 0.5 or 3), got "${raw}"`);
    }
    return n;
  };
}

export function parsePort(raw: string): number {
  return parseInteger(0, 65535)(raw);
}

export function parseBigInt(min: bigint): (raw: string) => bigint {
  return (raw) => {
    const s = raw.trim();
    if (!/^[0-9]+$/.test(s)) throw new SettingParseError(`expected a non-negative integer, got "${raw}"`);
    const v = BigInt(s);
    if (v < min) throw new SettingParseError(`expected an integer >= ${min}, got ${s}`);
    return v;
  };
}

export function parseBoolean(raw: string): boolean {
  const s = raw.trim().toLowerCase();
  if (s === 'true' || s === '1' || s === 'yes' || s === 'on') return true;
  if (s === 'false' || s === '0' || s === 'no' || s === 'off' || s === '') return false;
  throw new SettingParseError(`expected true or false, got "${raw}"`);
}

/**
 * A SHA-256 digest as 64 hex digits, either case (as sha256sum or another tool prints it), kept in lower
 * case: the stored form of the admin API key hash (spec part 5).
 */
export function parseSha256Hex(raw: string): string {
  const s = raw.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(s)) {
    throw new SettingParseError(
      'expected a SHA-256 hash as 64 lowercase hex digits, upper case accepted (printf %s "$KEY" | sha256sum)',
    );
  }
  return s.toLowerCase();
}

/** Sizes such as 1mb, 512kb, 1048576 (bytes). */
export function parseByteSize(raw: string): number {
  const m = /^([0-9]+)\s*(b|kb|mb|gb)?$/i.exec(raw.trim());
  if (!m) throw new SettingParseError(`expected a size such as 1mb, 512kb or 1048576, got "${raw}"`);
  const unit = (m[2] ?? 'b').toLowerCase();
  const mult = unit === 'gb' ? 1024 ** 3 : unit === 'mb' ? 1024 ** 2 : unit === 'kb' ? 1024 : 1;
  const n = Number(m[1]) * mult;
  if (!Number.isSafeInteger(n) || n < 1) throw new SettingParseError(`size out of range: "${raw}"`);
  return n;
}

export function parseHost(raw: string): string {
  const s = raw.trim();
  if (s.length === 0 || /\s/.test(s)) throw new SettingParseError(`expected a host name or IP address, got "${raw}"`);
  return s;
}

export function parseEnum<T extends string>(values: readonly T[]): (raw: string) => T {
  return (raw) => {
    const s = raw.trim() as T;
    if (!values.includes(s)) throw new SettingParseError(`expected one of ${values.join(', ')}, got "${raw}"`);
    return s;
  };
}

export function parseEthAddress(raw: string): string {
  try {
    return EthAddress.fromString(raw.trim()).toString();
  } catch (err) {
    throw new SettingParseError((err as Error).message);
  }
}

export function parseNonEmpty(raw: string): string {
  if (raw.trim().length === 0) throw new SettingParseError('expected a non-empty value');
  return raw;
}

/** A field element as 0x + hex digits (at most 64), below the field modulus. */
export function parseFieldHex(raw: string): Fr {
  const s = raw.trim();
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(s)) {
    throw new SettingParseError(`expected a field element as 0x + up to 64 hex digits, got "${raw}"`);
  }
  try {
    return Fr.fromString(s);
  } catch (err) {
    throw new SettingParseError((err as Error).message);
  }
}

/** The setup allow-list extension (format in allowed-setup-function.ts); an empty value is an empty list. */
export function parseSetupAllowList(raw: string): AllowedSetupFunction[] {
  try {
    return parseAllowedSetupList(raw);
  } catch (err) {
    throw new SettingParseError((err as Error).message);
  }
}

/** An L2 address: 0x + 64 hex digits. */
export function parseAztecAddress(raw: string): AztecAddress {
  try {
    return AztecAddress.fromString(raw.trim());
  } catch (err) {
    throw new SettingParseError(`expected an L2 address (0x + 64 hex digits), got "${raw}": ${(err as Error).message}`);
  }
}

/** An http(s) URL without credentials, e.g. the upstream node a follower syncs from. */
export function parseHttpUrl(raw: string): string {
  const s = raw.trim();
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw new SettingParseError(`expected an http:// or https:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SettingParseError(`expected an http:// or https:// URL, got "${raw}"`);
  }
  if (url.username || url.password) {
    throw new SettingParseError('the URL must not carry credentials (they would be logged and shown in the config)');
  }
  return s.replace(/\/+$/, '');
}
