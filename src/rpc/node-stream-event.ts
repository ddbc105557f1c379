/**
 * The messages of the admin listener's event stream (WebSocket `GET /events`, docs/dashboard.md): one JSON object
 * per message, told apart by `type`. The first message of every connection is a `snapshot`; every later one says
 * what changed. Shared by the server (src/rpc/server/event-stream.ts), the client and the dashboard (src/ui), so
 * the shapes here are plain wire JSON: numbers, strings, 0x hex.
 */

/** Path of the stream on the admin listener. */
export const EVENT_STREAM_PATH = '/events';

/** A block by number and hash (0x + 64 hex). */
export interface StreamBlockId {
  readonly number: number;
  readonly hash: string;
}

/** A tip that lies on a checkpoint: its last block and the checkpoint. */
export interface StreamCheckpointedTip {
  readonly block: StreamBlockId;
  readonly checkpoint: StreamBlockId;
}

/** The L2 tips in the v4 shape of node_getL2Tips (spec part 2). */
export interface StreamTips {
  readonly proposed: StreamBlockId;
  readonly checkpointed: StreamCheckpointedTip;
  readonly proven: StreamCheckpointedTip;
  readonly finalized: StreamCheckpointedTip;
}

/** Who the node is. */
export interface StreamNodeIdentity {
  readonly nodeVersion: string;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  /** dev: the node builds its own blocks; follower: it syncs them from `upstream` (--sync-from). */
  readonly mode: 'dev' | 'follower';
  readonly upstream?: string;
  /** When the node process started, ms since the Unix epoch (the node's clock). */
  readonly startedAt: number;
}

/** One applied block. */
export interface StreamBlock {
  readonly number: number;
  readonly hash: string;
  readonly txCount: number;
  /** Mana the block used (header totalManaUsed). */
  readonly mana: number;
  /** Block timestamp, seconds since the Unix epoch. */
  readonly timestamp: number;
  readonly slot: number;
  /** How long applyBlock took, checks and commit included; absent for blocks applied before the client connected. */
  readonly durationMs?: number;
}

/** The mempool: its size now and what happened to txs since the node started. */
export interface StreamPool {
  readonly pending: number;
  /** Txs that entered the pool since the node started. */
  readonly added: number;
  /** Txs that left the pool unmined, by reason (evicted, replaced, nullifier_spent, expired...). */
  readonly dropped: Readonly<Record<string, number>>;
  /** node_sendTx refusals by code (LOW_PRIORITY_FEE, INSUFFICIENT_FEE_PAYER_BALANCE, NULLIFIER_CONFLICT, TX_INVALID). */
  readonly rejected: Readonly<Record<string, number>>;
}

/** Whether blocks are produced or synced now (the `sync` part of GET /status). */
export interface StreamProduction {
  readonly state: 'starting' | 'syncing' | 'synced' | 'paused' | 'stopping';
  /** The block producer: `sequencer`, or the follower's block source. */
  readonly producer: string | null;
  /** Who holds production paused: the operator (nodeAdmin_pauseSync), a rollback, a snapshot copy. */
  readonly pausedBy: readonly string[];
  readonly blockNumber: number;
}

/** A follower's progress towards its upstream; figures that cannot be measured yet are absent. */
export interface StreamSyncProgress {
  /** syncing, synced, paused, refused, diverged, unreachable (or starting). */
  readonly state: string;
  readonly upstream: string;
  /** This node's latest block. */
  readonly blockNumber: number;
  /** The upstream's latest block, once polled. */
  readonly targetBlockNumber?: number;
  /** Blocks behind the upstream, once polled. */
  readonly behind?: number;
  /** Percent of the upstream's chain this node has (0 to 100), once polled. */
  readonly percent?: number;
  /** Blocks applied per second over the last seconds, once measurable. */
  readonly blocksPerSecond?: number;
  /** Seconds to the target at that rate, when behind and measurable. */
  readonly etaSeconds?: number;
  /** ISO time of the last successful poll. */
  readonly lastPollAt?: string;
  /** How long the upstream's calls take lately (ms): `slow` from 2 s on average, logged once when it starts. */
  readonly upstreamLatency?: { readonly averageMs: number; readonly lastMs: number; readonly slow: boolean };
  /** Why the sync is stuck on its upstream; it stays until the upstream serves something that verifies. */
  readonly problem?: {
    /** What was refused ("block 12", "checkpoint 5"), or what failed ("upstream"). */
    readonly subject: string;
    readonly message: string;
    /** ISO time it was first seen. */
    readonly since: string;
  };
}

/** A snapshot upload (nodeAdmin_startSnapshotUpload): running or not, its phase and progress, the last result. */
export interface StreamSnapshotUpload {
  readonly running: boolean;
  readonly location?: string;
  readonly phase?: string;
  readonly startedAt?: string;
  readonly progress?: { readonly done: number; readonly total: number; readonly unit: string };
  readonly blockNumber?: number;
  readonly last?: {
    readonly ok: boolean;
    readonly location: string;
    readonly finishedAt: string;
    readonly error?: string;
    /** An upload that succeeded: the index that lists it (what --snapshot-url takes), its file and block. */
    readonly indexUrl?: string;
    readonly dataUrl?: string;
    readonly blockNumber?: number;
    readonly blockHash?: string;
    /** Compressed size. */
    readonly bytes?: number;
    readonly durationMs?: number;
  };
}

/** What the sentinel concluded about one slot of the committee (docs/validators.md). */
export interface StreamValidatorSlot {
  readonly slot: number;
  readonly proposer: string;
  /** The proposer's status: checkpoint-mined, checkpoint-proposed, checkpoint-missed or blocks-missed. */
  readonly status: string;
  readonly attestationsSent: number;
  readonly attestationsMissed: number;
}

/** The committee this node runs, over the sentinel's history window. */
export interface StreamValidators {
  /** False without a keystore (--keystore-directory): the dev sequencer builds every slot alone. */
  readonly enabled: boolean;
  /** Attester keys held here. */
  readonly keys: number;
  /** Validators with history in the window. */
  readonly tracked: number;
  readonly lastProcessedSlot?: number;
  readonly missedProposals: { readonly count: number; readonly total: number };
  readonly missedAttestations: { readonly count: number; readonly total: number };
  /** The latest judged slots, oldest first. */
  readonly recentSlots: readonly StreamValidatorSlot[];
}

/** One L1 tx of the node's publisher: a checkpoint proposal or an epoch proof (bigints as decimal strings). */
export interface StreamL1Tx {
  readonly kind: 'propose' | 'proof';
  /** False: reverted, dropped, or not sent. */
  readonly ok: boolean;
  /** Null when it could not be sent. */
  readonly txHash: string | null;
  readonly checkpoint?: number;
  readonly epoch?: number;
  readonly fromCheckpoint?: number;
  readonly toCheckpoint?: number;
  readonly l1BlockNumber?: string;
  readonly gasUsed?: string;
  readonly blobGasUsed?: string;
  readonly effectiveGasPriceWei?: string;
  /** Why it failed, one line. */
  readonly error?: string;
  readonly seconds: number;
  /** When the node recorded it (ISO 8601). */
  readonly at: string;
}

/** The node's L1 (--l1 anvil, --l1-rpc-urls), as GET /status `l1` shows it (docs/l1.md, Monitoring). */
export interface StreamL1 {
  readonly chainId: number;
  /** Scheme, host and port only. */
  readonly rpcUrl: string;
  readonly rollupAddress: string;
  readonly registryAddress: string;
  /** The account that publishes; its balance in wei (decimal) and whether it is under one proposal's cost. */
  readonly publisher: { readonly address: string; readonly balanceWei?: string; readonly lowBalance?: boolean };
  readonly reachable: boolean;
  readonly blockNumber?: number;
  readonly blockTimestamp?: number;
  readonly lastError?: string;
  readonly checkedAt?: string;
  readonly lastProposal: StreamL1Tx | null;
  readonly lastProof: StreamL1Tx | null;
  /** `down` while the node's anvil is not running or the L1 does not answer, with why. */
  readonly state?: 'up' | 'down';
  readonly downReason?: string;
  readonly inboxAddress?: string;
  readonly outboxAddress?: string;
  readonly feeJuicePortalAddress?: string;
  /** With `--l1 anvil`: whether it runs, its port and restarts, and the accounts it funds (anvil's test keys). */
  readonly anvil?: {
    readonly up: boolean;
    readonly port?: number;
    readonly reason?: string;
    readonly since?: string;
    readonly restarts: number;
    readonly accounts: readonly { readonly address: string; readonly privateKey: string }[];
  };
}

interface StreamEventBase<T extends string> {
  readonly type: T;
  /** When the node emitted it, ms since the Unix epoch (the node's clock). */
  readonly at: number;
}

/** The first message of a connection: everything a client needs to draw the node at once. */
export interface SnapshotEvent extends StreamEventBase<'snapshot'> {
  readonly node: StreamNodeIdentity;
  readonly tips: StreamTips;
  readonly pool: StreamPool;
  readonly production: StreamProduction;
  /** Follower mode only. */
  readonly sync?: StreamSyncProgress;
  readonly snapshotUpload: StreamSnapshotUpload;
  readonly validators: StreamValidators;
  /** With an L1 only, once the node has read it. */
  readonly l1?: StreamL1;
  /** The latest blocks, oldest first. */
  readonly recentBlocks: readonly StreamBlock[];
}

export interface BlockEvent extends StreamEventBase<'block'> {
  readonly block: StreamBlock;
}

export interface TipsEvent extends StreamEventBase<'tips'> {
  readonly tips: StreamTips;
}

/** Blocks above `targetBlockNumber` were removed (a rollback, or a follower's reorg). */
export interface UnwoundEvent extends StreamEventBase<'unwound'> {
  readonly targetBlockNumber: number;
  readonly removed: number;
}

/** The pool changed; sent at most a few times a second, with running totals. */
export interface PoolEvent extends StreamEventBase<'pool'> {
  readonly pool: StreamPool;
}

/** A follower's progress (target, rate, ETA) or sync state changed. */
export interface SyncEvent extends StreamEventBase<'sync'> {
  readonly sync: StreamSyncProgress;
}

/** Block production or sync was paused, or the holders of the pause changed. */
export interface PausedEvent extends StreamEventBase<'paused'> {
  readonly production: StreamProduction;
}

export interface ResumedEvent extends StreamEventBase<'resumed'> {
  readonly production: StreamProduction;
}

/** nodeAdmin_setConfig changed these keys (values as nodeAdmin_getConfig shows them). */
export interface ConfigEvent extends StreamEventBase<'config'> {
  readonly changed: Readonly<Record<string, unknown>>;
}

export interface SnapshotUploadEvent extends StreamEventBase<'snapshotUpload'> {
  readonly snapshotUpload: StreamSnapshotUpload;
}

/** nodeAdmin_rollbackTo finished. */
export interface RollbackEvent extends StreamEventBase<'rollback'> {
  readonly targetBlockNumber: number;
  readonly removedBlocks: number;
  /** Txs the removed blocks held, and how many of them went back to the pool as pending. */
  readonly removedTxs: number;
  readonly returnedTxs: number;
  readonly rederived: boolean;
}

export interface ValidatorSlotEvent extends StreamEventBase<'validatorSlot'> {
  readonly result: StreamValidatorSlot;
}

/** The L1 was polled (every few seconds), or the publisher recorded a tx. */
export interface L1Event extends StreamEventBase<'l1'> {
  readonly l1: StreamL1;
}

export type NodeStreamEvent =
  | SnapshotEvent
  | BlockEvent
  | TipsEvent
  | UnwoundEvent
  | PoolEvent
  | SyncEvent
  | PausedEvent
  | ResumedEvent
  | ConfigEvent
  | SnapshotUploadEvent
  | RollbackEvent
  | ValidatorSlotEvent
  | L1Event;

export type NodeStreamEventType = NodeStreamEvent['type'];

/** Every event type, for clients that check what they receive. */
export const NODE_STREAM_EVENT_TYPES: readonly NodeStreamEventType[] = [
  'snapshot',
  'block',
  'tips',
  'unwound',
  'pool',
  'sync',
  'paused',
  'resumed',
  'config',
  'snapshotUpload',
  'rollback',
  'validatorSlot',
  'l1',
];
