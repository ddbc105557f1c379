import { EthAddress } from '../../core/eth-address.js';
import { compressComponentVersions } from '../../core/p2p/component-versions.js';
import type { Tx } from '../../core/tx/tx.js';
import type { Chain } from '../chain/chain.js';
import type { NodeConfig } from '../config/settings.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import type { Mempool } from '../mempool/mempool.js';
import { PACKAGE_VERSION } from '../package-version.js';
import { answerBlockTxs } from './block-txs-answer.js';
import type { ConsensusGossip } from './consensus-gossip.js';
import type { Libp2pPeer, PeerView } from './libp2p-peer.js';
import { P2PStats } from './p2p-stats.js';
import { defaultPeerKeyPath, loadOrCreatePeerKey } from './peer-key.js';
import { PeerUpstream } from './peer-upstream.js';

export interface P2PServiceOptions {
  readonly config: NodeConfig;
  readonly chain: () => Chain;
  readonly mempool: Mempool;
  readonly log: Logger;
  /** The committee's topics (block and checkpoint proposals, attestations), when the node follows a committee. */
  readonly consensus?: ConsensusGossip;
}

/** What `l2node status` and node-info show of the node's P2P side. */
export interface P2PStatus {
  readonly peerId: string;
  readonly enr: string;
  readonly peerCount: number;
  readonly listenAddresses: readonly string[];
  readonly versionString: string;
}

/**
 * The node's place in the libp2p network (docs/network.md): gossips the txs node_sendTx takes, takes gossiped
 * txs through the mempool's own checks, answers and asks the `/aztec/req/*` protocols, finds peers through
 * discv5. The libp2p stack is imported only when P2P is on, so a node without it never loads it.
 */
export class P2PService implements Service {
  readonly name = 'p2p';
  readonly stats = new P2PStats();
  private peer: Libp2pPeer | undefined;

  constructor(private readonly o: P2PServiceOptions) {}

  async start(): Promise<void> {
    const { config, log } = this.o;
    const keyPath =
      config.peerIdPrivateKeyPath ??
      (config.dataDirectory === undefined ? undefined : defaultPeerKeyPath(config.dataDirectory));
    const { key, created } = loadOrCreatePeerKey(keyPath);
    if (created) log.info({ path: keyPath }, `made a new peer key at ${keyPath}`);
    const versionString = this.versionString();
    const { Libp2pPeer } = await import('./libp2p-peer.js');
    this.peer = await Libp2pPeer.create({
      config,
      privateKey: key,
      versionString,
      clientVersion: PACKAGE_VERSION,
      chainStatus: () => {
        const tips = this.o.chain().readTips();
        return {
          latestBlockNumber: tips.proposed.number,
          latestBlockHash: tips.proposed.hash,
          finalizedBlockNumber: tips.finalized.block.number,
        };
      },
      receiveTx: async (tx) => {
        const result = await this.o.mempool.sendTx(tx);
        return result.outcome;
      },
      txsByHash: (hashes) => this.o.mempool.txsByHash(hashes),
      ...(this.o.consensus ? { topicHandlers: this.o.consensus.handlers() } : {}),
      blockByNumber: (n) => this.o.chain().store.getBlock(n),
      answerBlockTxs: (req) =>
        answerBlockTxs(req, {
          blockTxHashes: (root) =>
            this.o
              .chain()
              .store.getBlockByArchiveRoot(root.value)
              ?.body.txEffects.map((e) => e.txHash),
          txsByHash: (hashes) => this.o.mempool.txsByHash(hashes),
        }),
      stats: this.stats,
      log,
    });
    await this.peer.start();
    const peer = this.peer;
    const upstream = new PeerUpstream({ network: () => this.peer, chain: this.o.chain, config });
    this.o.consensus?.attach({
      publish: (type, payload) => peer.publish(type, payload),
      requestTxs: (hashes) => peer.requestTxs(hashes),
      requestBlockTxs: (from, request, hashes) => peer.requestBlockTxs(from, request, hashes),
      fetchBlocks: (from, to, deadline) => upstream.range(from, to, deadline),
    });
    log.info(
      { peerId: this.peer.peerId, addresses: this.peer.listenAddresses(), version: versionString },
      `p2p running as ${this.peer.peerId}; ENR ${this.peer.encodedEnr()}`,
    );
  }

  async stop(): Promise<void> {
    const peer = this.peer;
    this.peer = undefined;
    await peer?.stop();
  }

  /** `00-<l1ChainId>-<rollup>-<rollupVersion>-<protocolContractsHash>-<vkTreeRoot>`, from the chain's settings. */
  versionString(): string {
    const c = this.o.config;
    return compressComponentVersions({
      l1ChainId: c.l1ChainId,
      l1RollupAddress: EthAddress.fromString(this.o.chain().settlement.l1ContractAddresses().rollupAddress),
      rollupVersion: c.rollupVersion,
      protocolContractsHash: c.protocolContractsHash.value,
      vkTreeRoot: c.vkTreeRoot.value,
    });
  }

  /** Gossips a tx node_sendTx took on; a node with P2P off (or not started yet) has no one to tell. */
  async publishTx(tx: Tx): Promise<void> {
    await this.peer?.publishTx(tx);
  }

  /** node_getEncodedEnr: the `enr:` text, undefined while P2P is not running. */
  encodedEnr(): string | undefined {
    return this.peer?.encodedEnr();
  }

  /** The running libp2p peer (req/resp calls of the P2P catch-up), undefined while P2P is not running. */
  get running(): Libp2pPeer | undefined {
    return this.peer;
  }

  peers(): PeerView[] {
    return this.peer?.peers() ?? [];
  }

  status(): P2PStatus | undefined {
    const peer = this.peer;
    if (!peer) return undefined;
    return {
      peerId: peer.peerId,
      enr: peer.encodedEnr(),
      peerCount: peer.peerCount(),
      listenAddresses: peer.listenAddresses(),
      versionString: this.versionString(),
    };
  }
}
