/** Where a snapshot upload is. */
export type SnapshotPhase = 'pausing' | 'copying' | 'compressing' | 'uploading';

/** How the last snapshot upload ended. */
export type SnapshotResult =
  | {
      readonly ok: true;
      readonly location: string;
      /** The index.json that lists it: what --snapshot-url takes. */
      readonly indexUrl: string;
      readonly dataUrl: string;
      readonly blockNumber: number;
      readonly blockHash: string;
      /** Compressed size. */
      readonly bytes: number;
      readonly finishedAt: string;
      readonly durationMs: number;
    }
  | {
      readonly ok: false;
      readonly location: string;
      readonly error: string;
      readonly finishedAt: string;
    };

/** The snapshot part of GET /status and of the dashboard's "snapshot" event. */
export interface SnapshotStatus {
  readonly running: boolean;
  readonly location?: string;
  readonly phase?: SnapshotPhase;
  readonly startedAt?: string;
  /** Progress of the current phase: database pages copied, or bytes compressed or uploaded. */
  readonly progress?: { readonly done: number; readonly total: number; readonly unit: 'pages' | 'bytes' };
  /** The block the running snapshot holds. */
  readonly blockNumber?: number;
  readonly last?: SnapshotResult;
}

/** No upload has run since the node started. */
export const NO_SNAPSHOT_YET: SnapshotStatus = Object.freeze({ running: false });
