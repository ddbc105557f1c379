import { CliError } from './cli-error.js';

/**
 * Reads a hex argument (hash, address, field, tag): 0x and up to `bytes` bytes of hex, padded to the full
 * width (the node takes 32-byte params as exactly 64 digits; a user may type `0x01`). The node checks the
 * value further (a field below the modulus...) and its refusal exits 2 like this one.
 */
export function parseHexArgument(raw: string, what: string, bytes = 32): string {
  const s = raw.trim();
  if (new RegExp(`^0x[0-9a-fA-F]{1,${bytes * 2}}$`).test(s)) {
    // 32-byte values are numbers (fields, addresses, tags): a short one is padded. L1 addresses are not.
    return bytes === 32 ? `0x${s.slice(2).toLowerCase().padStart(64, '0')}` : s.toLowerCase();
  }
  throw CliError.usage(`${what} "${raw}" is not 0x + up to ${bytes * 2} hex digits`);
}

/** A tx hash: 0x and exactly 64 hex digits (a hash is not a number, so a short one is a typo, not a value). */
export function parseTxHashArgument(raw: string, what = 'tx hash'): string {
  const s = raw.trim();
  if (/^0x[0-9a-fA-F]{64}$/.test(s)) return s.toLowerCase();
  throw CliError.usage(`${what} "${raw}" is not 0x + 64 hex digits`);
}
