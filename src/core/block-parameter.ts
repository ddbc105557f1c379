import { BlockHash } from './block-hash.js';

/**
 * Which block a query reads (docs/architecture.md section 4.6): a block number, the literal `latest`, or a block hash.
 * On the wire a number is a JSON number and a hash is `0x` + 64 hex digits; a decimal string is refused,
 * because 4.1.2 would silently read `"5"` as the hash 0x…05 (docs/aztec-facts.md section 1.5).
 */
export type BlockParameter = number | 'latest' | BlockHash;

const HASH = /^0x[0-9a-fA-F]{64}$/;
const MAX_BLOCK_NUMBER = 2 ** 32 - 1;

export class BlockParameterError extends Error {
  override name = 'BlockParameterError';
}

/** Reads a wire block parameter; the error message says what was expected. */
export function parseBlockParameter(v: unknown): BlockParameter {
  if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= 0 && v <= MAX_BLOCK_NUMBER) return v;
    throw new BlockParameterError(`a block number must be an integer from 0 to ${MAX_BLOCK_NUMBER}, got ${v}`);
  }
  if (v === 'latest') return v;
  if (typeof v === 'string' && HASH.test(v)) return BlockHash.fromString(v);
  throw new BlockParameterError('expected a block number, "latest" or a block hash (0x + 64 hex digits)');
}

export function blockParameterToJson(p: BlockParameter): number | string {
  return typeof p === 'object' ? p.toString() : p;
}
