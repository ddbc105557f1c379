/**
 * A p2p peer built from Aztec 4.1.2's own parts, to prove that l2node speaks 4.1.2's wire.
 *
 * 4.1.2's whole LibP2PService cannot be constructed here: its module imports the message validators and
 * mempools, which load `@aztec/native` (a binary that needs a newer glibc than these machines have). So the
 * peer is assembled as LibP2PService assembles itself, from the same parts:
 * - the libp2p line @aztec/p2p@4.1.2 pins (libp2p 1.5, @chainsafe/libp2p-gossipsub 13, noise 15, yamux 6, mplex
 *   10, @libp2p/tcp 9, identify 1 with protocol prefix `aztec`), resolved from @aztec/p2p's own dependencies;
 * - gossipsub configured as 4.1.2 configures it: StrictNoSign, its SnappyTransform as data transform, its
 *   getMsgIdFn / fastMsgIdFn / msgIdToStrFn;
 * - 4.1.2's ReqResp class itself (stream handling, status byte, snappy, size limits, rate limits) with its
 *   StatusMessage and ping/goodbye codecs;
 * - stdlib's P2PMessage framing and Tx / BlockProposal / CheckpointProposal / CheckpointAttestation decoders.
 */
import { createTopicString, P2PMessage, TopicType } from '@aztec/stdlib/p2p';
import { importAztecP2p, importAztecP2pDependency } from './aztec-p2p-modules.js';

// biome-ignore lint/suspicious/noExplicitAny: the 4.1.2 modules are loaded by file, without their types.
type Any = any;

export interface OracleStatus {
  latestBlockNumber: number;
  latestBlockHash: string;
  finalizedBlockNumber: number;
}

/** A gossip message the oracle received, decoded with stdlib's fromBuffer for its topic. */
export interface ReceivedGossip {
  topic: TopicType;
  from: string;
  // biome-ignore lint/suspicious/noExplicitAny: a stdlib Tx, BlockProposal, CheckpointProposal or CheckpointAttestation.
  message: any;
}

const DECODERS: Record<TopicType, () => Promise<{ fromBuffer(b: Buffer): unknown }>> = {
  [TopicType.tx]: async () => (await import('@aztec/stdlib/tx')).Tx,
  [TopicType.block_proposal]: async () => (await import('@aztec/stdlib/p2p')).BlockProposal,
  [TopicType.checkpoint_proposal]: async () => (await import('@aztec/stdlib/p2p')).CheckpointProposal,
  [TopicType.checkpoint_attestation]: async () => (await import('@aztec/stdlib/p2p')).CheckpointAttestation,
};

/**
 * @libp2p/tcp 9 keeps the addresses its copy of @multiformats/mafmt matches; when npm gives mafmt the
 * multiaddr 12.1.14 that @aztec/p2p pins while libp2p 1.5 builds its addresses with 12.5, mafmt cannot read them
 * and the transport refuses every address. The oracle only ever uses IPv4 TCP on loopback, so its filter says
 * that directly, whatever layout npm chose.
 */
function loopbackTcp(tcp: Any): Any {
  const make = tcp();
  const ipv4Tcp = /^\/ip4\/127\.0\.0\.1\/tcp\/\d+(\/p2p\/\w+)?$/;
  return (components: Any) => {
    const transport = make(components);
    const filter = (addrs: Any) =>
      (Array.isArray(addrs) ? addrs : [addrs]).filter((a: Any) => ipv4Tcp.test(a.toString()));
    transport.listenFilter = filter;
    transport.dialFilter = filter;
    return transport;
  };
}

export class AztecP2pOracle {
  readonly received: ReceivedGossip[] = [];
  /** Status messages peers sent us (their side of the handshake), by peer id. */
  readonly statusRequests = new Map<string, Any>();
  /** Gossip messages that failed 4.1.2's decoding, with the error. */
  readonly undecodable: { topic: string; error: string }[] = [];

  private constructor(
    private readonly node: Any,
    private readonly reqresp: Any,
    private readonly modules: { StatusMessage: Any; ReqRespSubProtocol: Any; multiaddr: Any },
    readonly compressedVersion: string,
  ) {}

  static async start(compressedVersion: string, status: () => OracleStatus): Promise<AztecP2pOracle> {
    const { createLibp2p } = await importAztecP2pDependency<Any>('libp2p');
    const { tcp } = await importAztecP2pDependency<Any>('@libp2p/tcp');
    const { noise } = await importAztecP2pDependency<Any>('@chainsafe/libp2p-noise');
    const { yamux } = await importAztecP2pDependency<Any>('@chainsafe/libp2p-yamux');
    const { mplex } = await importAztecP2pDependency<Any>('@libp2p/mplex');
    const { identify } = await importAztecP2pDependency<Any>('@libp2p/identify');
    const { gossipsub } = await importAztecP2pDependency<Any>('@chainsafe/libp2p-gossipsub');
    const { SignaturePolicy } = await importAztecP2pDependency<Any>('@chainsafe/libp2p-gossipsub/types');
    const { createSecp256k1PeerId } = await importAztecP2pDependency<Any>('@libp2p/peer-id-factory');
    const { multiaddr } = await importAztecP2pDependency<Any>('@multiformats/multiaddr', 'libp2p');
    const encoding = await importAztecP2p<Any>('services/encoding.js');
    const { ReqResp } = await importAztecP2p<Any>('services/reqresp/reqresp.js');
    const { PeerScoring } = await importAztecP2p<Any>('services/peer-manager/peer_scoring.js');
    const { ReqRespSubProtocol, DEFAULT_SUB_PROTOCOL_VALIDATORS } = await importAztecP2p<Any>(
      'services/reqresp/interface.js',
    );
    const { StatusMessage, pingHandler } = await importAztecP2p<Any>('services/reqresp/protocols/index.js');

    const node = await createLibp2p({
      start: false,
      peerId: await createSecp256k1PeerId(),
      addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
      transports: [loopbackTcp(tcp)],
      streamMuxers: [yamux(), mplex()],
      connectionEncryption: [noise()],
      connectionManager: { minConnections: 0 },
      services: {
        identify: identify({ protocolPrefix: 'aztec', runOnConnectionOpen: true }),
        pubsub: gossipsub({
          globalSignaturePolicy: SignaturePolicy.StrictNoSign,
          allowPublishToZeroTopicPeers: true,
          heartbeatInterval: 700,
          msgIdFn: encoding.getMsgIdFn,
          msgIdToStrFn: encoding.msgIdToStrFn,
          fastMsgIdFn: encoding.fastMsgIdFn,
          dataTransform: new encoding.SnappyTransform(),
        }),
      },
    });
    const reqresp = new ReqResp({}, node, new PeerScoring({}));
    const oracle = new AztecP2pOracle(
      node,
      reqresp,
      { StatusMessage, ReqRespSubProtocol, multiaddr },
      compressedVersion,
    );
    const ourStatus = () => {
      const s = status();
      return new StatusMessage(compressedVersion, s.latestBlockNumber, s.latestBlockHash, s.finalizedBlockNumber);
    };
    await node.start();
    await reqresp.start(
      {
        [ReqRespSubProtocol.PING]: (_peer: Any, msg: Buffer) => pingHandler(msg),
        [ReqRespSubProtocol.STATUS]: (peer: Any, msg: Buffer) => {
          oracle.statusRequests.set(peer.toString(), StatusMessage.fromBuffer(msg));
          return Promise.resolve(ourStatus().toBuffer());
        },
        [ReqRespSubProtocol.GOODBYE]: () => Promise.resolve(Buffer.alloc(0)),
      },
      DEFAULT_SUB_PROTOCOL_VALIDATORS,
    );
    node.services.pubsub.addEventListener('gossipsub:message', (e: Any) => void oracle.onGossip(e.detail));
    oracle.ourStatus = ourStatus;
    return oracle;
  }

  private ourStatus: () => Any = () => undefined;

  get peerId(): string {
    return this.node.peerId.toString();
  }

  get multiaddr(): string {
    return this.node.getMultiaddrs()[0].toString();
  }

  async connect(address: string): Promise<string> {
    const connection = await this.node.dial(this.modules.multiaddr(address));
    return connection.remotePeer.toString();
  }

  connectedPeers(): string[] {
    return this.node.getPeers().map((p: Any) => p.toString());
  }

  /** Our side of the handshake: sends our STATUS, returns the peer's decoded STATUS (or throws on failure). */
  async requestStatus(peerId: string): Promise<Any> {
    const peer = this.node.getPeers().find((p: Any) => p.toString() === peerId);
    if (!peer) throw new Error(`not connected to ${peerId}`);
    const res = await this.reqresp.sendRequestToPeer(
      peer,
      this.modules.ReqRespSubProtocol.STATUS,
      this.ourStatus().toBuffer(),
    );
    if (res.status !== 0) throw new Error(`STATUS failed with status ${res.status}`);
    return this.modules.StatusMessage.fromBuffer(res.data);
  }

  /** Req/resp BLOCK as 4.1.2 asks it: the block number as a field; the raw SUCCESS body (empty when none). */
  async requestBlock(peerId: string, blockNumber: number): Promise<Buffer> {
    const peer = this.node.getPeers().find((p: Any) => p.toString() === peerId);
    if (!peer) throw new Error(`not connected to ${peerId}`);
    const { Fr } = await import('@aztec/foundation/curves/bn254');
    const res = await this.reqresp.sendRequestToPeer(
      peer,
      this.modules.ReqRespSubProtocol.BLOCK,
      new Fr(blockNumber).toBuffer(),
    );
    if (res.status !== 0) throw new Error(`BLOCK failed with status ${res.status}`);
    return res.data;
  }

  async ping(peerId: string): Promise<string> {
    const peer = this.node.getPeers().find((p: Any) => p.toString() === peerId);
    const res = await this.reqresp.sendRequestToPeer(peer, this.modules.ReqRespSubProtocol.PING, Buffer.from([1]));
    if (res.status !== 0) throw new Error(`PING failed with status ${res.status}`);
    return res.data.toString();
  }

  topic(type: TopicType): string {
    return createTopicString(type, this.compressedVersion);
  }

  subscribe(...types: TopicType[]): void {
    for (const t of types) this.node.services.pubsub.subscribe(this.topic(t));
  }

  /** Peers the oracle knows to be subscribed to a topic (a publish only reaches those). */
  subscribers(type: TopicType): string[] {
    return this.node.services.pubsub.getSubscribers(this.topic(type)).map((p: Any) => p.toString());
  }

  /** Publishes a stdlib gossipable (Tx, BlockProposal...) on its topic with 4.1.2's framing. */
  async publish(type: TopicType, gossipable: { toBuffer(): Buffer }): Promise<number> {
    const data = new P2PMessage(gossipable.toBuffer()).toMessageData();
    const result = await this.node.services.pubsub.publish(this.topic(type), data);
    return result.recipients.length;
  }

  /** Publishes any payload behind 4.1.2's framing, as a hostile or broken peer would. */
  async publishPayload(type: TopicType, payload: Buffer): Promise<number> {
    const result = await this.node.services.pubsub.publish(this.topic(type), new P2PMessage(payload).toMessageData());
    return result.recipients.length;
  }

  private async onGossip(detail: Any): Promise<void> {
    const topicStr: string = detail.msg.topic;
    const type = Object.values(TopicType).find((t) => this.topic(t) === topicStr);
    try {
      if (!type) throw new Error('not one of our topics');
      const payload = P2PMessage.fromMessageData(Buffer.from(detail.msg.data)).payload;
      const message = (await DECODERS[type]()).fromBuffer(payload);
      this.received.push({ topic: type, from: detail.propagationSource.toString(), message });
    } catch (e) {
      this.undecodable.push({ topic: topicStr, error: (e as Error).message });
    }
  }

  async stop(): Promise<void> {
    await this.reqresp.stop();
    await this.node.stop();
  }
}
