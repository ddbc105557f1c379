import type { EthAddress } from '../eth-address.js';
import { toHex64 } from '../fr.js';

/**
 * What identifies a network: two nodes with any of these different cannot talk (4.1.2 ComponentsVersions). The
 * compressed form is the `<version>` of every gossip topic, the `aztec` key of the ENR and the first field of
 * the STATUS handshake, so it must match 4.1.2's text character for character.
 */
export interface ComponentVersions {
  readonly l1ChainId: number;
  readonly l1RollupAddress: EthAddress;
  readonly rollupVersion: number;
  /** Field elements; the compressed form keeps the first 4 bytes of each. */
  readonly protocolContractsHash: bigint;
  readonly vkTreeRoot: bigint;
}

/** The only layout of the compressed string 4.1.2 knows (its first component). */
export const COMPONENT_VERSIONS_FORMAT = '00';

/**
 * `00-<l1ChainId>-<rollupAddress hex[0:8]>-<rollupVersion>-<protocolContractsHash hex[0:8]>-<vkTreeRoot hex[0:8]>`:
 * decimal numbers, and the first 8 lowercase hex digits (no 0x) of the address and of the two 32-byte fields.
 */
export function compressComponentVersions(v: ComponentVersions): string {
  return [
    COMPONENT_VERSIONS_FORMAT,
    v.l1ChainId,
    v.l1RollupAddress.toString().slice(2, 10),
    v.rollupVersion,
    toHex64(v.protocolContractsHash).slice(2, 10),
    toHex64(v.vkTreeRoot).slice(2, 10),
  ].join('-');
}

/** The components of a compressed version string, in order, with the names a log line uses for them. */
const COMPONENT_NAMES = [
  'version format',
  'L1 chain id',
  'L1 rollup address',
  'rollup version',
  'protocol contracts hash',
  'VK tree root',
] as const;

export type ComponentName = (typeof COMPONENT_NAMES)[number];

/** How a peer's version string differs from ours: the first component that differs, with both values. */
export interface VersionMismatch {
  readonly component: ComponentName;
  readonly expected: string;
  readonly received: string;
}

/**
 * Compares a peer's compressed version string with ours, component by component in 4.1.2's order, and names
 * the first that differs (undefined when they match). A string that does not have six components is a
 * mismatch of the version format. The received text is cut to 80 characters so a hostile peer cannot flood a
 * log line.
 */
export function compareComponentVersions(expected: string, received: string): VersionMismatch | undefined {
  if (expected === received) return undefined;
  const ours = expected.split('-');
  const theirs = received.split('-');
  const clip = (s: string | undefined) => (s === undefined ? '(missing)' : s.slice(0, 80));
  for (let i = 0; i < COMPONENT_NAMES.length; i++) {
    if (ours[i] !== theirs[i]) {
      return { component: COMPONENT_NAMES[i] as ComponentName, expected: clip(ours[i]), received: clip(theirs[i]) };
    }
  }
  // Same six components, so the difference is in extra trailing components.
  return { component: 'version format', expected: clip(expected), received: clip(received) };
}

/** One line for a log: which component differs and both values. */
export function describeVersionMismatch(m: VersionMismatch): string {
  return `${m.component} differs: ours is ${m.expected}, the peer's is ${m.received}`;
}
