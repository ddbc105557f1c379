import pino from 'pino';
import type { BlockHeader } from '../../../../src/core/block/block-header.js';
import type { Tx } from '../../../../src/core/tx/tx.js';
import { Chain } from '../../../../src/daemon/chain/chain.js';
import { chainRpcHandlers } from '../../../../src/daemon/chain/chain-rpc-handlers.js';
import type { ChainState } from '../../../../src/daemon/chain/chain-state.js';
import { resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import type { NodeConfig, SettingKey } from '../../../../src/daemon/config/settings.js';
import { ManualClock } from '../../../../src/daemon/lifecycle/manual-clock.js';
import { PACKAGE_VERSION } from '../../../../src/daemon/package-version.js';
import { genesisPublicData } from '../../../../src/daemon/sequencer/genesis-funding.js';
import { ChainStore } from '../../../../src/daemon/store/chain-store.js';
import { openNodeDatabase, type SqliteDatabase } from '../../../../src/daemon/store/node-database.js';
import type { L1CheckpointCheck } from '../../../../src/daemon/sync/l1-checkpoint-check.js';
import { toUpstreamCheckpoint } from '../../../../src/daemon/sync/rpc-upstream.js';
import type { Upstream, UpstreamCheckpoint, UpstreamIdentity } from '../../../../src/daemon/sync/upstream.js';
import { UpstreamUnavailableError } from '../../../../src/daemon/sync/upstream.js';
import { UpstreamBlockSource } from '../../../../src/daemon/sync/upstream-block-source.js';
import { UpstreamSettlement } from '../../../../src/daemon/sync/upstream-settlement.js';
import { WorldState } from '../../../../src/daemon/world-state/world-state.js';
import { RPC_METHODS, type RpcMethodName, type RpcMethods } from '../../../../src/rpc/method-table.js';
import type { PublishedCheckpoint } from '../../../../src/rpc/methods/blocks.js';
import type { ResultCodec, ResultOf } from '../../../../src/rpc/rpc-method.js';

type Json = Record<string, unknown>;
type Handler = (...args: unknown[]) => Promise<unknown>;

/**
 * A leader dev chain seen as a follower sees it: its RPC handlers (what the server answers), their results
 * encoded, through JSON and decoded by the method table as the RPC upstream's client does. `tamper` rewrites
 * each block's JSON on the way.
 */
export class ChainUpstream implements Upstream {
  readonly url = 'http://leader.test';
  tamper: ((block: Json) => void) | undefined;
  /** Rewrites each published checkpoint's JSON (attestations included) on the way. */
  tamperCheckpoint: ((checkpoint: Json) => void) | undefined;
  down = false;
  /** Serves no node_getL1ToL2Messages, as a 4.1.2 node. */
  noMessages = false;
  readonly sent: Tx[] = [];
  /** node_getL2Tips calls: one per poll. */
  polls = 0;
  private h: Record<string, Handler>;
  private config: NodeConfig;

  constructor(leader: ChainState, config: NodeConfig) {
    this.config = config;
    this.h = chainRpcHandlers(leader, config) as unknown as Record<string, Handler>;
  }

  /** Serves another chain from now on (same URL): what an upstream replaced behind a load balancer looks like. */
  switchTo(leader: ChainState, config: NodeConfig): void {
    this.config = config;
    this.h = chainRpcHandlers(leader, config) as unknown as Record<string, Handler>;
  }

  async identity(): Promise<UpstreamIdentity> {
    const info = await this.call('node_getNodeInfo');
    return {
      nodeVersion: PACKAGE_VERSION,
      l1ChainId: info.l1ChainId,
      rollupVersion: info.rollupVersion,
      l1ContractAddresses: info.l1ContractAddresses,
      protocolContractAddresses: info.protocolContractAddresses,
      protocolContractsHash: this.config.protocolContractsHash,
      vkTreeRoot: this.config.vkTreeRoot,
    };
  }

  async genesisHeader(): Promise<BlockHeader> {
    return (await this.call('node_getBlockHeader', 0)) as BlockHeader;
  }

  async tips() {
    this.polls++;
    return this.call('node_getL2Tips');
  }

  async blocks(from: number, limit: number) {
    const json = (await this.wire('node_getBlocks', from, limit)) as Json[];
    for (const b of json) this.tamper?.(b);
    return [...decode('node_getBlocks', json)];
  }

  async checkpoints(from: number, limit: number): Promise<UpstreamCheckpoint[]> {
    const json = (await this.wire('node_getCheckpoints', from, limit)) as { checkpoint: { blocks: Json[] } }[];
    for (const c of json) {
      for (const b of c.checkpoint.blocks) this.tamper?.(b);
      this.tamperCheckpoint?.(c as unknown as Json);
    }
    return decode('node_getCheckpoints', json).map((c: PublishedCheckpoint) => toUpstreamCheckpoint(c));
  }

  async blockHash(n: number) {
    return (await this.call('node_getBlockHeader', n))?.hash().value;
  }

  async l1ToL2Messages(checkpoint: number) {
    if (this.noMessages) return undefined;
    return this.call('node_getL1ToL2Messages', checkpoint);
  }

  async stateOverrides(blockNumber: number) {
    return this.call('node_getStateOverrides', blockNumber);
  }

  async sendTx(tx: Tx) {
    this.sent.push(tx);
  }

  /** A call as the client makes it: the answer's wire JSON, decoded by the method table. */
  private async call<N extends RpcMethodName>(method: N, ...args: unknown[]): Promise<ResultOf<RpcMethods[N]>> {
    return decode(method, await this.wire(method, ...args));
  }

  /** The handler's answer as the server sends it: encoded by the method table, through JSON. */
  private async wire(method: RpcMethodName, ...args: unknown[]): Promise<unknown> {
    if (this.down) throw new UpstreamUnavailableError(`cannot reach ${this.url} (ECONNREFUSED)`);
    const handler = this.h[method];
    if (!handler) throw new Error(`no handler ${method}`);
    const encoded = RPC_METHODS[method].result.encode((await handler(...args)) as never);
    return JSON.parse(JSON.stringify(encoded ?? null));
  }
}

function decode<N extends RpcMethodName>(method: N, json: unknown): ResultOf<RpcMethods[N]> {
  return (RPC_METHODS[method].result as ResultCodec<ResultOf<RpcMethods[N]>>).decode(json);
}

export interface Follower {
  readonly db: SqliteDatabase;
  readonly chain: Chain;
  readonly source: UpstreamBlockSource;
  readonly config: NodeConfig;
  readonly events: unknown[];
  readonly logs: { level: number; msg: string }[];
  /** Drives the poll timer (archiverPollingIntervalMS). */
  readonly clock: ManualClock;
  /** Polls until nothing changes (the source catches up within one poll; a second confirms). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** A follower of `upstream` on its own database (a file path survives a close), polled by hand. */
export async function startFollower(
  upstream: Upstream,
  o: {
    path?: string | null;
    flags?: Record<string, string>;
    explicit?: readonly SettingKey[];
    /** A follower with an L1: its check, built on the follower's log. */
    l1?: (log: pino.Logger) => L1CheckpointCheck;
  } = {},
): Promise<Follower> {
  const { config } = resolveConfig(o.flags ?? {}, {});
  const db = openNodeDatabase(o.path ?? null);
  const worldState = WorldState.open(db, { genesisPublicData: genesisPublicData(config) });
  const store = new ChainStore(db);
  const settlement = new UpstreamSettlement(store, upstream.url);
  const chain = new Chain({ db, worldState, store, settlement });
  const logs: { level: number; msg: string }[] = [];
  const log = pino(
    { level: 'debug' },
    {
      write: (line: string) => {
        const l = JSON.parse(line) as { level: number; msg: string };
        logs.push({ level: l.level, msg: l.msg });
      },
    },
  );
  const l1 = o.l1?.(log);
  const events: unknown[] = [];
  chain.events.on('sync', (s) => events.push(s));
  const explicit = new Set(o.explicit ?? []);
  const clock = new ManualClock();
  const source = new UpstreamBlockSource({
    upstream,
    chain: () => chain,
    settlement,
    l1,
    config,
    isExplicit: (k) => explicit.has(k),
    clock,
    log,
    startTimeoutMs: 0,
  });
  await source.start();
  return {
    db,
    chain,
    source,
    config,
    events,
    logs,
    clock,
    async sync() {
      await source.pollNow();
      await source.pollNow();
    },
    async close() {
      await source.stop();
      db.close();
    },
  };
}
