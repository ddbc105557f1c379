/**
 * What the conformance test asks the official Aztec 4.1.2 client to call on a running node. One entry
 * per method of the method table that 4.1.2 also has with the same params (`compat.aztec === 'same'`)
 * and that the node serves. The test fails when a served method has no case here, so append a case
 * whenever you bind a handler: `method` is the 4.1.2 client's method name (no namespace) and `args`
 * what to pass it (a function when the args need the node, e.g. a block hash it returned).
 * The official client parses every answer with its own zod schemas: that is the check.
 */
export interface ConformanceCase {
  readonly method: string;
  readonly args: readonly unknown[];
}

export const PUBLIC_CASES: readonly ConformanceCase[] = [
  { method: 'getBlockNumber', args: [] },
  { method: 'getNodeVersion', args: [] },
  { method: 'getVersion', args: [] },
  { method: 'getChainId', args: [] },
  { method: 'isReady', args: [] },
];

export const ADMIN_CASES: readonly ConformanceCase[] = [];
