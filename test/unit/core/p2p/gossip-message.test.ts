import { P2PMessage } from '@aztec/stdlib/p2p';
import { compressSync } from 'snappy';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decodeGossipMessageData,
  encodeGossipMessageData,
  GossipSnappyTransform,
  gossipMessageId,
} from '../../../../src/core/p2p/gossip-message.js';
import { readSnappyPreamble, snappyCompress, snappyDecompress } from '../../../../src/core/p2p/snappy-block.js';
import { importAztecP2p } from '../../../helpers/aztec-p2p-oracle/aztec-p2p-modules.js';
import { prng } from '../../../helpers/prng.js';

/** `size` seeded pseudo-random bytes. */
function bytes(size: number, seed: number): Buffer {
  const next = prng(seed);
  return Buffer.from(Array.from({ length: size }, () => Math.floor(next() * 256)));
}

interface Encoding {
  SnappyTransform: new () => {
    inboundTransform(topic: string, data: Uint8Array): Uint8Array;
    outboundTransform(topic: string, data: Uint8Array): Uint8Array;
  };
  getMsgIdFn(m: { topic: string; data: Uint8Array }): Promise<Uint8Array>;
  readSnappyPreamble(d: Uint8Array): { decompressedSize: number; bytesRead: number };
}

let official: Encoding;
beforeAll(async () => {
  official = await importAztecP2p<Encoding>('services/encoding.js');
});

const TX_TOPIC = '/aztec/tx/00-31337-5fbdb231-1-00b5f2a1-00a1b2c3';
const ATTESTATION_TOPIC = '/aztec/checkpoint_attestation/00-31337-5fbdb231-1-00b5f2a1-00a1b2c3';

describe('gossip message data', () => {
  it('is the 4-byte big-endian length then the payload, as P2PMessage.toMessageData', () => {
    for (const size of [0, 1, 255, 256, 70_000]) {
      const payload = bytes(size, size + 1);
      const ours = encodeGossipMessageData(payload);
      expect(ours).toEqual(new P2PMessage(payload).toMessageData());
      expect(ours.readUInt32BE(0)).toBe(size);
      expect(decodeGossipMessageData(ours)).toEqual(P2PMessage.fromMessageData(ours).payload);
    }
  });

  it('refuses a short payload and trailing bytes', () => {
    const data = encodeGossipMessageData(Buffer.from('abcdef'));
    expect(() => decodeGossipMessageData(data.subarray(0, 8))).toThrow(/payload.*needs 6 bytes/);
    expect(() => decodeGossipMessageData(Buffer.concat([data, Buffer.from([0])]))).toThrow(/trailing/);
    expect(() => decodeGossipMessageData(Buffer.from([0, 0]))).toThrow(/payload length/);
  });
});

describe('gossip message id', () => {
  it('is the first 20 bytes of SHA-256(topic || data), as 4.1.2 getMsgIdFn', async () => {
    for (const [topic, size] of [
      [TX_TOPIC, 0],
      [TX_TOPIC, 1000],
      [ATTESTATION_TOPIC, 77],
    ] as const) {
      const data = bytes(size, 7);
      const ours = gossipMessageId({ topic, data });
      expect(ours.length).toBe(20);
      expect(Buffer.from(ours)).toEqual(Buffer.from(await official.getMsgIdFn({ topic, data })));
    }
  });
});

describe('snappy transform', () => {
  const samples = [Buffer.alloc(0), Buffer.from('x'), Buffer.alloc(100_000, 7), bytes(50_000, 3)];

  it('decompresses what 4.1.2 (native snappy) compresses, and 4.1.2 decompresses ours', () => {
    const ours = new GossipSnappyTransform();
    const theirs = new official.SnappyTransform();
    for (const data of samples) {
      const fromThem = theirs.outboundTransform(TX_TOPIC, data);
      expect(Buffer.from(ours.inboundTransform(TX_TOPIC, fromThem))).toEqual(data);
      const fromUs = ours.outboundTransform(TX_TOPIC, data);
      expect(Buffer.from(theirs.inboundTransform(TX_TOPIC, fromUs))).toEqual(data);
      if (data.length > 0) expect(Buffer.from(fromUs)).toEqual(compressSync(data));
    }
  });

  it('reads the varint preamble as 4.1.2 does', () => {
    const cases = [[0x00], [0x7f], [0x80, 0x01], [0xff, 0xff, 0xff, 0xff, 0x0f], [0xff, 0xff, 0xff, 0xff, 0x7f]];
    for (const c of cases)
      expect(readSnappyPreamble(Uint8Array.from(c))).toEqual(official.readSnappyPreamble(Uint8Array.from(c)));
    for (const c of [[0x80], [0xff, 0xff, 0xff, 0xff, 0xff, 0x01]]) {
      expect(() => official.readSnappyPreamble(Uint8Array.from(c))).toThrow();
      expect(() => readSnappyPreamble(Uint8Array.from(c))).toThrow(/preamble/);
    }
  });

  it('refuses a message announcing more than its topic allows, before decompressing', () => {
    const ours = new GossipSnappyTransform();
    const theirs = new official.SnappyTransform();
    const attestation = compressSync(Buffer.alloc(5 * 1024 + 1));
    expect(() => theirs.inboundTransform(ATTESTATION_TOPIC, attestation)).toThrow(/exceeds/);
    expect(() => ours.inboundTransform(ATTESTATION_TOPIC, attestation)).toThrow(/exceeds the maximum of 5120/);
    expect(ours.inboundTransform(ATTESTATION_TOPIC, compressSync(Buffer.alloc(5 * 1024))).length).toBe(5120);
    // Five bytes announcing 4 GiB: refused on the preamble alone.
    const bomb = Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x00]);
    expect(() => ours.inboundTransform(TX_TOPIC, bomb)).toThrow(/exceeds/);
  });

  it('refuses malformed blocks with a SnappyError', () => {
    const good = snappyCompress(Buffer.alloc(1000, 1));
    expect(() => snappyDecompress(good.subarray(0, good.length - 1), 2000)).toThrow(/Malformed snappy block|announced/);
    expect(() => snappyDecompress(Uint8Array.from([0x05, 0xff, 0xff]), 100)).toThrow(
      /Malformed snappy block|announced/,
    );
  });
});
