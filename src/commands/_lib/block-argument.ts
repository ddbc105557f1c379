import { Args } from '@oclif/core';
import { CliError } from './cli-error.js';

/** A block as the commands take it: a number, `latest`, or a block hash (docs/architecture.md section 4.6). */
export type BlockArgument = number | 'latest' | `0x${string}`;

/** The optional `block` argument of the query commands (read with parseBlockArgument); the latest block by default. */
export const blockArg = Args.string({
  ignoreStdin: true,
  description: 'A block number, "latest" or a block hash.',
  default: 'latest',
});

/** Reads a block argument or flag; the error names what was given and what is expected. */
export function parseBlockArgument(raw: string, what = 'block'): BlockArgument {
  const s = raw.trim();
  if (s === 'latest') return 'latest';
  if (/^[0-9]+$/.test(s)) {
    const n = Number(s);
    if (Number.isSafeInteger(n) && n <= 0xffffffff) return n;
  }
  if (/^0x[0-9a-fA-F]{64}$/.test(s)) return s.toLowerCase() as `0x${string}`;
  throw CliError.usage(`${what} "${raw}" is not a block number, "latest" or a block hash (0x + 64 hex digits)`);
}

/** `block 12`, `the latest block`, `block 0x12ab…`: for messages. */
export function describeBlock(block: BlockArgument): string {
  return block === 'latest' ? 'the latest block' : `block ${block}`;
}
