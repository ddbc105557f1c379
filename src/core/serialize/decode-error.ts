/**
 * Thrown when wire data (JSON or binary) cannot be decoded. `path` names the field that was wrong
 * (e.g. `tx.data.constants.txContext.gasSettings.gasLimits.l2Gas`, `header.state.partial.noteHashTree.root`),
 * the message says what was wrong with it. RPC layers turn it into an invalid-params error as is.
 */
export class DecodeError extends Error {
  override name = 'DecodeError';

  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(path ? `${path}: ${reason}` : reason);
  }
}

/** Joins a parent path and a key or index only when an error message needs it. */
export function joinPath(path: string, key?: string | number): string {
  if (key === undefined) return path;
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}
