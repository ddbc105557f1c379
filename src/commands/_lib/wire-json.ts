import { RPC_METHODS, type RpcMethodName, type RpcMethods } from '../../rpc/method-table.js';
import type { ResultCodec, ResultOf } from '../../rpc/rpc-method.js';

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

/**
 * A decoded result back in the wire JSON the node sent (the `--json` output): the method table's codec
 * encodes it, so the CLI prints what the node answered without a JSON round trip of its own.
 */
export function wireOf<N extends RpcMethodName>(method: N, value: ResultOf<RpcMethods[N]>): unknown {
  const codec = RPC_METHODS[method].result as ResultCodec<ResultOf<RpcMethods[N]>>;
  return value === undefined ? null : codec.encode(value);
}
