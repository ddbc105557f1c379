import type { Fr } from '../../core/fr.js';
import { MAX_LOGS_PER_TAG } from '../store/chain-log-queries.js';

/** A page of logs per tag, as node_getPrivateLogsByTags and node_getPublicLogsByTagsFromContract answer. */
export type TagPages<L> = (tags: Fr[], page: number) => Promise<readonly (readonly L[])[]>;

/**
 * Page `page` of each tag's logs on a lazy fork: in chain order, the upstream's logs below the fork's first block
 * (`first`), then this node's own (from `first` on: the fork block's checkpoint, stored here, and the blocks built
 * here). The upstream is asked for the same page (its logs come in chain order too, so its pages before a page
 * holding a log of block `first` or later are all full and all below it); only when that page is empty is it
 * asked for earlier ones, to count the tag's logs below `first`.
 */
export async function lazyForkTagPage<L extends { readonly blockNumber: number }>(
  tags: Fr[],
  page: number,
  first: number,
  upstream: TagPages<L>,
  local: TagPages<L>,
): Promise<L[][]> {
  const per = MAX_LOGS_PER_TAG;
  const theirs = await upstream(tags, page);
  /** Per tag: its upstream logs below `first` on this page, and how many it has below `first` in all. */
  const below = theirs.map((logs) => logs.filter((l) => l.blockNumber < first));
  const counts = below.map((logs) => (logs.length > 0 || page === 0 ? page * per + logs.length : undefined));
  // An empty page past the first: walk back to the last page with logs below `first` to count them.
  for (let p = page - 1; p >= 0 && counts.some((c) => c === undefined); p--) {
    const open = tags.map((_, i) => i).filter((i) => counts[i] === undefined);
    const earlier = await upstream(
      open.map((i) => tags[i] as Fr),
      p,
    );
    open.forEach((i, j) => {
      const n = (earlier[j] ?? []).filter((l) => l.blockNumber < first).length;
      if (n > 0 || p === 0) counts[i] = p * per + n;
    });
  }
  // Then this node's logs: each tag's slice of them, by local page.
  const wanted = tags.map((_, i) => {
    const upstreamCount = counts[i] as number;
    const from = Math.max(0, page * per - upstreamCount);
    return { from, take: per - (below[i] as L[]).length };
  });
  const localPages = new Map<number, readonly (readonly L[])[]>();
  for (const w of wanted) {
    if (w.take <= 0) continue;
    for (let p = Math.floor(w.from / per); p <= Math.floor((w.from + w.take - 1) / per); p++) {
      if (!localPages.has(p)) localPages.set(p, await local(tags, p));
    }
  }
  return tags.map((_, i) => {
    const { from, take } = wanted[i] as { from: number; take: number };
    const ours: L[] = [];
    for (let k = from; k < from + take; k++) {
      const log = localPages.get(Math.floor(k / per))?.[i]?.[k % per];
      if (!log) break;
      ours.push(log);
    }
    return [...(below[i] as L[]), ...ours];
  });
}
