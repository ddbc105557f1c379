/** A snapshot the node cannot start now (one already runs, nothing to snapshot). */
export class SnapshotRefusedError extends Error {
  override name = 'SnapshotRefusedError';
}
