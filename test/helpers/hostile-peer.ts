import { randomBytes } from 'node:crypto';
import { ENR } from '@chainsafe/enr';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { privateKeyFromRaw } from '@libp2p/crypto/keys';
import { gossipsub, StrictNoSign } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import { tcp } from '@libp2p/tcp';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p, type Libp2p } from 'libp2p';
import { gossipMessageId } from '../../src/core/p2p/gossip-message.js';
import { successResponseChunks } from '../../src/core/p2p/reqresp-framing.js';
import { REQRESP_PROTOCOLS, type ReqRespProtocolName } from '../../src/core/p2p/reqresp-protocols.js';
import { encodeStatusMessage } from '../../src/core/p2p/status-message.js';
import { type GossipTopicType, topicString } from '../../src/core/p2p/topics.js';

/** The chunks a hostile peer writes as its answer to a request (status byte first), given the request. */
export type HostileAnswer = (request: Buffer) => Uint8Array[];

export interface HostilePeerOptions {
  /** The tip its STATUS announces (default block 0): a follower asks a peer ahead for blocks. */
  readonly tip?: { readonly number: number; readonly hash: string };
  /** How it answers req/resp protocols; STATUS defaults to an honest status of its tip. */
  readonly answers?: Partial<Record<ReqRespProtocolName, HostileAnswer>>;
}

/**
 * A peer that speaks the node's stack (TCP, Noise, Yamux, gossipsub StrictNoSign with 4.1.2's message id) and
 * answers the STATUS handshake so the node keeps it, then sends whatever a test wants: its gossip goes out
 * exactly as given (no snappy of its own), so a test can send garbage, oversized or malformed bytes.
 */
export class HostilePeer {
  private constructor(
    private readonly node: Libp2p<{ pubsub: ReturnType<ReturnType<typeof gossipsub>> }>,
    readonly version: string,
    private readonly target: { id: string; addr: string },
  ) {}

  static async connect(enrText: string, options: HostilePeerOptions = {}): Promise<HostilePeer> {
    const enr = ENR.decodeTxt(enrText);
    const version = new TextDecoder().decode(enr.kvs.get('aztec'));
    const node = await createLibp2p({
      privateKey: privateKeyFromRaw(Uint8Array.from(randomBytes(32))),
      addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
      transports: [tcp()],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      services: {
        identify: identify({ protocolPrefix: 'aztec' }),
        pubsub: gossipsub({
          globalSignaturePolicy: StrictNoSign,
          floodPublish: true,
          allowPublishToZeroTopicPeers: true,
          msgIdFn: (msg) => gossipMessageId(msg),
          // What the test gives is what goes on the wire.
          dataTransform: { inboundTransform: (_t, d) => d, outboundTransform: (_t, d) => d },
        }),
      },
    });
    const peer = new HostilePeer(node as never, version, {
      id: enr.peerId.toString(),
      addr: `/ip4/${enr.ip}/tcp/${enr.tcp}/p2p/${enr.peerId.toString()}`,
    });
    const status = {
      compressedComponentsVersion: version,
      latestBlockNumber: options.tip?.number ?? 0,
      latestBlockHash: options.tip?.hash ?? `0x${'0'.repeat(64)}`,
      finalizedBlockNumber: 0,
    };
    const answers: Partial<Record<ReqRespProtocolName, HostileAnswer>> = {
      status: () => successResponseChunks(encodeStatusMessage(status)),
      ...options.answers,
    };
    for (const [name, answer] of Object.entries(answers)) {
      await node.handle(REQRESP_PROTOCOLS[name as ReqRespProtocolName], async (stream) => {
        const chunks: Uint8Array[] = [];
        for await (const c of stream) chunks.push(c instanceof Uint8Array ? c : c.subarray());
        // Separate writes: the status byte is a chunk of its own, as 4.1.2 reads it.
        for (const chunk of answer(Buffer.concat(chunks))) stream.send(chunk);
        await stream.close();
      });
    }
    node.services.pubsub.subscribe(topicString('tx', version));
    try {
      await node.dial(dialTarget(peer.target.addr));
    } catch (err) {
      await node.stop();
      throw err;
    }
    return peer;
  }

  get id(): string {
    return this.node.peerId.toString();
  }

  connected(): boolean {
    return this.node.getConnections().some((c) => c.remotePeer.toString() === this.target.id);
  }

  /** Publishes `data` as it is on the node's tx topic, once the node is known to subscribe to it. */
  async publishTx(data: Uint8Array): Promise<void> {
    await this.publish('tx', data);
  }

  /** Publishes `data` as it is (already framed and compressed) on one of the node's topics, once it subscribes. */
  async publish(type: GossipTopicType, data: Uint8Array): Promise<void> {
    const topic = topicString(type, this.version);
    const pubsub = this.node.services.pubsub;
    for (let i = 0; i < 100 && !pubsub.getSubscribers(topic).some((p) => p.toString() === this.target.id); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await pubsub.publish(topic, data);
  }

  /** Sends one request and returns the raw response bytes (status byte first), or the error's message. */
  async request(name: ReqRespProtocolName, body: Uint8Array): Promise<Buffer | string> {
    const signal = AbortSignal.timeout(5_000);
    try {
      const stream = await this.node.dialProtocol(dialTarget(this.target.addr), REQRESP_PROTOCOLS[name], { signal });
      signal.addEventListener('abort', () => stream.abort(new Error('timed out')), { once: true });
      stream.send(body);
      await stream.close({ signal });
      const chunks: Uint8Array[] = [];
      for await (const c of stream) chunks.push(c instanceof Uint8Array ? c : c.subarray());
      return Buffer.concat(chunks);
    } catch (err) {
      return (err as Error).message;
    }
  }

  async stop(): Promise<void> {
    await this.node.stop();
  }
}

/** A multiaddr as libp2p's dial takes it (two hoisted multiaddr lines clash in types only). */
function dialTarget(addr: string): Parameters<Libp2p['dial']>[0] {
  return multiaddr(addr) as unknown as Parameters<Libp2p['dial']>[0];
}
