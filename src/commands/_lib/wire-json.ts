/**
 * Reading the node's wire JSON for human output without a decoder per type: `at(block, 'header.globalVariables')`.
 * Missing keys read as undefined; the renderers show them as '-'.
 */

/** The value at a dotted path, or undefined. */
export function at(value: unknown, path: string): unknown {
  let v: unknown = value;
  for (const key of path.split('.')) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** The value at a path as text ('-' when absent). */
export function textAt(value: unknown, path: string): string {
  const v = at(value, path);
  if (v === undefined || v === null) return '-';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The array at a path (empty when absent). */
export function listAt(value: unknown, path: string): unknown[] {
  const v = at(value, path);
  return Array.isArray(v) ? v : [];
}

/** A value as the wire JSON the node sent (class instances through their toJSON, bigints as decimal strings). */
export function toWire(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
}
