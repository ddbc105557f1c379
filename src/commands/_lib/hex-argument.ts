import { CliError } from './cli-error.js';

/**
 * Reads a hex argument (hash, address, field, tag): 0x and up to `bytes` bytes of hex. The node checks the
 * value further (a field below the modulus...) and its refusal exits 2 like this one.
 */
export function parseHexArgument(raw: string, what: string, bytes = 32): string {
  const s = raw.trim();
  if (new RegExp(`^0x[0-9a-fA-F]{1,${bytes * 2}}$`).test(s)) return s.toLowerCase();
  throw CliError.usage(`${what} "${raw}" is not 0x + up to ${bytes * 2} hex digits`);
}
