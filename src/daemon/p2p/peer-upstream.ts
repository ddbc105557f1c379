import type { BlockHeader } from '../../core/block/block-header.js';
import type { L2Block } from '../../core/block/l2-block.js';
import type { Tx } from '../../core/tx/tx.js';
import type { Chain } from '../chain/chain.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../chain/chain-rpc-handlers.js';
import type { L2Tips } from '../chain/l2-tips.js';
import { DEV_L1_CONTRACT_ADDRESSES } from '../chain/settlement/dev-l1.js';
import type { L1ContractAddresses } from '../chain/settlement/settlement-layer.js';
import type { NodeConfig } from '../config/settings.js';
import { PACKAGE_VERSION } from '../package-version.js';
import {
  type Upstream,
  type UpstreamCheckpoint,
  type UpstreamIdentity,
  UpstreamUnavailableError,
} from '../sync/upstream.js';
import type { Libp2pPeer } from './libp2p-peer.js';

/** What `--sync-from p2p` reads in place of an upstream's URL in log lines and errors. */
export const P2P_UPSTREAM = 'p2p';
/** Blocks one batch fetches: a few seconds' worth at 4.1.2's 2 block requests a second per peer. */
const BLOCKS_PER_BATCH = 8;
/** 4.1.2 serves `block` 2 times a second per peer: the catch-up asks one peer no faster. */
const BLOCK_REQUEST_INTERVAL_MS = 500;

export interface PeerUpstreamOptions {
  /** The running libp2p peer, undefined until the P2P service started. */
  readonly network: () => Libp2pPeer | undefined;
  readonly chain: () => Chain;
  readonly config: NodeConfig;
  /** The deployment of the node's own L1 (--registry-address), else the dev stand-in's addresses. */
  readonly l1ContractAddresses?: L1ContractAddresses;
}

interface PeerTip {
  readonly id: string;
  readonly number: number;
  readonly hash: string;
}

/**
 * The follower's upstream over the P2P network (`--sync-from p2p`, docs/network.md): its tip is the highest
 * that the peers' STATUS announce, asked again at every poll; its blocks come by req/resp `block`, spread over
 * the peers ahead and paced to 4.1.2's limit per peer, each checked as 4.1.2 checks a BLOCK response (the peer
 * is scored otherwise), then by the follower's own verifier before the one applyBlock stores it.
 *
 * 4.1.2's req/resp carries no chain identity, genesis, checkpoints, L1-to-L2 messages or state overrides: the
 * identity is this node's own settings (the STATUS handshake refused every peer whose version string, built from
 * them, differs), the genesis this node's, and checkpoints, proven and finalized stay this node's own (a block is
 * taken as proposed). A block that inserts L1-to-L2 messages is refused by the verifier saying why.
 */
export class PeerUpstream implements Upstream {
  readonly url = P2P_UPSTREAM;
  /** The peers ahead of this node at the last poll, highest first. */
  private ahead: PeerTip[] = [];
  private readonly nextRequestAt = new Map<string, number>();
  private turn = 0;

  constructor(private readonly o: PeerUpstreamOptions) {}

  async identity(): Promise<UpstreamIdentity> {
    const c = this.o.config;
    return {
      nodeVersion: PACKAGE_VERSION,
      l1ChainId: c.l1ChainId,
      rollupVersion: c.rollupVersion,
      l1ContractAddresses: this.o.l1ContractAddresses ?? DEV_L1_CONTRACT_ADDRESSES,
      protocolContractAddresses: PROTOCOL_CONTRACT_ADDRESSES,
      protocolContractsHash: c.protocolContractsHash,
      vkTreeRoot: c.vkTreeRoot,
    };
  }

  async genesisHeader(): Promise<BlockHeader> {
    return this.o.chain().genesisHeader();
  }

  /**
   * The highest tip the handshaken peers announce when one is ahead of this node, else this node's own (a peer
   * behind or beside it is no reason to unwind). Checkpoints, proven and finalized are this node's.
   */
  async tips(): Promise<L2Tips> {
    const network = this.network();
    const peers = network.peerStatuses();
    if (peers.length === 0) throw new UpstreamUnavailableError('no peer has passed the status handshake yet');
    const ours = this.o.chain().readTips();
    const fresh = await Promise.all(peers.map(async (p) => ({ id: p.id, status: await network.refreshStatus(p.id) })));
    this.ahead = fresh
      .flatMap(({ id, status }) =>
        status && status.latestBlockNumber > ours.proposed.number
          ? [{ id, number: status.latestBlockNumber, hash: status.latestBlockHash }]
          : [],
      )
      .sort((a, b) => b.number - a.number);
    const best = this.ahead[0];
    return { ...ours, proposed: best ? { number: best.number, hash: best.hash } : ours.proposed };
  }

  /** Blocks `from` on, fetched in parallel from the peers ahead (one request per peer at a time, paced). */
  async blocks(from: number, limit: number): Promise<L2Block[]> {
    const network = this.network();
    const numbers = Array.from({ length: Math.min(limit, BLOCKS_PER_BATCH) }, (_, i) => from + i);
    const found = new Map<number, L2Block>();
    // Each number goes to the peers ahead that hold it, starting with a different one at every call, so a peer
    // that serves nothing useful does not hold the catch-up.
    const start = this.turn++;
    const byPeer = new Map<string, number[]>();
    for (const n of numbers) {
      const holders = this.ahead.filter((p) => p.number >= n);
      const first = holders[(start + n) % Math.max(holders.length, 1)];
      if (first) byPeer.set(first.id, [...(byPeer.get(first.id) ?? []), n]);
    }
    await Promise.all(
      [...byPeer].map(async ([id, ns]) => {
        for (const n of ns) {
          await this.pace(id);
          const block = await network.requestBlock(id, n);
          if (!block) return;
          found.set(n, block);
        }
      }),
    );
    const out: L2Block[] = [];
    for (const n of numbers) {
      const block = found.get(n);
      if (!block) break;
      out.push(block);
    }
    if (out.length === 0 && numbers.length > 0) {
      throw new UpstreamUnavailableError(`no peer ahead served block ${from} (req/resp block)`);
    }
    return out;
  }

  /**
   * Blocks `from` to `to`, batch after batch from the peers ahead; stops at the first block none of them serves
   * or at `deadline` (epoch ms): fewer blocks, none when no peer is ahead.
   */
  async range(from: number, to: number, deadline: number): Promise<L2Block[]> {
    const out: L2Block[] = [];
    try {
      await this.tips();
      while (from + out.length <= to && Date.now() < deadline) {
        out.push(...(await this.blocks(from + out.length, to - from - out.length + 1)));
      }
    } catch (err) {
      if (!(err instanceof UpstreamUnavailableError)) throw err;
    }
    return out;
  }

  /** 4.1.2's req/resp has no checkpoint protocol; the tips never announce one this node lacks (see tips()). */
  async checkpoints(from: number): Promise<UpstreamCheckpoint[]> {
    throw new UpstreamUnavailableError(`checkpoint ${from} cannot be fetched over P2P: req/resp has no checkpoints`);
  }

  /** The hash a peer ahead gives block `n`: its announced tip's, else that of the block it serves. */
  async blockHash(n: number): Promise<bigint | undefined> {
    const tip = this.ahead.find((p) => p.number === n);
    if (tip) return BigInt(tip.hash);
    const holder = this.ahead.find((p) => p.number > n);
    if (!holder) return undefined;
    await this.pace(holder.id);
    return (await this.network().requestBlock(holder.id, n))?.hash().value;
  }

  async l1ToL2Messages(): Promise<readonly bigint[] | undefined> {
    return undefined;
  }

  async stateOverrides(): Promise<undefined> {
    return undefined;
  }

  /** A tx goes to the network by gossip. */
  async sendTx(tx: Tx): Promise<void> {
    await this.network().publishTx(tx);
  }

  private network(): Libp2pPeer {
    const network = this.o.network();
    if (!network) throw new UpstreamUnavailableError('P2P is not running yet');
    return network;
  }

  /** Waits until the peer may be asked for another block (4.1.2 serves 2 a second per peer). */
  private async pace(id: string): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextRequestAt.get(id) ?? 0);
    this.nextRequestAt.set(id, at + BLOCK_REQUEST_INTERVAL_MS);
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }
}
