/**
 * The component versions the official client compares (docs/aztec-facts.md section 1.2): each travels as an
 * `x-aztec-<key>` response header, and only when the node knows it. A client that expects another value
 * fails with a clear version mismatch instead of an obscure parse error.
 */
export interface ComponentVersions {
  readonly l1ChainId?: number;
  readonly rollupVersion?: number;
  readonly l1RollupAddress?: string;
  readonly l2ProtocolContractsHash?: string;
  readonly l2CircuitsVkTreeRoot?: string;
  readonly packageVersion?: string;
}

const ORDER: readonly (keyof ComponentVersions)[] = [
  'l1ChainId',
  'rollupVersion',
  'l1RollupAddress',
  'l2ProtocolContractsHash',
  'l2CircuitsVkTreeRoot',
  'packageVersion',
];

/** Header name/value pairs, computed once per listener. */
export function versionHeaders(versions: ComponentVersions): [string, string][] {
  const out: [string, string][] = [];
  for (const key of ORDER) {
    const value = versions[key];
    if (value !== undefined) out.push([`x-aztec-${key}`, String(value)]);
  }
  return out;
}
