import type { StatusReport } from '../rpc/server/rpc-listener.js';
import { RpcService } from '../rpc/server/rpc-service.js';
import type { BlockProducer } from './chain/block-producer.js';
import { chainMinedTxLookup } from './chain/chain-mined-tx-lookup.js';
import { ChainService } from './chain/chain-service.js';
import type { SettingSource } from './config/resolve-config.js';
import type { NodeConfig, SettingKey } from './config/settings.js';
import { type Clock, SystemClock } from './lifecycle/clock.js';
import type { NodeState } from './lifecycle/node-state.js';
import { ServiceRunner } from './lifecycle/service-runner.js';
import type { Logger, NodeLogger } from './logging/logger.js';
import { MempoolService } from './mempool/mempool-service.js';
import { MetricsService } from './metrics/metrics-service.js';
import { NodeMetrics } from './metrics/node-metrics.js';
import { NodeEventFeed } from './node-event-feed.js';
import { NodeEvents } from './node-events.js';
import { OperationsService } from './operations/operations-service.js';
import { PACKAGE_VERSION } from './package-version.js';
import { buildRpcHandlers } from './rpc-handlers.js';
import { SnapshotBootstrapService } from './snapshots/snapshot-bootstrap-service.js';
import { DatabaseService } from './store/database-service.js';
import { RpcUpstream } from './sync/rpc-upstream.js';
import { UpstreamBlockSource } from './sync/upstream-block-source.js';
import { settingDiffersFromDefault, settingGivenBySource } from './sync/upstream-identity.js';
import { UpstreamSettlement } from './sync/upstream-settlement.js';
import { upstreamTxForwarder } from './sync/upstream-tx-forwarder.js';
import { ValidatorService } from './validators/validator-service.js';

export interface L2NodeOptions {
  /**
   * Where the services' start-up banners (prefunded accounts, a new admin key) go; stdout by default.
   * `l2node start` passes a no-op and prints one banner of its own with the same facts.
   */
  readonly print?: (text: string) => void;
  /**
   * Where each setting came from (resolveConfig): a follower checks the chain identity settings given by flag or
   * env against its upstream's and takes the others from it. Without it, a value other than the default counts
   * as given.
   */
  readonly sources?: Readonly<Record<SettingKey, SettingSource>>;
}

/**
 * The composition root of the daemon: builds every service from the config, starts them in order and
 * stops them in reverse. Services reach each other only through what this class hands them.
 */
export class L2Node {
  state: NodeState = 'starting';
  readonly startedAt = new Date();
  readonly log: Logger;
  readonly database: DatabaseService;
  /** The node's one clock (DESIGN section 4). */
  readonly clock: Clock = new SystemClock();
  /** World state, chain store, dev L1 stand-in and sequencer. */
  readonly chain: ChainService;
  /** The tx pool and the fee model; they observe every block of the chain. */
  readonly mempool: MempoolService;
  /** The validator committee (keystore, signatures, sentinel, slashing) when a keystore is configured. */
  readonly validators: ValidatorService;
  /** Follower mode (--sync-from): the block source fed by the upstream, instead of the sequencer. */
  readonly sync: UpstreamBlockSource | undefined;
  /** Runtime config, pause and resume, rollbacks, snapshot uploads (the nodeAdmin_ operations). */
  readonly operations: OperationsService;
  /** Prometheus GET /metrics on --metrics-port, when set. */
  readonly metrics: MetricsService;
  /** The mempool's changes and the sentinel's slot results (the chain and the operations have emitters of their own). */
  readonly events: NodeEvents;
  /** Started last and stopped first: requests only reach a node whose services all run. */
  readonly rpc: RpcService;
  private readonly runner: ServiceRunner;

  constructor(
    readonly config: NodeConfig,
    readonly logger: NodeLogger,
    options: L2NodeOptions = {},
  ) {
    const print = options.print ?? ((text: string) => process.stdout.write(text));
    this.log = logger.module('node');
    this.events = new NodeEvents((event, err) =>
      this.log.error({ err, event }, `a ${event} listener failed: ${(err as Error).message}`),
    );
    this.runner = new ServiceRunner(this.log);
    this.database = new DatabaseService(config.dataDirectory);
    const upstream = config.syncFrom ? new RpcUpstream({ url: config.syncFrom }) : undefined;
    const settlement = upstream && new UpstreamSettlement(() => this.chain.chain.store, upstream.url);
    this.chain = new ChainService({
      db: () => this.database.db,
      config,
      clock: this.clock,
      log: logger.module('chain'),
      print,
      pendingTxs: () => (this.mempool.running ? this.mempool.mempool : undefined),
      minFees: () => this.mempool.feeModel.minFeesForNextBlock(),
      settlement,
    });
    this.validators = new ValidatorService({
      db: () => this.database.db,
      config,
      chainStore: () => this.chain.chain.store,
      slots: () => this.chain.slots,
      setConsensus: (consensus) => this.chain.sequencer.setCheckpointConsensus(consensus),
      clock: this.clock,
      log: logger.module('validators'),
      onSlot: (result) => this.events.emit('validatorSlot', result),
    });
    this.mempool = new MempoolService({
      db: () => this.database.db,
      worldState: () => this.chain.worldState,
      config,
      log: logger.module('mempool'),
      now: () => this.clock.now(),
      // The next block is built in the current slot (or the next one): txs expiring before it cannot be included.
      validationTimestamp: () => this.chain.slots.slotTimestamp(this.chain.slots.currentSlot()),
      minedTxLookup: () => (this.chain.running ? chainMinedTxLookup(this.chain.chain) : undefined),
      contractClassIdOf: (address) =>
        this.chain.chain.store.contractInstances.get(address)?.currentContractClassId.value,
      // The pool and the fee model change with every block, inside its transaction.
      observe: (observer) => this.chain.chain.addObserver(observer),
      onTxAdded: () => this.chain.sequencer.notifyPendingTx(),
      onPoolChange: (change) => this.events.emit('pool', change),
      forwardTx: upstream && upstreamTxForwarder(upstream, logger.module('sync')),
    });
    this.sync =
      upstream && settlement
        ? new UpstreamBlockSource({
            upstream,
            chain: () => this.chain.chain,
            settlement,
            config,
            isExplicit: options.sources ? settingGivenBySource(options.sources) : settingDiffersFromDefault(config),
            clock: this.clock,
            log: logger.module('sync'),
          })
        : undefined;
    this.operations = new OperationsService({
      config,
      db: () => this.database.db,
      chain: this.chain,
      mempool: this.mempool,
      producer: () => (this.chain.running ? this.blockProducer : undefined),
      nodeState: () => this.state,
      now: () => this.clock.now(),
      log: logger.module('operations'),
    });
    const metrics = new NodeMetrics({
      chain: this.chain,
      mempool: this.mempool,
      operations: this.operations,
      startedAt: this.startedAt,
    });
    this.metrics = new MetricsService({
      port: config.metricsPort,
      host: config.metricsHost,
      metrics,
      log: logger.module('metrics'),
    });
    this.rpc = new RpcService({
      host: config.host,
      port: config.port,
      adminHost: config.adminHost,
      adminPort: config.adminPort,
      maxBodySize: config.rpcMaxBodySize,
      maxBatchSize: config.rpcMaxBatchSize,
      corsOrigin: config.rpcCorsOrigin,
      dataDirectory: config.dataDirectory,
      adminApiKeyHash: config.adminApiKeyHash,
      disableAdminApiKey: config.disableAdminApiKey,
      resetAdminApiKey: config.resetAdminApiKey,
      // Getters: a follower takes these from its upstream at start, before the listeners open.
      versions: {
        get l1ChainId() {
          return config.l1ChainId;
        },
        get rollupVersion() {
          return config.rollupVersion;
        },
        get l2ProtocolContractsHash() {
          return config.protocolContractsHash.toString();
        },
        get l2CircuitsVkTreeRoot() {
          return config.vkTreeRoot.toString();
        },
        packageVersion: PACKAGE_VERSION,
      },
      handlers: buildRpcHandlers(this),
      status: () => this.statusReport(),
      notServing: () => (this.state === 'running' ? undefined : this.state),
      // The admin listener's WebSocket event stream (GET /events): the dashboard's source.
      events: new NodeEventFeed(this),
      observeCall: config.metricsPort === undefined ? undefined : (call) => metrics.observeRpc(call),
      log: logger.module('rpc'),
      print,
    });
  }

  async start(): Promise<void> {
    this.log.info(
      { dataDirectory: this.config.dataDirectory ?? null },
      this.config.dataDirectory
        ? `starting node with data directory ${this.config.dataDirectory}`
        : 'starting node in memory (no --data-directory): nothing is kept after it stops',
    );
    // --snapshot-url: the database is restored from a snapshot before it opens.
    if (this.config.snapshotUrl) await this.runner.start(new SnapshotBootstrapService(this.config, this.log));
    await this.runner.start(this.database);
    await this.runner.start(this.chain);
    // The mempool joins the chain's block observers before the sequencer builds a first block.
    await this.runner.start(this.mempool);
    // The committee is in place before the sequencer builds its first slot.
    await this.runner.start(this.validators);
    // A follower's blocks come from its upstream (checked at start: identity, genesis) instead of the sequencer.
    await this.runner.start(this.sync ?? this.chain.sequencer);
    // Stopped before the producer and the database: a running snapshot upload ends first.
    await this.runner.start(this.operations);
    await this.runner.start(this.metrics);
    await this.runner.start(this.rpc);
    this.state = 'running';
    this.log.info('node running');
  }

  async stop(): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') return;
    this.state = 'stopping';
    await this.runner.stopAll();
    this.state = 'stopped';
  }

  /** What feeds blocks into the chain: the follower's block source, or the dev sequencer. */
  get blockProducer(): BlockProducer {
    return this.sync ?? this.chain.sequencer;
  }

  /** Latest block number of the chain store, 0 at genesis (and before the chain opened). */
  chainTip(): number {
    return this.chain.running ? this.chain.chain.latestBlockNumber : 0;
  }

  /**
   * GET /status: 200 while running, 503 while starting or stopping. `sync.state` says honestly what the node
   * does (starting, syncing with the distance, synced, paused, stopping); `ready` is true only when it serves
   * and follows the chain (synced), for readiness probes.
   */
  statusReport(): StatusReport {
    const serving = this.state === 'running';
    const sync = this.operations.productionStatus();
    const tips = this.chain.running ? this.chain.chain.readTips() : undefined;
    return {
      serving,
      body: {
        status: serving ? 'ok' : this.state,
        state: this.state,
        ready: serving && sync.state === 'synced',
        blockNumber: this.chainTip(),
        sync,
        ...(tips
          ? {
              tips: {
                proposed: tips.proposed.number,
                checkpointed: tips.checkpointed.block.number,
                proven: tips.proven.block.number,
                finalized: tips.finalized.block.number,
              },
            }
          : {}),
        pendingTxs: this.mempool.running ? this.mempool.mempool.pendingTxCount() : 0,
        snapshot: this.operations.snapshotStatus(),
        // Follower mode: the upstream, the distance to it, blocks/s, ETA, and a refused block if any.
        ...(this.sync ? { follower: this.sync.status() } : {}),
      },
    };
  }
}
