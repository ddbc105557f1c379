import { sha256 } from '@noble/hashes/sha2';
import { BufferReader } from '../serialize/buffer-reader.js';
import { snappyCompress, snappyDecompress } from './snappy-block.js';
import { gossipMaxSizeBytes } from './topics.js';

/**
 * The data of one gossip message before compression (4.1.2 P2PMessage.toMessageData with message
 * instrumentation off, its default): the payload's length as a 4-byte big-endian integer, then the payload
 * (the `toBuffer()` form of a Tx, BlockProposal, CheckpointProposal or CheckpointAttestation).
 */
export function encodeGossipMessageData(payload: Uint8Array): Buffer {
  const out = Buffer.alloc(4 + payload.length);
  out.writeUInt32BE(payload.length, 0);
  out.set(payload, 4);
  return out;
}

/**
 * The payload of a gossip message's data. 4.1.2 reads the length prefix and ignores bytes after the payload; we
 * refuse them, so one payload has one encoding (a peer sending trailing bytes gets the message rejected).
 */
export function decodeGossipMessageData(data: Uint8Array): Buffer {
  const r = new BufferReader(data, 0, 'gossip message');
  const length = r.readU32('payload length');
  const payload = r.readBytes(length, 'payload');
  r.assertEnd('payload');
  return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
}

/**
 * Gossipsub message id (4.1.2 getMsgIdFn): the first 20 bytes of SHA-256 over the topic string's UTF-8 bytes
 * followed by the message data as the application sees it (decompressed: gossipsub computes ids after the
 * inbound transform).
 */
export function gossipMessageId(message: { topic: string; data: Uint8Array }): Uint8Array {
  const h = sha256.create();
  h.update(new TextEncoder().encode(message.topic));
  h.update(message.data);
  return h.digest().subarray(0, 20);
}

/**
 * The data transform of 4.1.2's gossipsub (SnappyTransform), in the shape of @chainsafe/libp2p-gossipsub's
 * DataTransform: outbound data is snappy-compressed; inbound data must announce a decompressed size within its
 * topic's limit (GOSSIP_MAX_SIZE_BYTES) before it is decompressed. A throw makes gossipsub drop the message and
 * count it against the sender.
 */
export class GossipSnappyTransform {
  /** `maxSizeBytes` overrides the per-topic limits (tests, and a node configured with a smaller tx limit). */
  constructor(private readonly maxSizeBytes: (topic: string) => number = gossipMaxSizeBytes) {}

  inboundTransform(topic: string, data: Uint8Array): Uint8Array {
    return snappyDecompress(data, this.maxSizeBytes(topic));
  }

  outboundTransform(_topic: string, data: Uint8Array): Uint8Array {
    return snappyCompress(data);
  }
}
