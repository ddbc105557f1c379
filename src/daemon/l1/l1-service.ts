import type { PublicClient, WalletClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { type AnvilAccount, anvilAccounts } from './anvil-accounts.js';
import { AnvilCheatCodes } from './anvil-cheat-codes.js';
import { type AnvilHealth, AnvilProcess } from './anvil-process.js';
import { attachL1 } from './attach-l1.js';
import { L1Activity } from './l1-activity.js';
import { ANVIL_FIRST_ACCOUNT_KEY, l1PublicClient, l1WalletClient } from './l1-client.js';
import type { L1Deployment } from './l1-deployment.js';
import { L1DeploymentRepository } from './l1-deployment-repository.js';
import { L1Monitor, type L1Status } from './l1-monitor.js';
import type { L1Config } from './l1-settings.js';

/** What the node's L1 is built from: the L1 settings and the chain values a deployment is made with. */
export interface L1ServiceConfig extends L1Config {
  readonly dataDirectory: string | undefined;
  readonly l1ChainId: number;
  readonly slotDuration: number;
  readonly epochDuration: number;
  readonly initialEthPerFeeAsset: bigint;
  readonly vkTreeRoot: { readonly value: bigint };
  readonly protocolContractsHash: { readonly value: bigint };
}

export interface L1ServiceOptions {
  readonly config: L1ServiceConfig;
  readonly db: SqliteDatabase;
  /** The archive root of the node's genesis block: a deployment stores it in the rollup. Asked only to deploy. */
  readonly genesisArchiveRoot: () => bigint;
  /** FeeJuice the genesis state gives away: minted to the portal at deployment so it is backed on L1. */
  readonly prefundedFeeJuice: bigint;
  /** Aborted when the node stops during start-up: a deployment in progress is given up. */
  readonly signal?: AbortSignal;
  readonly log: Logger;
}

/** What GET /status shows of the L1 (docs/l1.md, Monitoring): the monitor's reading, whether it is up, more addresses, and anvil. */
export type L1ServiceStatus = L1Status & {
  /** `down` while the node's anvil is not running or the L1 does not answer. */
  readonly state: 'up' | 'down';
  readonly downReason?: string;
  readonly inboxAddress: string;
  readonly outboxAddress: string;
  readonly feeJuicePortalAddress: string;
  /** With `--l1 anvil`: whether it runs, its restarts, and the accounts it funds. */
  readonly anvil?: AnvilHealth & { readonly accounts: readonly AnvilAccount[] };
};

/** Seconds between anvil's blocks once the contracts are deployed: L1 time follows the wall clock. */
const ANVIL_BLOCK_TIME = 1;
/** Milliseconds between the monitor's L1 polls (block, publisher balance, reachability). */
const L1_POLL_INTERVAL_MS = 3_000;

/**
 * The node's L1 (docs/l1.md): with `--l1 anvil`, the anvil child process; the Aztec deployment the node
 * settles on (stored, found from `--registry-address`, or deployed). Started right after the database, so the
 * services above find the deployment in place; stopped after them (anvil last).
 */
export class L1Service implements Service {
  readonly name = 'l1';
  /** The publisher's proposals and proofs: it records each outcome here (logs, GET /status, metrics). */
  readonly activity: L1Activity;
  private readonly anvil: AnvilProcess | undefined;
  /** anvil's interval mining being set (once its KZG set-up is loaded). */
  private mining: Promise<void> = Promise.resolve();
  private readonly statusListeners = new Set<() => void>();
  private found: L1Deployment | undefined;
  private url: string | undefined;
  private publicClient: PublicClient | undefined;
  private rpcUrls: readonly string[] = [];
  private monitor: L1Monitor | undefined;
  private accounts: readonly AnvilAccount[] | undefined;
  /** When start() began (performance.now()): the L1's start-up time is logged. */
  private startedAt = 0;

  constructor(private readonly o: L1ServiceOptions) {
    const { config } = o;
    this.activity = new L1Activity({ log: o.log });
    this.activity.onRecord(() => this.statusChanged());
    this.anvil =
      config.l1 === 'anvil'
        ? new AnvilProcess({
            dataDirectory: config.dataDirectory,
            chainId: config.l1ChainId,
            port: config.l1Port,
            log: o.log,
          })
        : undefined;
    this.anvil?.onHealth(() => this.statusChanged());
  }

  /** With `--l1 anvil`: the node's own anvil's time and snapshot cheat codes; undefined on an L1 of the user's. */
  get anvilCheatCodes(): AnvilCheatCodes | undefined {
    const anvil = this.anvil;
    return anvil && new AnvilCheatCodes(() => anvil.rpcUrl, ANVIL_BLOCK_TIME);
  }

  /** The deployment the node settles on (once started). */
  get deployment(): L1Deployment {
    if (!this.found) throw new Error('The L1 is not attached yet');
    return this.found;
  }

  /** The L1's first JSON-RPC URL (anvil's own when the node runs it). */
  get rpcUrl(): string {
    if (!this.url) throw new Error('The L1 is not attached yet');
    return this.url;
  }

  /** Reads from the L1 (once started). */
  get client(): PublicClient {
    if (!this.publicClient) throw new Error('The L1 is not attached yet');
    return this.publicClient;
  }

  /** The deployer's key (anvil's first account by default): it deploys, and publishes proposals and proofs. */
  private get publisherKey(): `0x${string}` {
    return (this.o.config.l1DeployerPrivateKey ?? ANVIL_FIRST_ACCOUNT_KEY) as `0x${string}`;
  }

  /** The account that publishes proposals and proofs (the deployer's, anvil's first by default). */
  publisherWallet(): WalletClient {
    const { config } = this.o;
    return l1WalletClient({ rpcUrls: this.rpcUrls, chainId: config.l1ChainId }, this.publisherKey);
  }

  /**
   * What the L1 looks like now (GET /status, `l2node status`, metrics); undefined before the L1 is attached.
   * `state` is `down` while the node's anvil is not running (with `downReason`), or while the L1 does not answer.
   */
  status(): L1ServiceStatus | undefined {
    const status = this.monitor?.status();
    if (!status) return undefined;
    const anvil = this.anvil?.health();
    const downReason =
      anvil && !anvil.up
        ? anvil.reason
        : !status.reachable
          ? `L1 unreachable: ${status.lastError ?? 'no answer'}`
          : undefined;
    const { addresses } = this.deployment;
    return {
      ...status,
      ...(anvil && !anvil.up ? { reachable: false, lastError: anvil.reason } : {}),
      state: downReason ? 'down' : 'up',
      ...(downReason ? { downReason } : {}),
      inboxAddress: addresses.inboxAddress,
      outboxAddress: addresses.outboxAddress,
      feeJuicePortalAddress: addresses.feeJuicePortalAddress,
      ...(anvil ? { anvil: { ...anvil, accounts: this.fundedAccounts() } } : {}),
    };
  }

  /** anvil's funded test accounts (with `--l1 anvil`): shown in the banner and GET /status for developers. */
  fundedAccounts(): readonly AnvilAccount[] {
    this.accounts ??= anvilAccounts();
    return this.accounts;
  }

  /** Why the L1 cannot take proposals now (the node's anvil is down, the L1 does not answer); undefined when it can. */
  problem(): string | undefined {
    return this.status()?.downReason;
  }

  /**
   * Makes what the L1 holds now survive a crash of the node: with `--l1 anvil` and a data directory, anvil's
   * state is saved (atomically); other L1s keep their own state. Called after each proposal and proof lands,
   * before the node records it.
   */
  async persist(): Promise<void> {
    await this.anvil?.saveState();
  }

  /** Tells `listener` whenever `status()` may have changed (a poll, a recorded tx); returns the unsubscribe. */
  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private statusChanged(): void {
    for (const listener of this.statusListeners) listener();
  }

  async start(): Promise<void> {
    this.startedAt = performance.now();
    try {
      await this.anvil?.start();
      await this.attach();
    } catch (err) {
      // The runner stops only services that started: an anvil of a failed start is stopped here.
      await this.anvil?.stop();
      throw err;
    }
  }

  private async attach(): Promise<void> {
    const { config, log } = this.o;
    const rpcUrls = this.anvil ? [this.anvil.rpcUrl] : [...(config.l1RpcUrls ?? [])];
    this.url = rpcUrls[0] as string;
    this.rpcUrls = rpcUrls;
    const client = l1PublicClient({ rpcUrls, chainId: config.l1ChainId });
    this.publicClient = client;
    this.found = await attachL1({
      client,
      rpcUrl: this.url,
      chainId: config.l1ChainId,
      registryAddress: config.registryAddress as `0x${string}` | undefined,
      deployments: new L1DeploymentRepository(this.o.db),
      beforeFirstTx: () => this.anvil?.kzgLoaded() ?? Promise.resolve(),
      persist: () => this.persist(),
      signal: this.o.signal,
      log,
      deploy: () => ({
        deployerPrivateKey: this.publisherKey,
        slotDuration: config.slotDuration,
        epochDuration: config.epochDuration,
        initialEthPerFeeAsset: config.initialEthPerFeeAsset,
        feeJuicePortalInitialBalance: this.o.prefundedFeeJuice,
        vkTreeRoot: config.vkTreeRoot.value,
        protocolContractsHash: config.protocolContractsHash.value,
        genesisArchiveRoot: this.o.genesisArchiveRoot(),
      }),
    });
    // Deployed in automine (a tx a block, ~33 blocks in a second or two); from now on a block a second, as a live L1.
    // Not awaited: on a restart anvil may still be loading its KZG set-up, and the node serves meanwhile.
    if (this.anvil) {
      this.mining = this.anvil
        .mineEvery(ANVIL_BLOCK_TIME)
        .catch((err: Error) =>
          log.warn({ err: err.message }, `anvil's interval mining could not be set: ${err.message}`),
        );
    }
    const d = this.found;
    // The account that deploys now and will publish proposals and proofs: its ETH pays for them.
    const publisher = privateKeyToAccount(this.publisherKey);
    this.monitor = new L1Monitor({
      client,
      chainId: d.chainId,
      rpcUrl: this.url,
      rollupAddress: d.addresses.rollupAddress,
      registryAddress: d.addresses.registryAddress,
      publisherAddress: publisher.address.toLowerCase() as `0x${string}`,
      intervalMs: L1_POLL_INTERVAL_MS,
      activity: this.activity,
      onPoll: () => this.statusChanged(),
      log,
    });
    this.monitor.start();
    const ms = Math.round(performance.now() - this.startedAt);
    log.info(
      { rpcUrl: this.url, chainId: d.chainId, rollup: d.addresses.rollupAddress, rollupVersion: d.rollupVersion, ms },
      `L1 chain ${d.chainId} at ${this.url}: rollup ${d.addresses.rollupAddress} (version ${d.rollupVersion}), ready in ${ms} ms`,
    );
  }

  async stop(): Promise<void> {
    await this.monitor?.stop();
    await this.anvil?.stop();
    await this.mining;
  }
}
