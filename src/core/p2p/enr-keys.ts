/**
 * The Aztec entries of a node's ENR (4.1.2 AZTEC_ENR_KEY and AZTEC_ENR_CLIENT_VERSION_KEY). The record itself is
 * a standard EIP-778 v4 ENR signed with the node's secp256k1 peer key, carrying `ip`, `tcp` and `udp`; the two
 * Aztec keys are plain UTF-8 bytes:
 * - `aztec`: the compressed component versions (compressComponentVersions), which a 4.1.2 node checks before it
 *   dials a peer it discovered;
 * - `ver`: the client's version text.
 * 4.1.2 can also read an 8-byte xxhash64 form of `aztec`, but never writes it (its USE_XX_HASH is false).
 */
export const AZTEC_ENR_KEY = 'aztec';
export const AZTEC_ENR_CLIENT_VERSION_KEY = 'ver';

export function aztecEnrValue(compressedVersions: string): Uint8Array {
  return new TextEncoder().encode(compressedVersions);
}

/** The compressed versions an `aztec` ENR value holds, or undefined for the xxhash form we do not compute. */
export function compressedVersionsFromEnrValue(value: Uint8Array): string | undefined {
  if (value.length === 8) return undefined;
  return new TextDecoder().decode(value);
}
