import { createSocket } from 'node:dgram';
import { Discv5 } from '@chainsafe/discv5';
import { ENR, SignableENR } from '@chainsafe/enr';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { privateKeyFromRaw } from '@libp2p/crypto/keys';
import { type GossipSub as GossipSubApi, gossipsub, StrictNoSign, TopicValidatorResult } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import { mplex } from '@libp2p/mplex';
import { peerIdFromString } from '@libp2p/peer-id';
import { tcp } from '@libp2p/tcp';
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr';
import { createLibp2p, type Libp2p } from 'libp2p';
import { L2Block } from '../../core/block/l2-block.js';
import { compareComponentVersions, describeVersionMismatch } from '../../core/p2p/component-versions.js';
import {
  decodeGossipMessageData,
  encodeGossipMessageData,
  GossipSnappyTransform,
  gossipMessageId,
} from '../../core/p2p/gossip-message.js';
import {
  decodeResponseChunks,
  errorResponseChunk,
  snappyMaxCompressedLength,
  successResponseChunks,
} from '../../core/p2p/reqresp-framing.js';
import {
  type BlockTxsRequest,
  type BlockTxsResponse,
  decodeBlockRequest,
  decodeBlockTxsRequest,
  decodeBlockTxsResponse,
  decodeGoodbyeReason,
  decodeTxHashes,
  decodeTxs,
  encodeBlockRequest,
  encodeBlockTxsRequest,
  encodeBlockTxsResponse,
  encodeTxHashes,
  encodeTxs,
  MAX_TXS_PER_BLOCK,
  maxResponseBytes,
  PING_RESPONSE,
} from '../../core/p2p/reqresp-payloads.js';
import {
  REQRESP_PROTOCOLS,
  type ReqRespProtocolName,
  ReqRespStatus,
  reqRespStatusName,
  SMALL_RESPONSE_MAX_BYTES,
} from '../../core/p2p/reqresp-protocols.js';
import { decodeStatusMessage, encodeStatusMessage, type StatusMessage } from '../../core/p2p/status-message.js';
import { type GossipTopicType, topicString, topicTypeOf } from '../../core/p2p/topics.js';
import { Tx } from '../../core/tx/tx.js';
import type { TxHash } from '../../core/tx-hash.js';
import type { Logger } from '../logging/logger.js';
import { checkBlockTxsResponse } from './block-txs-check.js';
import type { P2PConfig } from './p2p-settings.js';
import type { P2PStats } from './p2p-stats.js';
import { connectionsByPeer } from './peer-connections.js';
import { BAN_SCORE, DISCONNECT_SCORE, type PeerPenaltyName, PeerScoring } from './peer-scoring.js';
import { PeerRateLimiter } from './rate-limiter.js';

/** What the node gives its libp2p peer: its chain and pool, reached only through these calls. */
export interface Libp2pPeerContext {
  readonly config: P2PConfig;
  readonly privateKey: Uint8Array;
  /** The compressed component versions: the topics' suffix, the ENR's `aztec` key, STATUS's first field. */
  readonly versionString: string;
  /** The node's package version: the ENR's `ver` key. */
  readonly clientVersion: string;
  readonly chainStatus: () => Omit<StatusMessage, 'compressedComponentsVersion'>;
  /** Validates a tx received by gossip as node_sendTx does and, when valid, adds it to the pool. */
  readonly receiveTx: (tx: Tx) => Promise<'accepted' | 'duplicate' | 'invalid' | 'rejected'>;
  readonly txsByHash: (hashes: readonly TxHash[]) => Tx[];
  /** The consensus topics' handlers (consensus-gossip.ts); a topic without one is not joined. */
  readonly topicHandlers?: Partial<Record<GossipTopicType, GossipHandler>>;
  /** The stored block of that number (req/resp `block`), undefined when the node has none. */
  readonly blockByNumber: (n: number) => L2Block | undefined;
  /** The answer to a req/resp `block_txs` request from the node's store and pool (block-txs-answer.ts). */
  readonly answerBlockTxs: (request: BlockTxsRequest) => BlockTxsResponse | undefined;
  readonly stats: P2PStats;
  readonly log: Logger;
}

/**
 * What a topic's handler decided about a message (its payload, the gossip framing already removed): forward it
 * (`accept`), drop it quietly (`ignore`: stale, a duplicate, not decidable now), or drop it and charge the sender
 * (`reject`, with the penalty and why).
 */
export type GossipVerdict =
  | { readonly result: 'accept' | 'ignore'; readonly outcome: string }
  | { readonly result: 'reject'; readonly outcome: string; readonly penalty: PeerPenaltyName; readonly why: string };

export type GossipHandler = (payload: Buffer, from: string) => Promise<GossipVerdict>;

export interface PeerView {
  readonly id: string;
  readonly direction: 'inbound' | 'outbound';
  readonly addresses: readonly string[];
  /** The application score (penalties, decaying to 0). */
  readonly score: number;
  /** Gossipsub's own score of the peer (P4 invalid messages and the rest of v1.1 scoring). */
  readonly gossipScore: number;
  readonly status?: Omit<StatusMessage, 'compressedComponentsVersion'>;
}

/**
 * `auth` is not offered: 4.1.2 answers it only on a validator node, with a signature by its validator key over a
 * challenge, to let a peer past a validator-only gate this node does not run (docs/compatibility.md).
 */
const SERVED_PROTOCOLS: readonly ReqRespProtocolName[] = ['ping', 'status', 'goodbye', 'tx', 'block', 'block_txs'];
/** How long a req/resp exchange may take end to end (4.1.2's individual request timeout is of this order). */
const REQUEST_TIMEOUT_MS = 10_000;
/** How long a peer is banned at the ban score. */
const BAN_MS = 60 * 60 * 1000;
/** Peer management: decay, disconnects, bans, discovery and redials run on this period. */
const HEARTBEAT_MS = 2_000;
/** Most txs one `tx` request may ask for (4.1.2 caps a request's hashes by the response size). */
const MAX_TX_REQUEST_HASHES = 16;
/** Most txs one `block_txs` answer holds: 16 txs of at most 512 KiB bound it at 8 MiB, as for `tx`. */
const MAX_BLOCK_TXS_SERVED = 16;
/**
 * Req/resp rate limits per peer (requests per second, burst), 4.1.2's order of magnitude per protocol; `block`
 * and `block_txs` are 4.1.2's exactly (2 and 10 a second per peer), which the catch-up's pacing keeps to.
 */
const RATE_LIMITS: Readonly<Record<ReqRespProtocolName, [number, number]>> = {
  ping: [5, 10],
  status: [5, 10],
  goodbye: [2, 5],
  tx: [10, 20],
  block: [2, 2],
  auth: [2, 5],
  block_txs: [10, 10],
};
/**
 * Across all peers (4.1.2's global limits): past them requests are refused with RATE_LIMIT_EXCEEDED but no
 * peer is scored, since none of them alone caused it.
 */
const GLOBAL_RATE_LIMITS: Readonly<Record<ReqRespProtocolName, [number, number]>> = {
  ping: [10, 10],
  status: [10, 10],
  goodbye: [10, 10],
  tx: [200, 200],
  block: [5, 5],
  auth: [10, 10],
  block_txs: [200, 200],
};
/** The key of the global buckets in the per-peer limiters. */
const ALL_PEERS = '*';
/** Gossip messages per second one peer may deliver before it counts as a flood. */
const GOSSIP_RATE: [number, number] = [200, 400];
/** The tx topic only scores invalid deliveries (P4, -20 each; 4.1.2 topic_score_params). */
const INVALID_MESSAGE_WEIGHT = -20;

/**
 * The node's libp2p peer (docs/network.md), as 4.1.2 builds one: TCP, Noise, Yamux with Mplex offered,
 * Identify under the `aztec` prefix, Gossipsub v1.1 with StrictNoSign, Snappy and 4.1.2's message id, the
 * `/aztec/req/*` protocols, discv5 with the node's ENR. Loaded only when P2P is on (a dynamic import).
 */
export class Libp2pPeer {
  private readonly scoring: PeerScoring;
  private readonly limiters = new Map<ReqRespProtocolName, PeerRateLimiter>();
  private readonly globalLimiters = new Map<ReqRespProtocolName, PeerRateLimiter>();
  private readonly gossipLimiter = new PeerRateLimiter(...GOSSIP_RATE);
  private readonly banned = new Map<string, number>();
  private readonly statuses = new Map<string, Omit<StatusMessage, 'compressedComponentsVersion'>>();
  private readonly trustedIds = new Set<string>();
  private readonly persistentPeers: { id: string; addr: Multiaddr }[] = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private discovering = false;
  private readonly txTopic: string;

  private constructor(
    private readonly ctx: Libp2pPeerContext,
    private readonly node: Libp2p<{ identify: unknown; pubsub: GossipSubApi }>,
    private readonly discv5: Discv5,
    private readonly enr: SignableENR,
  ) {
    this.scoring = new PeerScoring((id) => this.trustedIds.has(id));
    for (const [name, [rate, burst]] of Object.entries(RATE_LIMITS)) {
      this.limiters.set(name as ReqRespProtocolName, new PeerRateLimiter(rate, burst));
    }
    for (const [name, [rate, burst]] of Object.entries(GLOBAL_RATE_LIMITS)) {
      this.globalLimiters.set(name as ReqRespProtocolName, new PeerRateLimiter(rate, burst));
    }
    this.txTopic = topicString('tx', ctx.versionString);
  }

  static async create(ctx: Libp2pPeerContext): Promise<Libp2pPeer> {
    const c = ctx.config;
    const privateKey = privateKeyFromRaw(ctx.privateKey);
    const udpPort = c.p2pPort === 0 ? await freeUdpPort(c.p2pListenAddress) : c.p2pPort;
    let self: Libp2pPeer | undefined;
    const isBanned = (id: string) => self?.isBanned(id) ?? false;
    const node = await createLibp2p({
      privateKey,
      addresses: { listen: [`/ip4/${c.p2pListenAddress}/tcp/${c.p2pPort}`] },
      transports: [tcp()],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux(), mplex()],
      connectionManager: { maxConnections: 2 * c.maxPeers },
      connectionGater: {
        denyDialPeer: async (peerId) => isBanned(peerId.toString()),
        denyInboundEncryptedConnection: async (peerId) => isBanned(peerId.toString()),
        denyOutboundEncryptedConnection: async (peerId) => isBanned(peerId.toString()),
        // Loopback and private addresses are where a test network and a LAN network live.
        denyDialMultiaddr: async () => false,
      },
      services: {
        identify: identify({ protocolPrefix: 'aztec' }),
        pubsub: gossipsub({
          globalSignaturePolicy: StrictNoSign,
          D: 8,
          Dlo: 4,
          Dhi: 12,
          Dlazy: 8,
          heartbeatInterval: 700,
          asyncValidation: true,
          allowPublishToZeroTopicPeers: true,
          ignoreDuplicatePublishError: true,
          fallbackToFloodsub: false,
          dataTransform: new GossipSnappyTransform(),
          msgIdFn: (msg) => gossipMessageId(msg),
          scoreParams: {
            topics: Object.fromEntries(
              (['tx', 'block_proposal', 'checkpoint_proposal', 'checkpoint_attestation'] as const).map((t) => [
                topicString(t, ctx.versionString),
                invalidOnlyTopicScore(),
              ]),
            ),
            topicScoreCap: 100,
            // The application score (penalties), weighted as 4.1.2 maps it onto gossipsub's thresholds.
            appSpecificScore: (peerId) => self?.scoring.score(peerId) ?? 0,
            appSpecificWeight: 10,
            IPColocationFactorWeight: -5,
            IPColocationFactorThreshold: 10,
            IPColocationFactorWhitelist: new Set(['127.0.0.1']),
            decayInterval: 1000,
            decayToZero: 0.01,
            retainScore: 60_000,
          },
          scoreThresholds: {
            gossipThreshold: 10 * -50,
            publishThreshold: 10 * -100,
            graylistThreshold: 10 * -150,
            acceptPXThreshold: 100,
            opportunisticGraftThreshold: 5,
          },
        }),
      },
    });
    const tcpAddr = node.getMultiaddrs().find((a) => a.toString().includes('/tcp/'));
    const tcpPort = Number(tcpAddr?.toString().match(/\/tcp\/([0-9]+)/)?.[1] ?? c.p2pPort);
    const announceIp = c.p2pIp ?? (c.p2pListenAddress === '0.0.0.0' ? '127.0.0.1' : c.p2pListenAddress);
    // The discovery packages are of the libp2p line before ours: the key goes to them as raw bytes.
    const enr = SignableENR.createV4(ctx.privateKey);
    enr.ip = announceIp;
    enr.tcp = c.p2pBroadcastPort ?? tcpPort;
    enr.udp = c.p2pBroadcastPort ?? udpPort;
    enr.set('aztec', new TextEncoder().encode(ctx.versionString));
    enr.set('ver', new TextEncoder().encode(ctx.clientVersion));
    const discv5 = Discv5.create({
      enr,
      privateKey: { type: 'secp256k1', raw: ctx.privateKey } as never,
      bindAddrs: { ip4: udpBindAddress(c.p2pListenAddress, udpPort) },
      config: { lookupTimeout: 2_000, enrUpdate: false },
    });
    self = new Libp2pPeer(ctx, node, discv5, enr);
    return self;
  }

  private get pubsub(): GossipSub {
    return this.node.services.pubsub as GossipSub;
  }

  get peerId(): string {
    return this.node.peerId.toString();
  }

  encodedEnr(): string {
    return this.enr.toENR().encodeTxt();
  }

  listenAddresses(): string[] {
    return this.node.getMultiaddrs().map((a) => a.toString());
  }

  async start(): Promise<void> {
    for (const name of SERVED_PROTOCOLS) {
      await this.node.handle(REQRESP_PROTOCOLS[name], (stream, connection) =>
        this.serveRequest(name, stream, connection.remotePeer.toString()),
      );
    }
    const pubsub = this.pubsub;
    pubsub.addEventListener('gossipsub:message', (evt) => {
      const { propagationSource, msgId, msg } = evt.detail;
      void this.onGossip(propagationSource.toString(), msgId, msg.topic, msg.data);
    });
    pubsub.subscribe(this.txTopic);
    for (const type of Object.keys(this.ctx.topicHandlers ?? {})) {
      pubsub.subscribe(topicString(type as GossipTopicType, this.ctx.versionString));
    }
    this.node.addEventListener('peer:connect', (evt) => void this.onConnect(evt.detail.toString()));
    this.node.addEventListener('peer:disconnect', (evt) => {
      const id = evt.detail.toString();
      this.statuses.delete(id);
      this.ctx.log.debug({ peer: id }, 'peer disconnected');
    });
    // Discv5 is a Node EventEmitter; its typings are of an older event-emitter package.
    (this.discv5 as unknown as NodeJS.EventEmitter).on(
      'discovered',
      (enr: ENR) => void this.dialEnr(enr, 'discovered'),
    );
    await this.discv5.start();
    for (const text of this.ctx.config.bootstrapNodes) {
      const enr = decodeEnr(text, this.ctx.log);
      if (!enr) continue;
      this.discv5.addEnr(enr);
      void this.dialEnr(enr, 'bootstrap');
    }
    for (const [list, trusted] of [
      [this.ctx.config.trustedPeers, true],
      [this.ctx.config.preferredPeers, false],
    ] as const) {
      for (const text of list) {
        const peer = peerAddress(text, this.ctx.log);
        if (!peer) continue;
        if (trusted) this.trustedIds.add(peer.id);
        this.persistentPeers.push(peer);
      }
    }
    this.heartbeat = setInterval(() => void this.tick(), HEARTBEAT_MS);
    this.heartbeat.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.discv5.stop().catch(() => undefined);
    await this.node.stop();
  }

  /** Gossips a tx the node took on (node_sendTx). A tx no peer hears yet still counts as published. */
  async publishTx(tx: Tx): Promise<void> {
    const data = encodeGossipMessageData(tx.toBuffer());
    try {
      await this.pubsub.publish(this.txTopic, data);
      this.ctx.stats.gossip('tx', 'published');
    } catch (err) {
      this.ctx.log.warn({ err: (err as Error).message, txHash: tx.txHash.toString() }, 'could not gossip a tx');
    }
  }

  /** Gossips a consensus message (its payload; the framing is added here) on one of the node's topics. */
  async publish(type: GossipTopicType, payload: Uint8Array): Promise<void> {
    try {
      await this.pubsub.publish(topicString(type, this.ctx.versionString), encodeGossipMessageData(payload));
      this.ctx.stats.gossip(type, 'published');
    } catch (err) {
      this.ctx.log.warn({ err: (err as Error).message, topic: type }, `could not gossip a ${type}`);
    }
  }

  peers(): PeerView[] {
    const pubsub = this.pubsub;
    const connections = this.node.getConnections().map((conn) => ({
      peer: conn.remotePeer.toString(),
      direction: conn.direction,
      address: conn.remoteAddr.toString(),
      openedAt: conn.timeline.open,
    }));
    return connectionsByPeer(connections).map(({ peer: id, direction, addresses }) => {
      const status = this.statuses.get(id);
      return {
        id,
        direction,
        addresses,
        score: round(this.scoring.score(id)),
        gossipScore: round(pubsub.getScore(id)),
        ...(status ? { status } : {}),
      };
    });
  }

  peerCount(): number {
    return new Set(this.node.getConnections().map((c) => c.remotePeer.toString())).size;
  }

  /** Asks peers that have it for txs the node is missing (req/resp `tx`); the txs are checked like gossip. */
  async requestTxs(hashes: readonly TxHash[]): Promise<Tx[]> {
    const found: Tx[] = [];
    let wanted = [...hashes];
    for (const id of this.statuses.keys()) {
      if (wanted.length === 0) break;
      const asked = wanted.slice(0, MAX_TX_REQUEST_HASHES);
      const body = encodeTxHashes(asked);
      const res = await this.request(id, 'tx', body, maxResponseBytes('tx', body));
      if (!res) continue;
      try {
        const txs = decodeTxs(res);
        for (const tx of txs) {
          if (!asked.some((h) => h.equals(tx.txHash))) throw new Error('a tx that was not asked for');
          found.push(tx);
        }
        wanted = wanted.filter((h) => !txs.some((t) => t.txHash.equals(h)));
      } catch (err) {
        this.penalize(id, 'LowTolerance', `sent an undecodable tx response: ${(err as Error).message}`);
      }
    }
    return found;
  }

  /** The peers that passed the status handshake, with the status they last gave. */
  peerStatuses(): { id: string; status: Omit<StatusMessage, 'compressedComponentsVersion'> }[] {
    return [...this.statuses].map(([id, status]) => ({ id, status }));
  }

  /**
   * Asks a handshaken peer for its status again (its tip moves on); a peer that no longer answers, or answers
   * another network's, is dropped as at the handshake. Undefined when it is gone.
   */
  async refreshStatus(peer: string): Promise<Omit<StatusMessage, 'compressedComponentsVersion'> | undefined> {
    if (!this.statuses.has(peer)) return undefined;
    const body = await this.request(peer, 'status', encodeStatusMessage(this.ownStatus()), SMALL_RESPONSE_MAX_BYTES);
    if (body === undefined) return this.statuses.get(peer);
    const status = this.checkedStatus(peer, body);
    return status && this.statuses.has(peer) ? status : undefined;
  }

  /**
   * Req/resp `block`: the peer's block `n`, checked as 4.1.2 checks a BLOCK response (it decodes, it is the block
   * asked for, and, when this node has that block, it is the same block); a peer that fails a check is scored.
   * Undefined when the peer has no such block or the request failed.
   */
  async requestBlock(peer: string, n: number): Promise<L2Block | undefined> {
    const body = await this.request(peer, 'block', encodeBlockRequest(n), maxResponseBytes('block', Buffer.alloc(0)));
    if (body === undefined || body.length === 0) return undefined;
    let block: L2Block;
    try {
      block = L2Block.fromBuffer(body);
    } catch (err) {
      this.penalize(peer, 'LowTolerance', `sent an undecodable block: ${(err as Error).message}`);
      return undefined;
    }
    if (block.number !== n) {
      this.penalize(peer, 'LowTolerance', `answered block ${block.number} when asked for block ${n}`);
      return undefined;
    }
    const ours = this.ctx.blockByNumber(n);
    if (ours && ours.hash().value !== block.hash().value) {
      this.penalize(peer, 'MidTolerance', `sent a block ${n} that is not this node's block ${n}`);
      return undefined;
    }
    return block;
  }

  /**
   * Req/resp `block_txs`: the txs of a proposal (by its archive root) at the indices asked for, checked against
   * the proposal's tx hashes as 4.1.2 checks them (block-txs-check.ts); a peer whose answer fails is scored.
   */
  async requestBlockTxs(peer: string, request: BlockTxsRequest, proposalTxHashes: readonly TxHash[]): Promise<Tx[]> {
    const bytes = encodeBlockTxsRequest(request);
    const body = await this.request(peer, 'block_txs', bytes, maxResponseBytes('block_txs', bytes));
    if (body === undefined) return [];
    let problem: string | undefined;
    let txs: Tx[] = [];
    try {
      const res = decodeBlockTxsResponse(body);
      problem = checkBlockTxsResponse(request, res, proposalTxHashes);
      txs = [...res.txs];
    } catch (err) {
      this.penalize(peer, 'LowTolerance', `sent an undecodable block_txs response: ${(err as Error).message}`);
      return [];
    }
    if (problem) {
      this.penalize(peer, 'MidTolerance', `sent a block_txs response that ${problem}`);
      return [];
    }
    return txs;
  }

  // ---- gossip ----

  private async onGossip(from: string, msgId: string, topic: string, data: Uint8Array): Promise<void> {
    const pubsub = this.pubsub;
    const type = topicTypeOf(topic) ?? 'unknown';
    const report = (result: TopicValidatorResult, outcome: string) => {
      pubsub.reportMessageValidationResult(msgId, from, result);
      this.ctx.stats.gossip(type, outcome);
    };
    if (!this.gossipLimiter.allow(from)) {
      this.penalize(from, 'HighTolerance', 'floods gossip');
      return report(TopicValidatorResult.Ignore, 'rate_limited');
    }
    if (topic !== this.txTopic) return this.onTopicMessage(from, type, topic, data, report);
    let tx: Tx;
    try {
      tx = Tx.fromBuffer(decodeGossipMessageData(data));
    } catch (err) {
      this.penalize(from, 'LowTolerance', `gossiped an undecodable tx: ${(err as Error).message}`);
      return report(TopicValidatorResult.Reject, 'undecodable');
    }
    let outcome: Awaited<ReturnType<Libp2pPeerContext['receiveTx']>>;
    try {
      outcome = await this.ctx.receiveTx(tx);
    } catch (err) {
      // The node could not decide (a full disk): neither the peer's fault nor forwardable.
      this.ctx.log.warn({ err: (err as Error).message }, 'a gossiped tx could not be checked');
      return report(TopicValidatorResult.Ignore, 'error');
    }
    if (outcome === 'accepted') return report(TopicValidatorResult.Accept, 'accepted');
    if (outcome === 'invalid') {
      this.penalize(from, 'MidTolerance', `gossiped an invalid tx ${tx.txHash.toString()}`);
      return report(TopicValidatorResult.Reject, 'invalid');
    }
    // A tx the pool has, or one it does not take now (its fee, a full pool): not the sender's fault.
    return report(TopicValidatorResult.Ignore, outcome);
  }

  /** A message on a consensus topic, given to its handler; undecodable framing is the sender's fault. */
  private async onTopicMessage(
    from: string,
    type: GossipTopicType | 'unknown',
    topic: string,
    data: Uint8Array,
    report: (result: TopicValidatorResult, outcome: string) => void,
  ): Promise<void> {
    const handler = type === 'unknown' ? undefined : this.ctx.topicHandlers?.[type];
    if (!handler || topic !== topicString(type as GossipTopicType, this.ctx.versionString)) {
      return report(TopicValidatorResult.Ignore, 'unhandled');
    }
    let payload: Buffer;
    try {
      payload = decodeGossipMessageData(data);
    } catch (err) {
      this.penalize(from, 'LowTolerance', `gossiped an undecodable ${type}: ${(err as Error).message}`);
      return report(TopicValidatorResult.Reject, 'undecodable');
    }
    let verdict: GossipVerdict;
    try {
      verdict = await handler(payload, from);
    } catch (err) {
      this.ctx.log.warn({ err: (err as Error).message, topic: type }, `a gossiped ${type} could not be checked`);
      return report(TopicValidatorResult.Ignore, 'error');
    }
    if (verdict.result === 'reject') {
      this.penalize(from, verdict.penalty, verdict.why);
      return report(TopicValidatorResult.Reject, verdict.outcome);
    }
    report(verdict.result === 'accept' ? TopicValidatorResult.Accept : TopicValidatorResult.Ignore, verdict.outcome);
  }

  // ---- req/resp ----

  private async serveRequest(name: ReqRespProtocolName, stream: Stream, peer: string): Promise<void> {
    const reply = async (chunks: Uint8Array[], outcome: string) => {
      for (const chunk of chunks) if (!stream.send(chunk)) await stream.onDrain();
      await stream.close();
      this.ctx.stats.reqresp(name, 'inbound', outcome);
    };
    try {
      // Read (bounded) before anything is answered: a stream left unread holds one of the connection's
      // inbound stream slots.
      const request = await readAll(stream, requestLimit(name), AbortSignal.timeout(REQUEST_TIMEOUT_MS));
      const limiter = this.limiters.get(name) as PeerRateLimiter;
      // The peer's own limit first: a peer that floods is scored for it even while the global limit is spent.
      if (!limiter.allow(peer)) {
        // Answered first: a penalty may end the connection.
        await reply([errorResponseChunk(ReqRespStatus.RATE_LIMIT_EXCEEDED)], 'rate_limited');
        return this.penalize(peer, 'HighTolerance', `exceeds the ${name} rate limit`);
      }
      if (!(this.globalLimiters.get(name) as PeerRateLimiter).allow(ALL_PEERS)) {
        return await reply([errorResponseChunk(ReqRespStatus.RATE_LIMIT_EXCEEDED)], 'rate_limited');
      }
      let body: Uint8Array;
      try {
        body = this.answer(name, request, peer);
      } catch (err) {
        if (err instanceof NotFound) return await reply([errorResponseChunk(ReqRespStatus.NOT_FOUND)], 'not_found');
        if (!(err instanceof BadRequest)) throw err;
        await reply([errorResponseChunk(ReqRespStatus.BADLY_FORMED_REQUEST)], 'bad_request');
        return this.penalize(peer, 'LowTolerance', `sent a malformed ${name} request: ${err.message}`);
      }
      await reply(successResponseChunks(body), 'success');
    } catch (err) {
      if (err instanceof TooLarge) this.penalize(peer, 'LowTolerance', `sent an oversized ${name} request`);
      this.ctx.stats.reqresp(name, 'inbound', 'error');
      stream.abort(err as Error);
    }
  }

  /** The body of a successful answer; throws BadRequest for a request that does not decode. */
  private answer(name: ReqRespProtocolName, request: Uint8Array, peer: string): Uint8Array {
    switch (name) {
      case 'ping':
        return PING_RESPONSE;
      case 'status': {
        // 4.1.2 answers with its own status whatever it was sent; the requester decides.
        return encodeStatusMessage(this.ownStatus());
      }
      case 'goodbye': {
        this.ctx.log.info({ peer, reason: decodeGoodbyeReason(request) }, 'peer said goodbye');
        setTimeout(() => void this.node.hangUp(peerIdFromString(peer)).catch(() => undefined), 100).unref();
        return Buffer.alloc(0);
      }
      case 'tx': {
        let hashes: TxHash[];
        try {
          hashes = decodeTxHashes(request);
        } catch (err) {
          throw new BadRequest((err as Error).message);
        }
        if (hashes.length > MAX_TX_REQUEST_HASHES) {
          throw new BadRequest(`${hashes.length} hashes is more than the ${MAX_TX_REQUEST_HASHES} served at once`);
        }
        return encodeTxs(this.ctx.txsByHash(hashes));
      }
      case 'block': {
        let n: number;
        try {
          n = decodeBlockRequest(request);
        } catch (err) {
          throw new BadRequest((err as Error).message);
        }
        // 4.1.2 answers SUCCESS with an empty body for a block it does not have.
        return this.ctx.blockByNumber(n)?.toBuffer() ?? Buffer.alloc(0);
      }
      case 'block_txs': {
        let req: BlockTxsRequest;
        try {
          req = decodeBlockTxsRequest(request);
        } catch (err) {
          throw new BadRequest((err as Error).message);
        }
        if (req.txIndices.setIndices().length > MAX_BLOCK_TXS_SERVED || req.txHashes.length > MAX_BLOCK_TXS_SERVED) {
          throw new BadRequest(`more than the ${MAX_BLOCK_TXS_SERVED} txs served at once`);
        }
        const res = this.ctx.answerBlockTxs(req);
        if (!res) throw new NotFound();
        return encodeBlockTxsResponse(res);
      }
      default:
        throw new BadRequest(`this node does not serve ${name} requests yet`);
    }
  }

  /** Sends a request and returns the SUCCESS body, or undefined (logged, counted) on any failure. */
  private async request(peer: string, name: ReqRespProtocolName, body: Uint8Array, maxBytes: number) {
    const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    try {
      const stream = await this.node.dialProtocol(peerIdFromString(peer), REQRESP_PROTOCOLS[name], { signal });
      if (body.length > 0 && !stream.send(body)) await stream.onDrain({ signal });
      await stream.close({ signal });
      const raw = await readAll(stream, snappyMaxCompressedLength(maxBytes) + 1, signal);
      // The status byte then the snappy body, however the muxer cut them into frames.
      const res = decodeResponseChunks(raw.length === 0 ? [] : [raw.subarray(0, 1), raw.subarray(1)], maxBytes);
      if (res.status !== ReqRespStatus.SUCCESS) {
        this.ctx.stats.reqresp(name, 'outbound', reqRespStatusName(res.status).toLowerCase());
        // A response that does not decode (its framing, or a snappy body past the limit it declares): a
        // well-behaved peer never sends one.
        if (res.status === ReqRespStatus.UNKNOWN) {
          this.penalize(
            peer,
            'LowTolerance',
            `sent a ${name} response that does not decode: ${res.reason ?? 'an unknown status'}`,
          );
        }
        return undefined;
      }
      this.ctx.stats.reqresp(name, 'outbound', 'success');
      return res.data;
    } catch (err) {
      this.ctx.stats.reqresp(name, 'outbound', 'error');
      if (err instanceof TooLarge) this.penalize(peer, 'LowTolerance', `sent an oversized ${name} response`);
      this.ctx.log.debug({ peer, err: (err as Error).message }, `${name} request failed`);
      return undefined;
    }
  }

  private ownStatus(): StatusMessage {
    return { compressedComponentsVersion: this.ctx.versionString, ...this.ctx.chainStatus() };
  }

  /** The STATUS handshake on every new connection: a peer on another network or that does not answer is dropped. */
  private async onConnect(peer: string): Promise<void> {
    const body = await this.request(peer, 'status', encodeStatusMessage(this.ownStatus()), SMALL_RESPONSE_MAX_BYTES);
    if (body === undefined) return this.dropPeer(peer, 'it did not answer the status handshake');
    const status = this.checkedStatus(peer, body);
    if (!status) return;
    this.ctx.log.info(
      { peer, latestBlockNumber: status.latestBlockNumber },
      'peer connected (status handshake passed)',
    );
  }

  /** A status the peer sent, kept when it decodes and is of this network; else the peer is dropped. */
  private checkedStatus(peer: string, body: Buffer): Omit<StatusMessage, 'compressedComponentsVersion'> | undefined {
    let status: StatusMessage;
    try {
      status = decodeStatusMessage(body);
    } catch (err) {
      this.penalize(peer, 'LowTolerance', 'sent an undecodable status');
      void this.dropPeer(peer, `its status does not decode: ${(err as Error).message}`);
      return undefined;
    }
    const mismatch = compareComponentVersions(this.ctx.versionString, status.compressedComponentsVersion);
    if (mismatch) {
      void this.dropPeer(peer, `it is on another network: ${describeVersionMismatch(mismatch)}`);
      return undefined;
    }
    const { compressedComponentsVersion: _, ...rest } = status;
    this.statuses.set(peer, rest);
    return rest;
  }

  private async dropPeer(peer: string, why: string): Promise<void> {
    this.ctx.log.warn({ peer }, `disconnecting peer ${peer}: ${why}`);
    this.statuses.delete(peer);
    await this.node.hangUp(peerIdFromString(peer)).catch(() => undefined);
  }

  private penalize(peer: string, penalty: PeerPenaltyName, why: string): void {
    const score = this.scoring.penalize(peer, penalty);
    this.ctx.stats.penalty(penalty);
    this.ctx.log.debug({ peer, score }, `peer penalized: ${why}`);
    if (score <= BAN_SCORE) this.ban(peer, why);
    else if (score <= DISCONNECT_SCORE) void this.dropPeer(peer, `its score fell to ${round(score)}: it ${why}`);
  }

  private isBanned(peer: string): boolean {
    const until = this.banned.get(peer);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.banned.delete(peer);
    this.scoring.forget(peer);
    return false;
  }

  private ban(peer: string, why: string): void {
    if (this.banned.has(peer)) return;
    this.banned.set(peer, Date.now() + BAN_MS);
    this.ctx.log.warn({ peer }, `banning peer ${peer} for an hour: ${why}`);
    void this.node.hangUp(peerIdFromString(peer)).catch(() => undefined);
  }

  // ---- peer management ----

  private async tick(): Promise<void> {
    for (const conn of this.node.getConnections()) {
      const id = conn.remotePeer.toString();
      const verdict = this.scoring.verdict(id);
      if (verdict === 'ban') this.ban(id, 'its score fell to the ban threshold');
      else if (verdict === 'disconnect') void this.dropPeer(id, `its score is ${round(this.scoring.score(id))}`);
    }
    this.scoring.decay();
    const connected = new Set(this.node.getConnections().map((c) => c.remotePeer.toString()));
    for (const p of this.persistentPeers) {
      if (!connected.has(p.id)) void this.dial(p.id, p.addr, 'configured');
    }
    if (connected.size < this.ctx.config.maxPeers && !this.discovering) {
      this.discovering = true;
      try {
        for (const enr of this.discv5.kadValues()) void this.dialEnr(enr, 'routing table');
        await this.discv5.findRandomNode();
      } catch (err) {
        this.ctx.log.debug({ err: (err as Error).message }, 'discv5 lookup failed');
      } finally {
        this.discovering = false;
      }
    }
  }

  private async dialEnr(enr: ENR, source: string): Promise<void> {
    // A discovered record on another network is not dialled; a bootstrap node given by the operator is, and the
    // status handshake then says in the log what differs.
    const aztec = enr.kvs.get('aztec');
    if (source !== 'bootstrap' && (!aztec || new TextDecoder().decode(aztec) !== this.ctx.versionString)) return;
    const addr = tcpAddressOf(enr);
    if (!addr) return;
    await this.dial(enr.peerId.toString(), addr, source);
  }

  private async dial(id: string, addr: Multiaddr, source: string): Promise<void> {
    if (id === this.peerId || this.isBanned(id)) return;
    if (this.node.getConnections().some((c) => c.remotePeer.toString() === id)) return;
    if (this.peerCount() >= this.ctx.config.maxPeers && !this.trustedIds.has(id)) return;
    try {
      // The multiaddr types of two hoisted multiaddr lines differ (a types-only clash); the object is libp2p's own.
      const target = multiaddr(`${addr.toString()}/p2p/${id}`) as unknown as Parameters<Libp2p['dial']>[0];
      await this.node.dial(target, { signal: AbortSignal.timeout(5_000) });
      this.ctx.log.debug({ peer: id, source }, 'dialled peer');
    } catch (err) {
      this.ctx.log.debug({ peer: id, source, err: (err as Error).message }, 'dial failed');
    }
  }
}

/** The gossipsub router: its public interface plus the scoring and async-validation calls its class has. */
type GossipSub = GossipSubApi & {
  getScore(peerId: string): number;
  reportMessageValidationResult(msgId: string, propagationSource: string, result: TopicValidatorResult): void;
};

type Stream = Parameters<Parameters<Libp2p['handle']>[1]>[0];

class BadRequest extends Error {}
class NotFound extends Error {}
class TooLarge extends Error {}

/** Reads a stream to its end; more than `max` bytes aborts it (a peer cannot make the node buffer more). */
async function readAll(stream: Stream, max: number, signal: AbortSignal): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const onAbort = () => stream.abort(new Error('timed out'));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of stream) {
      const bytes = chunk instanceof Uint8Array ? chunk : chunk.subarray();
      size += bytes.length;
      if (size > max) throw new TooLarge(`more than ${max} bytes`);
      chunks.push(bytes);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) throw new Error('timed out');
  return Buffer.concat(chunks);
}

/** The largest request body each protocol takes: a status, a few hashes, a block number. */
function requestLimit(name: ReqRespProtocolName): number {
  if (name === 'tx') return 4 + 32 * 256;
  // An archive root, up to 256 hashes, and a bit vector of up to a block's most txs.
  if (name === 'block_txs') return 32 + 4 + 32 * 256 + 4 + MAX_TXS_PER_BLOCK / 8;
  return SMALL_RESPONSE_MAX_BYTES;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** A topic scored on invalid deliveries only (P4), as 4.1.2 scores the tx topic. */
function invalidOnlyTopicScore() {
  return {
    topicWeight: 1,
    timeInMeshWeight: 0,
    timeInMeshQuantum: 1000,
    timeInMeshCap: 1,
    firstMessageDeliveriesWeight: 0,
    firstMessageDeliveriesDecay: 0.5,
    firstMessageDeliveriesCap: 1,
    meshMessageDeliveriesWeight: 0,
    meshMessageDeliveriesDecay: 0.5,
    meshMessageDeliveriesCap: 1,
    meshMessageDeliveriesThreshold: 1,
    meshMessageDeliveriesWindow: 10,
    meshMessageDeliveriesActivation: 5000,
    meshFailurePenaltyWeight: 0,
    meshFailurePenaltyDecay: 0.5,
    invalidMessageDeliveriesWeight: INVALID_MESSAGE_WEIGHT,
    invalidMessageDeliveriesDecay: 0.9,
  };
}

function decodeEnr(text: string, log: Logger): ENR | undefined {
  try {
    return ENR.decodeTxt(text);
  } catch (err) {
    log.warn({ enr: text.slice(0, 40) }, `ignoring a bootstrap ENR that does not decode: ${(err as Error).message}`);
    return undefined;
  }
}

/** A configured peer (an ENR or /ip4/../tcp/../p2p/<id>) as its id and TCP address. */
function peerAddress(text: string, log: Logger): { id: string; addr: Multiaddr } | undefined {
  if (text.startsWith('enr:')) {
    const enr = decodeEnr(text, log);
    const addr = enr && tcpAddressOf(enr);
    return enr && addr ? { id: enr.peerId.toString(), addr } : undefined;
  }
  const m = text.match(/^(.*)\/p2p\/([A-Za-z0-9]+)$/);
  if (!m) return undefined;
  return { id: m[2] as string, addr: multiaddr(m[1] as string) };
}

/** The TCP address an ENR announces, as a multiaddr of our libp2p line. */
function tcpAddressOf(enr: ENR): Multiaddr | undefined {
  return enr.ip && enr.tcp ? multiaddr(`/ip4/${enr.ip}/tcp/${enr.tcp}`) : undefined;
}

/**
 * discv5's UDP bind address. It reads a bind multiaddr through `toOptions()`, which only the multiaddr line it
 * was built with has, and compares every destination with it by its bytes (the same binary form in both lines)
 * before it sends; the object carries exactly what it reads.
 */
function udpBindAddress(host: string, port: number): never {
  const text = `/ip4/${host}/udp/${port}`;
  const bytes = multiaddr(text).bytes;
  return {
    bytes,
    toOptions: () => ({ family: 4, host, transport: 'udp', port }),
    toString: () => text,
    equals: (other: { bytes?: Uint8Array }) => other.bytes !== undefined && Buffer.from(bytes).equals(other.bytes),
  } as never;
}

/** A UDP port free on `host` now (discv5 binds it right after): for p2p port 0 on one machine. */
async function freeUdpPort(host: string): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, host, () => resolve());
  });
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}
