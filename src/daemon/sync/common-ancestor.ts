/**
 * The highest block number in [low, high] at which two chains hold the same block, given they agree at `low`
 * (genesis, or the finalized block). A block hash commits to every block before it (through the header's last
 * archive), so agreement holds up to some height and never again above it: a binary search, after trying
 * `high` itself (the usual case: the upstream dropped blocks above a height that both chains still share).
 */
export async function findCommonAncestor(
  low: number,
  high: number,
  agreesAt: (blockNumber: number) => Promise<boolean>,
): Promise<number> {
  if (high <= low || (await agreesAt(high))) return Math.max(low, high);
  let lo = low;
  let hi = high - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (await agreesAt(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
