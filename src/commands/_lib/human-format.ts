import { abbreviateHex } from '../../ui/text-format.js';

/**
 * Human output of the commands: aligned tables and key/value lists, and hashes shortened to their ends
 * (`--full` shows them whole). Scripts use `--json`, which never shortens anything.
 */

/** `0x25bebe49…8a6a9f` for 32-byte hex values (from 20 digits on); anything shorter, or not hex, as it is. */
export function shortHex(value: string, full: boolean): string {
  return full ? value : abbreviateHex(value, 8, 6, 20);
}

/** Rows under a header, columns padded to their widest cell and separated by two spaces. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** `key  value` lines with the keys padded to the longest; undefined values are left out. */
export function keyValues(pairs: readonly (readonly [string, string | number | boolean | undefined])[]): string {
  const shown = pairs.filter((p): p is readonly [string, string | number | boolean] => p[1] !== undefined);
  const width = Math.max(0, ...shown.map(([k]) => k.length));
  return shown.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/** A Unix time in seconds (number, bigint or decimal string) as ISO text, with the raw value. */
export function formatTimestamp(seconds: string | number | bigint): string {
  const n = Number(seconds);
  if (!Number.isFinite(n) || n <= 0) return String(seconds);
  return `${new Date(n * 1000).toISOString().replace('.000Z', 'Z')} (${seconds})`;
}

/** A JSON value indented, for nested data shown as is. */
export function indentJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), indent);
}
