import { MAX_PROCESSABLE_L2_GAS } from '../core/constants.js';
import { EthAddress } from '../core/eth-address.js';
import { rpcErrors } from '../rpc/errors.js';
import type { StatusReport } from '../rpc/server/rpc-listener.js';
import { RpcService } from '../rpc/server/rpc-service.js';
import { BlockBodyPruner } from './chain/block-body-pruner.js';
import type { BlockProducer } from './chain/block-producer.js';
import { chainMinedTxLookup } from './chain/chain-mined-tx-lookup.js';
import { ChainState, genesisArchiveRoot, worldStateHistoryBlocks } from './chain/chain-state.js';
import type { SettingSource } from './config/resolve-config.js';
import type { NodeConfig, SettingKey } from './config/settings.js';
import { DevTools } from './dev/dev-tools.js';
import { loadDevState } from './dev/load-state.js';
import { LocalNetworkSetup } from './dev/local-network-setup.js';
import { FeeModel } from './fees/fee-model.js';
import type { FeeConfig } from './fees/fee-settings.js';
import { type ForkPlan, planFork, recordedLazyFork, requireLazyForkUpstream } from './fork/fork-plan.js';
import { ForkReplay } from './fork/fork-replay.js';
import { LazyFork, lazyForkBase } from './fork/lazy-fork.js';
import { lazyForkRpcHandlers } from './fork/lazy-fork-rpc-handlers.js';
import { UpstreamStateUnavailableError } from './fork/upstream-state-fetcher.js';
import type { BlobKzg } from './l1/blob-kzg.js';
import type { L1Service } from './l1/l1-service.js';
import { hasL1, l1SettingsConflict } from './l1/l1-settings.js';
import type { L1Settlement } from './l1/l1-settlement.js';
import { type Clock, SystemClock } from './lifecycle/clock.js';
import type { NodeState } from './lifecycle/node-state.js';
import type { Service } from './lifecycle/service.js';
import { ServiceRunner, StartupInterrupted } from './lifecycle/service-runner.js';
import type { Logger, NodeLogger } from './logging/logger.js';
import { NodeLogLines } from './logging/node-log-lines.js';
import { worldStateReader } from './mempool/committed-state-reader.js';
import { Mempool } from './mempool/mempool.js';
import { TOKEN_ALLOWED_SETUP_FUNCTIONS } from './mempool/tx-checks/token-allowed-setup.js';
import { EventLoopLag } from './metrics/event-loop-lag.js';
import { MetricsService } from './metrics/metrics-service.js';
import { NodeEventFeed } from './node-event-feed.js';
import { NodeEvents } from './node-events.js';
import { OperationsService } from './operations/operations-service.js';
import type { ProductionStatus } from './operations/production-status.js';
import type { ConsensusGossip } from './p2p/consensus-gossip.js';
import { P2PService } from './p2p/p2p-service.js';
import { P2P_UPSTREAM, PeerUpstream } from './p2p/peer-upstream.js';
import { PACKAGE_VERSION } from './package-version.js';
import { PublicExecutionPool } from './public-execution/public-execution-pool.js';
import { workerTxValidation } from './public-execution/worker-tx-validation.js';
import { chainStoreContracts } from './public-processor/chain-store-contracts.js';
import { buildRpcHandlers } from './rpc-handlers.js';
import { configuredSequencer } from './sequencer/configured-sequencer.js';
import { genesisFeeJuice, genesisPublicData } from './sequencer/genesis-funding.js';
import { prefundedAccountsBanner } from './sequencer/prefunded-accounts.js';
import type { Sequencer } from './sequencer/sequencer.js';
import type { SequencerConfig } from './sequencer/sequencer-settings.js';
import type { SlotClock } from './sequencer/slot-clock.js';
import { BlockBodyPrunedError } from './store/block-body-pruned-error.js';
import type { ChainStore } from './store/chain-store.js';
import { DataDirectoryLockService } from './store/data-directory-lock.js';
import { DatabaseService } from './store/database-service.js';
import { GenesisImage } from './store/genesis-image.js';
import type { SqliteDatabase } from './store/node-database.js';
import { StoredDataDamagedError } from './store/record-checksum.js';
import { StorageHealth } from './store/storage-health.js';
import { RpcUpstream } from './sync/rpc-upstream.js';
import type { Upstream } from './sync/upstream.js';
import { UpstreamBlockSource } from './sync/upstream-block-source.js';
import { settingDiffersFromDefault, settingGivenBySource } from './sync/upstream-identity.js';
import { UpstreamSettlement } from './sync/upstream-settlement.js';
import { upstreamTxForwarder } from './sync/upstream-tx-forwarder.js';
import { DebugPrintStore } from './tracing/debug-print-store.js';
import { ValidatorService } from './validators/validator-service.js';
import { UpstreamStateNeededError } from './world-state/world-state-errors.js';

export interface L2NodeOptions {
  /**
   * Where the start-up banners (prefunded accounts, a new admin key) go; stdout by default. `l2node start`
   * passes a no-op and prints one banner of its own with the same facts.
   */
  readonly print?: (text: string) => void;
  /**
   * Where each setting came from (resolveConfig): a follower checks the chain identity settings given by flag or
   * env against its upstream's and takes the others from it. Without it, a value other than the default counts
   * as given.
   */
  readonly sources?: Readonly<Record<SettingKey, SettingSource>>;
  /**
   * Aborted when the node must stop while `init` runs (a signal during start-up): what started is stopped
   * again and `init` rejects with StartupInterrupted. Once `init` has answered, `stop()` does the same for `start`.
   */
  readonly signal?: AbortSignal;
}

/**
 * The composition root of the daemon. `L2Node.init` opens the database (restored from a snapshot first when
 * asked) and the chain on it, then builds every service with the concrete objects it needs, so the types show
 * the real graph; `start` starts the services in order and `stop` stops them in reverse. Services reach each
 * other only through what this class hands them.
 */
export class L2Node {
  state: NodeState = 'starting';
  readonly startedAt = new Date();
  readonly log: Logger;
  /** The node's one clock (docs/architecture.md section 4.7). */
  readonly clock: Clock;
  readonly database: DatabaseService;
  /** World state, chain store, slot clock and settlement layer (the dev L1 stand-in, or the upstream). */
  readonly chain: ChainState;
  /** The fee model: the min fees of the next block; it observes every block of the chain. */
  readonly feeModel: FeeModel;
  /** The settlement on the L1's rollup contract, when the node sequences on an L1 (docs/l1.md). */
  private l1Settlement: L1Settlement | undefined;
  /** The KZG of a sequencer on an L1 (blob commitments), on its own thread. */
  private kzg: BlobKzg | undefined;
  /** The tx pool; it observes every block of the chain and feeds the sequencer. */
  readonly mempool: Mempool;
  /** The worker threads public calls run in (simulations, validation, the sequencer's public txs). */
  readonly publicExecution: PublicExecutionPool;
  /** Dev mode: builds the blocks. Absent on a follower. */
  readonly sequencer: Sequencer | undefined;
  /** The built blocks' debug prints, for the node log and receipts (docs/debugging.md). */
  readonly debugPrints: DebugPrintStore;
  /** Dev mode: time warps, snapshots and reverts, the state dumped on exit. Absent on a follower. */
  readonly devTools: DevTools | undefined;
  /** Dev mode: 4.1.2's local network set-up at the first start of a fresh chain (test accounts, BananaFPC). */
  readonly localNetworkSetup: LocalNetworkSetup | undefined;
  /** A fork (--fork-url): makes blocks 0 to N the upstream's before the sequencer builds on them. */
  readonly forkReplay: ForkReplay | undefined;
  /** A lazy fork (--fork-mode lazy): starts at block N and fetches the upstream's state when first read. */
  readonly lazyFork: LazyFork | undefined;
  /** Follower mode (--sync-from): the block source fed by the upstream, instead of the sequencer. */
  readonly sync: UpstreamBlockSource | undefined;
  /** What feeds blocks into the chain: the follower's block source, or the dev sequencer. */
  readonly blockProducer: BlockProducer & Service;
  /** The validator committee (keystore, signatures, sentinel, slashing) when a keystore is configured. */
  readonly validators: ValidatorService;
  /** Runtime config, pause and resume, rollbacks, snapshot uploads (the nodeAdmin_ operations). */
  readonly operations: OperationsService;
  /** The libp2p peer (--p2p-enabled): tx gossip, req/resp, discovery (docs/network.md). */
  readonly p2p: P2PService | undefined;
  /** Prometheus GET /metrics on --metrics-port, when set. */
  readonly metrics: MetricsService;
  /** Tip moves and the periodic status line in the log. */
  private readonly logLines: NodeLogLines;
  /** The mempool's changes and the sentinel's slot results (the chain and the operations have emitters of their own). */
  readonly events: NodeEvents;
  /** Whether the node can write to its data directory (a full disk makes it not ready); none in memory. */
  readonly storage: StorageHealth | undefined;
  /** Started last and stopped first: requests only reach a node whose services all run. */
  readonly rpc: RpcService;
  /** How late the event loop ran lately (GET /status `eventLoopLagMs` and `degraded`). */
  private readonly eventLoopLag = new EventLoopLag();

  /**
   * Opens what the services are built on, then builds them. A failure closes what was opened (the runner's
   * `started database` is stopped again), so nothing is left half-open.
   */
  static async init(config: NodeConfig, logger: NodeLogger, options: L2NodeOptions = {}): Promise<L2Node> {
    const log = logger.module('node');
    const runner = new ServiceRunner(log);
    const interrupt = () => void runner.stopAll();
    options.signal?.addEventListener('abort', interrupt, { once: true });
    log.info(
      { dataDirectory: config.dataDirectory ?? null },
      config.dataDirectory
        ? `starting node with data directory ${config.dataDirectory}`
        : 'starting node in memory (no --data-directory): nothing is kept after it stops',
    );
    const conflict = l1SettingsConflict(config);
    if (conflict) throw new Error(conflict);
    if (hasL1(config) && !config.syncFrom && (config.loadState || config.dumpState)) {
      throw new Error(
        "--load-state and --dump-state are for the dev stand-in: with an L1 the chain lives on the rollup, and the data directory (with the L1's state under l1/) is what restarts it",
      );
    }
    if (config.syncFrom === P2P_UPSTREAM && !config.p2pEnabled) {
      throw new Error('--sync-from p2p follows the P2P network: it needs --p2p-enabled (NODE_P2P_ENABLED)');
    }
    if (config.syncFrom && (config.loadState || config.dumpState)) {
      throw new Error(
        '--load-state and --dump-state are dev mode only: a follower (--sync-from) takes its chain from its upstream',
      );
    }
    try {
      // One node per data directory: nothing touches it before the lock is held.
      if (config.dataDirectory) await runner.start(new DataDirectoryLockService(config.dataDirectory));
      // --snapshot-url: the database is restored from a snapshot before it opens.
      if (config.snapshotUrl) {
        const { SnapshotBootstrapService } = await import('./snapshots/snapshot-bootstrap-service.js');
        await runner.start(new SnapshotBootstrapService(config, log));
      }
      const database = new DatabaseService(config.dataDirectory, config.startupCheckBlocks, genesisImageOf(config));
      await runner.start(database);
      // --load-state: the database takes the dumped state before anything reads it.
      if (config.loadState) loadDevState(database.db, config.loadState, log);
      // The L1 (anvil, the deployment) is in place before the chain opens; the rollup's version is the chain's.
      const l1Stack = hasL1(config) ? await loadL1Stack() : undefined;
      const l1 = l1Stack ? newL1Service(l1Stack, config, database.db, logger, runner.signal) : undefined;
      if (l1) {
        await runner.start(l1);
        // The rollup's constants are the chain's: its version, and (for the slots proposals must land in) its
        // slot and epoch durations, which differ from the flags when attaching to a deployment made elsewhere.
        config.rollupVersion = l1.deployment.rollupVersion;
        config.slotDuration = l1.deployment.slotDuration;
        config.epochDuration = l1.deployment.epochDuration;
      }
      // --fork-url: the upstream's identity and the block to fork, read before the chain opens on them. A lazy
      // fork already in the database (a restart, a loaded dump) continues its own block and needs its upstream.
      const recordedFork = recordedLazyFork(database.db);
      requireLazyForkUpstream(recordedFork, config);
      const fork = config.forkUrl
        ? await planFork(
            config,
            options.sources ? settingGivenBySource(options.sources) : settingDiffersFromDefault(config),
            logger.module('fork'),
            recordedFork,
          )
        : undefined;
      // The consensus codecs (and their secp256k1 signatures) load only on a node of a network.
      const consensusGossip = config.p2pEnabled
        ? (await import('./p2p/consensus-gossip.js')).ConsensusGossip
        : undefined;
      return new L2Node(config, logger, options, runner, database, l1Stack, l1, fork, consensusGossip);
    } catch (err) {
      if (!(err instanceof StartupInterrupted)) {
        log.error({ err: (err as Error).message }, `failed to open the node: ${(err as Error).message}`);
      }
      await runner.stopAll();
      throw err;
    } finally {
      options.signal?.removeEventListener('abort', interrupt);
    }
  }

  private constructor(
    readonly config: NodeConfig,
    readonly logger: NodeLogger,
    options: L2NodeOptions,
    private readonly runner: ServiceRunner,
    database: DatabaseService,
    /** The L1 stack's modules, loaded when the node has an L1. */
    l1Stack: L1Stack | undefined,
    /** The node's L1 (--l1 anvil, --l1-rpc-urls); absent: the dev stand-in alone. */
    readonly l1: L1Service | undefined,
    /** --fork-url: what the fork starts from. */
    fork?: ForkPlan,
    /** The consensus gossip's class, loaded when P2P is on. */
    consensusGossip?: typeof ConsensusGossip,
  ) {
    const print = options.print ?? ((text: string) => process.stdout.write(text));
    this.log = logger.module('node');
    // --fork-mode lazy starts on the upstream's block N (block 0 has nothing to fetch: it forks as a replay).
    const lazy = fork && config.forkMode === 'lazy' && fork.blockNumber > 0 ? fork : undefined;
    this.clock = new SystemClock();
    this.database = database;
    const db = database.db;
    this.events = new NodeEvents((event, err) =>
      this.log.error({ err, event }, `a ${event} listener failed: ${(err as Error).message}`),
    );
    this.storage =
      config.dataDirectory === undefined
        ? undefined
        : new StorageHealth({
            dataDirectory: config.dataDirectory,
            // A committed write of one page (the schema version, unchanged): fails while the disk is still full.
            probe: () => {
              db.pragma(`user_version = ${Number(db.pragma('user_version', { simple: true }))}`);
            },
            log: this.log,
          });
    const isStorageFailure = (err: unknown) => this.storage?.observe(err) ?? false;
    // Damaged stored data was read: no block is built or applied on it (docs/reliability.md).
    const productionHalted = () => this.storage?.productionHalted;
    const upstream: Upstream | undefined =
      config.syncFrom === P2P_UPSTREAM
        ? new PeerUpstream({
            network: () => this.p2p?.running,
            chain: () => this.chain.chain,
            config,
            l1ContractAddresses: l1?.deployment.addresses,
          })
        : config.syncFrom
          ? new RpcUpstream({ url: config.syncFrom, maxResponseSize: config.syncMaxResponseSize })
          : undefined;
    // A follower's settlement layer is its upstream, read through the chain store it is built on; a sequencer
    // with an L1 settles on the rollup contract; else the dev stand-in.
    let settlement: UpstreamSettlement | undefined;
    const settlesOnL1 = l1 && l1Stack && !upstream ? { l1, stack: l1Stack } : undefined;
    if (settlesOnL1 && config.coinbase.equals(EthAddress.ZERO)) {
      // The rollup refuses a zero coinbase; 4.1.2's local network pays its sequencer's own address.
      config.coinbase = EthAddress.fromString(settlesOnL1.l1.publisherWallet().account?.address as string);
    }
    const kzg = settlesOnL1?.stack.BlobKzg.create();
    this.kzg = kzg;
    this.chain = ChainState.open({
      db,
      config,
      clock: this.clock,
      log: logger.module('chain'),
      settlement: upstream
        ? (store) => (settlement = new UpstreamSettlement(store, upstream.url, l1?.deployment.addresses))
        : settlesOnL1 &&
          ((store, slots) =>
            (this.l1Settlement = newL1Settlement(
              settlesOnL1.stack,
              settlesOnL1.l1,
              kzg as BlobKzg,
              config,
              store,
              db,
              slots,
              logger,
              // A committee over the network: the node holding the proposer key of an epoch's last slot proves
              // it, so exactly one node sends each proof (docs/network.md). Until the validators run, none.
              config.p2pEnabled && (config.keyStoreDirectory !== undefined || config.committeeAddresses.length > 0)
                ? (lastSlot) => this.validators?.client?.holdsProposerKey(lastSlot) === true
                : undefined,
            ))),
      l1Contracts: l1?.deployment.addresses,
      genesisTime: settlesOnL1?.l1.deployment.genesisTime,
      forkGenesisTime: fork?.genesisTime,
      sparseBase: lazy ? lazyForkBase(lazy) : undefined,
      genesisImage: database.genesisImage,
    });
    this.l1Settlement?.attach(this.chain.chain);
    print(prefundedAccountsBanner(this.chain.prefundedAccounts, this.chain.sponsoredFpc, this.chain.bananaFpc));
    const chain = this.chain.chain;

    // The fee model and the pool change with every block, inside its transaction: they join the chain's block
    // observers before any block is built or synced.
    this.feeModel = newFeeModel(db, config);
    const l1Settlement = this.l1Settlement;
    // On a real L1 the rollup says the min fee (getManaMinFeeAt over real L1 prices), not the simulated model.
    if (l1Settlement) this.feeModel.setMinFeeSource(() => l1Settlement.currentMinFee());
    // A tx node_sendTx took goes to the upstream (a follower) and to the network (P2P on).
    // A P2P follower's txs reach the network by the gossip below.
    const toUpstream =
      upstream && !(upstream instanceof PeerUpstream)
        ? upstreamTxForwarder(upstream, logger.module('sync'))
        : undefined;
    this.publicExecution = new PublicExecutionPool({
      config,
      databaseFile: () => database.file,
      genesisPublicData: genesisPublicData(config),
      sequencer: !upstream,
      log: logger.module('node'),
    });
    this.mempool = newMempool(db, config, this.chain, this.feeModel, this.clock, {
      log: logger.module('mempool'),
      // A dev chain with 4.1.2's local network genesis allows what that network allows: FPC payments in its
      // BananaCoin. A follower's upstream decides what it takes.
      chainAllowedSetup: this.chain.bananaFpc && !upstream ? TOKEN_ALLOWED_SETUP_FUNCTIONS : undefined,
      offload: workerTxValidation(this.publicExecution),
      onPoolChange: (change) => this.events.emit('pool', change),
      forwardTx:
        toUpstream || config.p2pEnabled
          ? async (tx) => {
              await toUpstream?.(tx);
              await this.p2p?.publishTx(tx);
            }
          : undefined,
    });
    // A committee over the network (docs/network.md): proposals and attestations travel by gossip.
    const consensus =
      consensusGossip && (config.keyStoreDirectory !== undefined || config.committeeAddresses.length > 0)
        ? new consensusGossip({
            chain: () => chain,
            slots: this.chain.slots,
            l1ChainId: config.l1ChainId,
            rollupVersion: config.rollupVersion,
            validators: () => this.validators.client,
            mempool: this.mempool,
            blockTxs: () => this.publicExecution.blockTxRunner(),
            log: logger.module('p2p'),
          })
        : undefined;
    this.p2p = config.p2pEnabled
      ? new P2PService({
          config,
          chain: () => chain,
          mempool: this.mempool,
          log: logger.module('p2p'),
          ...(consensus ? { consensus } : {}),
        })
      : undefined;
    chain.addObserver(this.mempool);
    chain.addObserver(this.feeModel);
    if (config.blockBodyHistoryBlocks > 0) {
      chain.addObserver(new BlockBodyPruner(chain.store, config.blockBodyHistoryBlocks));
    }

    this.sync =
      upstream && settlement
        ? new UpstreamBlockSource({
            upstream,
            chain: () => chain,
            settlement,
            // A follower with an L1 takes its upstream's checkpoints only as the rollup holds them.
            l1:
              l1 &&
              l1Stack?.followerL1Check({
                rpcUrls: config.l1RpcUrls ?? [],
                deployment: l1.deployment,
                upstreamUrl: upstream.url,
                log: logger.module('sync'),
              }),
            config,
            isStorageFailure,
            halted: productionHalted,
            isExplicit: options.sources ? settingGivenBySource(options.sources) : settingDiffersFromDefault(config),
            clock: this.clock,
            log: logger.module('sync'),
          })
        : undefined;
    this.forkReplay =
      fork && !lazy ? new ForkReplay({ plan: fork, chain, config, log: logger.module('fork') }) : undefined;
    this.lazyFork = lazy && new LazyFork({ plan: lazy, chain, config, log: logger.module('fork') });
    this.debugPrints = new DebugPrintStore(config, logger.module('debug'));
    this.sequencer = upstream
      ? undefined
      : configuredSequencer(
          config,
          this.chain,
          this.mempool,
          () => this.feeModel.minFeesForNextBlock(),
          logger.module('chain'),
          isStorageFailure,
          this.publicExecution.blockTxRunner(),
          productionHalted,
          this.debugPrints,
          this.lazyFork?.fetcher,
        );
    this.blockProducer = (this.sync ?? this.sequencer) as BlockProducer & Service;

    this.validators = new ValidatorService({
      db,
      config,
      chainStore: chain.store,
      slots: this.chain.slots,
      sequencer: this.sequencer,
      clock: this.clock,
      log: logger.module('validators'),
      onSlot: (result) => this.events.emit('validatorSlot', result),
      overNetwork: config.p2pEnabled,
    });
    if (consensus) this.sequencer?.onBlockBuilt((built) => consensus.proposeBlock(built.blockNumber));
    this.operations = new OperationsService({
      config,
      db,
      chain: this.chain,
      mempool: this.mempool,
      producer: this.blockProducer,
      nodeState: () => this.state,
      now: () => this.clock.now(),
      log: logger.module('operations'),
    });
    // Time warps and snapshots: the dev stand-in's, and with --l1 anvil the node's and its anvil's together. On an
    // L1 the node does not run, the chain and its time are the rollup's alone.
    const anvilCheatCodes = this.l1?.anvilCheatCodes;
    this.devTools =
      this.sequencer && (!this.l1Settlement || anvilCheatCodes)
        ? new DevTools({
            config,
            db,
            chain: this.chain,
            exclusive: (fn) => this.operations.exclusive(fn),
            sequencer: this.sequencer,
            sequencerMode: () => config.sequencerMode,
            log: logger.module('dev'),
            ...(this.l1Settlement && anvilCheatCodes ? { l1: anvilCheatCodes } : {}),
          })
        : undefined;
    this.localNetworkSetup = this.sequencer
      ? new LocalNetworkSetup({
          skipReason: localNetworkSetupSkipReason(config, this.chain),
          nodeUrl: () => this.rpc.publicUrl,
          log: logger.module('dev'),
        })
      : undefined;
    this.logLines = new NodeLogLines({
      chain: this.chain.chain,
      log: logger.module('chain'),
      statusIntervalSeconds: config.logStatusInterval,
      status: () => ({
        pendingTxs: this.mempool.pendingTxCount(),
        sync: describeSync(this.operations.productionStatus()),
      }),
      logCheckpoints: this.sync !== undefined,
    });
    this.metrics = new MetricsService({
      port: config.metricsPort,
      host: config.metricsHost,
      sources: {
        chain,
        mempool: this.mempool,
        operations: this.operations,
        events: this.events,
        sequencer: this.sequencer,
        follower: this.sync !== undefined,
        ...(l1 ? { l1 } : {}),
        ...(this.p2p ? { p2p: this.p2p } : {}),
        publicExecution: this.publicExecution,
        startedAt: this.startedAt,
      },
      log: logger.module('metrics'),
    });
    const metrics = this.metrics;
    const lazyFork = this.lazyFork;
    this.rpc = new RpcService({
      host: config.host,
      port: config.port,
      adminHost: config.adminHost,
      adminPort: config.adminPort,
      maxBodySize: config.rpcMaxBodySize,
      maxBatchSize: config.rpcMaxBatchSize,
      maxResponseSize: config.rpcMaxResponseSize,
      maxRequestsPerConnection: config.rpcMaxRequestsPerConnection,
      answerStyle: config.rpcAnswerStyle,
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
      handlers: lazyFork
        ? lazyForkRpcHandlers(buildRpcHandlers(this), {
            chain,
            upstream: (fork as ForkPlan).upstream,
            fetcher: lazyFork.fetcher,
            source: lazyFork.source,
            blocks: lazyFork.blocks,
            logs: this.chain.logs,
            firstBlock: () => lazyFork.firstBlock,
            minedReceipt: (txHash, mined) => this.mempool.minedReceipt(txHash, mined),
          })
        : buildRpcHandlers(this),
      status: () => this.statusReport(),
      notServing: () => (this.state === 'running' ? undefined : this.state),
      translateError: (err) => {
        if (err instanceof UpstreamStateUnavailableError || err instanceof UpstreamStateNeededError) {
          return rpcErrors.invalidState(err.message);
        }
        if (err instanceof BlockBodyPrunedError) {
          return rpcErrors.blockNotAvailable(err.message, { oldestAvailableBlock: err.oldestAvailableBlock });
        }
        const problem = isStorageFailure(err) ? this.storage?.problem : undefined;
        if (!problem) return undefined;
        // Each damaged record is named in its own answer; the status keeps the first one found.
        return problem.code === 'DATA_DAMAGED'
          ? rpcErrors.dataDamaged(
              err instanceof StoredDataDamagedError ? err.message : problem.reason,
              config.dataDirectory as string,
            )
          : rpcErrors.storageFull(problem.reason, config.dataDirectory as string);
      },
      // The admin listener's WebSocket event stream (GET /events): the dashboard's source.
      events: new NodeEventFeed({
        config,
        startedAt: this.startedAt,
        clock: this.clock,
        chain,
        mempool: this.mempool,
        operations: this.operations,
        validators: this.validators,
        sync: this.sync,
        l1,
        events: this.events,
      }),
      observeCall: config.metricsPort === undefined ? undefined : (call) => metrics.observeRpc(call),
      log: logger.module('rpc'),
      print,
    });
  }

  async start(): Promise<void> {
    // The L1 is read (tips, Inbox, the next slots' min fees) before the sequencer builds on it.
    if (this.l1Settlement) await this.runner.start(this.l1Settlement);
    // The workers are up before anything runs public calls (the sequencer's first block, the first simulation).
    await this.runner.start(this.publicExecution);
    // The committee is in place before the sequencer builds its first slot.
    await this.runner.start(this.validators);
    // A fork's blocks up to N are in place before anything builds on them.
    if (this.forkReplay) await this.runner.start(this.forkReplay);
    if (this.lazyFork) await this.runner.start(this.lazyFork);
    // Started before the producer and so stopped after it: --dump-state is written once no block is built.
    if (this.devTools) await this.runner.start(this.devTools);
    // A follower's blocks come from its upstream (checked at start: identity, genesis) instead of the sequencer.
    // A sequencer on an L1 builds nothing until its KZG set-up is built (startKzg): a checkpoint's header needs the
    // blob commitments, and its sync wait would stall the event loop.
    if (this.kzg) void this.operations.sync.hold('kzg');
    await this.runner.start(this.blockProducer);
    // Peers hear of blocks once the producer runs; stopped before it, so no gossip reaches a stopping chain.
    if (this.p2p) await this.runner.start(this.p2p);
    // Stopped before the producer and the database: a running snapshot upload ends first.
    await this.runner.start(this.operations);
    await this.runner.start(this.metrics);
    await this.runner.start(this.logLines);
    await this.runner.start(this.rpc);
    // Its txs go through the public listener, in the background: start-up does not wait for them.
    if (this.localNetworkSetup) await this.runner.start(this.localNetworkSetup);
    this.startKzg();
    this.eventLoopLag.start();
    this.state = 'running';
    this.log.info('node running');
  }

  async stop(): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') return;
    this.state = 'stopping';
    this.eventLoopLag.stop();
    await this.runner.stopAll();
    // After the settlement, which may commit to blobs until it stops.
    await this.kzg?.close();
    this.storage?.stop();
    this.state = 'stopped';
  }

  /**
   * A sequencer on an L1 commits to blobs with KZG. Its set-up (1.2 s of CPU, 20 s on a loaded machine) is built
   * on the KZG thread once the node serves: the start does not wait for it and the event loop never runs it.
   * Block production is held until it is built (GET /status: paused by `kzg`); a set-up that fails keeps it held.
   */
  private startKzg(): void {
    const kzg = this.kzg;
    if (!kzg) return;
    const log = this.logger.module('l1');
    log.info('building the KZG set-up for blob commitments on its own thread');
    kzg.start().then(
      (ms) => {
        log.info({ ms }, `KZG set-up for blob commitments built in ${ms} ms`);
        this.operations.sync.release('kzg');
      },
      (err: Error) => {
        // A node stopped before the set-up was built closed its thread: nothing failed.
        if (this.state !== 'stopping' && this.state !== 'stopped') {
          log.error({ err: err.message }, `the KZG set-up for blob commitments failed: ${err.message}`);
        }
      },
    );
  }

  /** Latest block number of the chain store, 0 at genesis. */
  chainTip(): number {
    return this.chain.chain.latestBlockNumber;
  }

  /**
   * GET /status: 200 while running, 503 while starting or stopping. `sync.state` says honestly what the node
   * does (starting, syncing with the distance, synced, paused, stopping); `ready` is true only when it serves
   * and follows the chain (synced), for readiness probes.
   */
  /**
   * Readiness, defined once (GET /status, node_isReady, `l2node status`): `acceptingTxs` while the node serves
   * and can write (node_isReady, as 4.1.2's isReady); `followingChain` when it also produces or follows blocks
   * (sync neither paused nor behind): GET /status `ready`, for readiness probes. `reason` says why not.
   */
  readiness(sync: ProductionStatus = this.operations.productionStatus()): {
    acceptingTxs: boolean;
    followingChain: boolean;
    reason?: string;
  } {
    const storage = this.storage?.problem;
    const acceptingTxs = this.state === 'running' && storage === undefined;
    // A node on an L1 that is down (its anvil died, the L1 does not answer) settles nothing until it is back.
    const l1Down = this.l1?.problem();
    const followingChain = acceptingTxs && sync.state === 'synced' && l1Down === undefined;
    let reason: string | undefined;
    if (storage) reason = storage.reason;
    else if (this.state !== 'running') reason = `the node is ${this.state}`;
    else if (l1Down) reason = `l1 down: ${l1Down}`;
    else if (sync.state === 'paused') reason = `sync paused (by ${sync.pausedBy.join(', ') || 'the producer'})`;
    else if (!followingChain) reason = `sync ${sync.state}`;
    return { acceptingTxs, followingChain, ...(reason ? { reason } : {}) };
  }

  statusReport(): StatusReport {
    const serving = this.state === 'running';
    const sync = this.operations.productionStatus();
    const tips = this.chain.chain.readTips();
    const storage = this.storage?.problem;
    // One reading of the production status (and of the chain's tip, which it holds) for the whole answer.
    const readiness = this.readiness(sync);
    const degraded = this.eventLoopLag.degradedReason();
    const l1 = this.l1?.status();
    const p2p = this.p2p?.status();
    return {
      serving,
      ready: serving && readiness.followingChain,
      body: {
        status: serving ? 'ok' : this.state,
        state: this.state,
        ready: readiness.followingChain,
        acceptingTxs: readiness.acceptingTxs,
        // Why a serving node is not ready (a full disk, a paused or lagging sync).
        ...(serving && readiness.reason ? { notReadyReason: readiness.reason } : {}),
        ...(storage
          ? {
              storage:
                storage.code === 'DATA_DAMAGED'
                  ? { damaged: true, producing: false, since: storage.since }
                  : { writable: false, since: storage.since },
            }
          : {}),
        // A stalled event loop shows here once it runs again (docs/reliability.md).
        eventLoopLagMs: this.eventLoopLag.recentMaxMs(),
        ...(degraded ? { degraded } : {}),
        blockNumber: sync.blockNumber,
        sync,
        tips: {
          proposed: tips.proposed.number,
          checkpointed: tips.checkpointed.block.number,
          proven: tips.proven.block.number,
          finalized: tips.finalized.block.number,
        },
        pendingTxs: this.mempool.pendingTxCount(),
        snapshot: this.operations.snapshotStatus(),
        // Follower mode: the upstream, the distance to it, blocks/s, ETA, and a refused block if any.
        ...(this.sync ? { follower: this.sync.status() } : {}),
        // With an L1 (--l1 anvil, --l1-rpc-urls): its chain, latest block, contracts, publisher and reachability.
        ...(l1 ? { l1 } : {}),
        // Dev mode: whether the test accounts and the BananaFPC are deployed yet (4.1.2's local network set-up).
        ...(this.localNetworkSetup ? { localNetworkSetup: this.localNetworkSetup.status() } : {}),
        // With P2P on: the peer id, the ENR, the peer count.
        ...(p2p ? { p2p } : {}),
      },
    };
  }
}

/**
 * The L1 stack (viem, ox, abitype, Aztec's L1 artifacts, KZG: a few seconds of module loading on a busy machine),
 * loaded only by a node with an L1: a dev start or a follower without one never loads it.
 */
async function loadL1Stack() {
  const [service, settlement, kzg, check] = await Promise.all([
    import('./l1/l1-service.js'),
    import('./l1/l1-settlement.js'),
    import('./l1/blob-kzg.js'),
    import('./sync/l1-checkpoint-check.js'),
  ]);
  return {
    L1Service: service.L1Service,
    L1Settlement: settlement.L1Settlement,
    BlobKzg: kzg.BlobKzg,
    followerL1Check: check.followerL1Check,
  };
}
type L1Stack = Awaited<ReturnType<typeof loadL1Stack>>;

function newL1Service(
  stack: L1Stack,
  config: NodeConfig,
  db: SqliteDatabase,
  logger: NodeLogger,
  signal: AbortSignal,
): L1Service {
  return new stack.L1Service({
    config,
    db,
    signal,
    genesisArchiveRoot: () => genesisArchiveRoot(db, config),
    prefundedFeeJuice: genesisFeeJuice(config),
    log: logger.module('l1'),
  });
}

/** The settlement on the rollup contract of the node's L1 (docs/l1.md), its slots those of the slot clock. */
function newL1Settlement(
  stack: L1Stack,
  l1: L1Service,
  kzg: BlobKzg,
  config: NodeConfig,
  store: ChainStore,
  db: SqliteDatabase,
  slots: SlotClock,
  logger: NodeLogger,
  provesEpoch: ((lastSlot: number) => boolean) | undefined,
): L1Settlement {
  const log = logger.module('l1');
  return new stack.L1Settlement({
    deployment: l1.deployment,
    client: l1.client,
    wallet: l1.publisherWallet(),
    kzg,
    slots,
    proofDelay: config.proofDelay,
    activity: l1.activity,
    store,
    db,
    persist: () => l1.persist(),
    ...(provesEpoch ? { provesEpoch } : {}),
    log,
  });
}

function newFeeModel(db: SqliteDatabase, config: FeeConfig & Pick<SequencerConfig, 'epochDuration'>): FeeModel {
  return new FeeModel(db, {
    initialEthPerFeeAsset: config.initialEthPerFeeAsset,
    manaTarget: config.manaTarget,
    provingCostPerMana: config.provingCostPerMana,
    l1: { baseFee: config.simulatedL1BaseFee, blobFee: config.simulatedL1BlobBaseFee },
    epochDuration: BigInt(config.epochDuration),
  });
}

function newMempool(
  db: SqliteDatabase,
  config: NodeConfig,
  chain: ChainState,
  feeModel: FeeModel,
  clock: Clock,
  o: Pick<
    ConstructorParameters<typeof Mempool>[0],
    'log' | 'onPoolChange' | 'forwardTx' | 'chainAllowedSetup' | 'offload'
  >,
): Mempool {
  const mempool = new Mempool({
    db,
    state: worldStateReader(chain.worldState),
    settings: config,
    minFees: () => feeModel.minFeesForNextBlock(),
    now: () => clock.now(),
    // The next block is built in the current slot (or the next one): txs expiring before it cannot be included.
    validationTimestamp: () => chain.slots.slotTimestamp(chain.slots.currentSlot()),
    // 4.1.2 caps a tx's L2 gas at min(MAX_PROCESSABLE_L2_GAS, the rollup's mana limit = 2 x target, the
    // configured block gas limit); a getter, as nodeAdmin_setConfig may change the block gas limit.
    get maxL2Gas() {
      return Math.min(MAX_PROCESSABLE_L2_GAS, Number(config.manaTarget * 2n), config.maxL2BlockGas);
    },
    epochDuration: config.epochDuration,
    minedTxLookup: chainMinedTxLookup(chain.chain),
    // The class in force when the next block runs (upgrades applied; protocol contracts from genesis).
    contractClassIdOf: (address) =>
      chain.store.getContractInstanceAt(address, chain.slots.slotTimestamp(chain.slots.currentSlot()))
        ?.currentContractClassId.value,
    functionNameOf: (selector) => chainStoreContracts(chain.store).getFunctionName(selector),
    ...o,
  });
  o.log?.info(
    { pending: mempool.pendingTxCount(), minFeePerL2Gas: feeModel.minFeesForNextBlock().feePerL2Gas.toString() },
    'mempool running',
  );
  return mempool;
}

/**
 * Why this start does not set up 4.1.2's local network, or undefined when it does: only a fresh chain (no block
 * yet, neither loaded nor forked) whose genesis funds the test accounts and the BananaFPC, with a sequencer that
 * includes txs.
 */
function localNetworkSetupSkipReason(config: NodeConfig, chain: ChainState): string | undefined {
  if (!config.localNetworkSetup) return 'turned off (--local-network-setup false)';
  if (config.loadState) return 'the chain comes from --load-state';
  if (config.forkUrl) return 'the chain is a fork (--fork-url)';
  if (!chain.bananaFpc) return 'the genesis is not the default one (--prefunded-accounts)';
  if (config.sequencerMode === 'off') return 'the sequencer is off (--sequencer-mode off): no tx would be included';
  if (chain.chain.latestBlockNumber > 0) return 'the chain already has blocks: only a fresh chain is set up';
  return undefined;
}

/** The sync state in the status line's words: "synced", "paused (by operator)", "syncing, 12 blocks behind". */
function describeSync(s: ProductionStatus): string {
  if (s.state === 'paused') return `paused (by ${s.pausedBy.join(', ') || 'the producer'})`;
  if (s.state === 'syncing' && s.distance !== undefined) return `syncing, ${s.distance} blocks behind`;
  return s.state;
}

/**
 * The genesis image of an in-memory node whose database holds nothing but genesis before its chain opens (no
 * --load-state, L1, fork or snapshot: each writes its own state first); undefined for every other node.
 */
function genesisImageOf(config: NodeConfig): GenesisImage | undefined {
  if (config.dataDirectory || config.loadState || hasL1(config) || config.forkUrl || config.snapshotUrl)
    return undefined;
  return GenesisImage.of({
    genesisPublicData: genesisPublicData(config),
    historyBlocks: worldStateHistoryBlocks(config),
    sponsoredFpc: config.sponsoredFPC,
  });
}
