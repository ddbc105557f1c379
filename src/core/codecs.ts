/**
 * Wire codecs shared by every layer: bigints travel as decimal strings, binary blobs as standard
 * padded base64 (reference aztec-wire.md section 2.1).
 */

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export class CodecError extends Error {
  override name = 'CodecError';
}

export function encodeBigIntDecimal(v: bigint): string {
  return v.toString(10);
}

/** Reads a non-negative decimal string (no sign, no leading zeros except "0"). */
export function decodeBigIntDecimal(s: string): bigint {
  if (typeof s !== 'string' || !DECIMAL.test(s))
    throw new CodecError(`Expected a decimal integer string, got ${clip(s)}`);
  return BigInt(s);
}

/** Reads a bigint the lenient way 4.1.2's BigInt schema does: number, decimal string or 0x hex string. */
export function coerceBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new CodecError(`Expected an integer, got ${v}`);
    return BigInt(v);
  }
  if (typeof v === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(v)) return BigInt(v);
  throw new CodecError(`Expected an integer (number or decimal string), got ${clip(v)}`);
}

export function encodeBase64(buf: Uint8Array): string {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('base64');
}

export function decodeBase64(s: string): Buffer {
  if (typeof s !== 'string' || s.length % 4 !== 0 || !BASE64.test(s)) {
    throw new CodecError(`Expected a base64 string, got ${clip(s)}`);
  }
  return Buffer.from(s, 'base64');
}

export function encodeHex(buf: Uint8Array): string {
  return `0x${Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('hex')}`;
}

export function decodeHex(s: string): Buffer {
  const body = typeof s === 'string' && (s.startsWith('0x') || s.startsWith('0X')) ? s.slice(2) : s;
  if (typeof body !== 'string' || body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) {
    throw new CodecError(`Expected an even-length hex string, got ${clip(s)}`);
  }
  return Buffer.from(body, 'hex');
}

function clip(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
