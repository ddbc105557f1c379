/**
 * Errors of the world state. `rpcCode` tells the RPC layer how to answer (docs/architecture.md section 4.4): a bad argument
 * is invalid params, an unreadable block is BLOCK_NOT_AVAILABLE, an operation the current state forbids is
 * INVALID_STATE; a rejected block or fork misuse is an internal condition of the caller.
 */
export type WorldStateErrorCode = 'INVALID_PARAMS' | 'BLOCK_NOT_AVAILABLE' | 'INVALID_STATE' | 'BLOCK_REJECTED';

export abstract class WorldStateError extends Error {
  abstract readonly rpcCode: WorldStateErrorCode;
}

/** A tree id outside 0-4 (including the spec's 5 and 6). */
export class InvalidTreeIdError extends WorldStateError {
  override name = 'InvalidTreeIdError';
  readonly rpcCode = 'INVALID_PARAMS';
}

/** A leaf index, value or argument that cannot be used (outside the tree, not a field element...). */
export class InvalidWorldStateArgumentError extends WorldStateError {
  override name = 'InvalidWorldStateArgumentError';
  readonly rpcCode = 'INVALID_PARAMS';
}

/** A read at a block the world state does not hold: above the tip, or pruned from history. */
export class BlockNotAvailableError extends WorldStateError {
  override name = 'BlockNotAvailableError';
  readonly rpcCode = 'BLOCK_NOT_AVAILABLE';

  constructor(
    readonly requested: number,
    readonly oldestAvailable: number,
    readonly latest: number,
  ) {
    super(
      requested > latest
        ? `Queried block ${requested} not yet synced by the node (node is synced upto ${latest}).`
        : `Block ${requested} is no longer available in world state: history was pruned, the oldest available block is ${oldestAvailable} (latest ${latest}).`,
    );
  }
}

/** A block whose effects cannot be applied, or whose resulting state differs from its header. Nothing was written. */
export class BlockRejectedError extends WorldStateError {
  override name = 'BlockRejectedError';
  readonly rpcCode = 'BLOCK_REJECTED';
}

/** An operation refused in the current state (unwinding below the finalized block, a stale fork...). */
export class WorldStateStateError extends WorldStateError {
  override name = 'WorldStateStateError';
  readonly rpcCode = 'INVALID_STATE';
}

/** What a world state started from an upstream's block (a lazy fork) lacks to answer: fetch it, then ask again. */
export type UpstreamStateNeed =
  | { readonly kind: 'node'; readonly tree: number; readonly level: number; readonly index: number }
  | { readonly kind: 'leaf'; readonly tree: number; readonly index: number }
  | { readonly kind: 'low-leaf'; readonly tree: number; readonly key: bigint }
  | { readonly kind: 'find'; readonly tree: number; readonly value: bigint }
  /** A contract instance or class published on the upstream before the fork (the chain store's part). */
  | { readonly kind: 'contract'; readonly address: bigint }
  | { readonly kind: 'class'; readonly id: bigint };

/**
 * A read of a lazily forked world state (WorldState.openSparse) that touches the upstream's part of a tree which
 * has not been fetched yet. It is thrown instead of an answer, never in place of a wrong one: the caller fetches
 * `need` from the upstream (UpstreamStateFetcher) and asks again.
 */
export class UpstreamStateNeededError extends WorldStateError {
  override name = 'UpstreamStateNeededError';
  readonly rpcCode = 'INVALID_STATE';

  constructor(readonly need: UpstreamStateNeed) {
    super(`the fork has not fetched this from its upstream yet: ${describeNeed(need)}`);
  }
}

/** Marks a need carried across a worker boundary in an error message (a worker's error keeps only its message). */
const NEED_MARK = 'upstream state needed: ';

/** The message a worker throws for a need, read back on the main thread by upstreamNeedOf. */
export function upstreamNeedMessage(need: UpstreamStateNeed): string {
  return NEED_MARK + JSON.stringify(need, (_, v) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v));
}

/** The need a worker's error carries (upstreamNeedMessage), as the error the main thread fetches and reruns on. */
export function upstreamNeedOf(err: unknown): UpstreamStateNeededError | undefined {
  const message = (err as Error | undefined)?.message;
  if (typeof message !== 'string' || !message.startsWith(NEED_MARK)) return undefined;
  const need = JSON.parse(message.slice(NEED_MARK.length), (k, v) =>
    (k === 'key' || k === 'value' || k === 'address' || k === 'id') && typeof v === 'string' ? BigInt(v) : v,
  ) as UpstreamStateNeed;
  return new UpstreamStateNeededError(need);
}

function describeNeed(n: UpstreamStateNeed): string {
  switch (n.kind) {
    case 'node':
      return `tree ${n.tree} node at level ${n.level}, index ${n.index}`;
    case 'leaf':
      return `tree ${n.tree} leaf ${n.index}`;
    case 'low-leaf':
      return `tree ${n.tree} low leaf of 0x${n.key.toString(16)}`;
    case 'find':
      return `tree ${n.tree} leaf holding 0x${n.value.toString(16)}`;
    case 'contract':
      return `the contract instance at 0x${n.address.toString(16)}`;
    case 'class':
      return `the contract class 0x${n.id.toString(16)}`;
  }
}

/** An upstream witness that does not prove the upstream's root at the fork's block: refused, nothing kept. */
export class UpstreamWitnessRejectedError extends WorldStateError {
  override name = 'UpstreamWitnessRejectedError';
  readonly rpcCode = 'INVALID_STATE';
}
