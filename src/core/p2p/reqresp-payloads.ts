import { MAX_TX_SIZE_BYTES } from '../constants.js';
import { Fr } from '../fr.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { readField32 } from '../serialize/field-bytes.js';
import { Tx } from '../tx/tx.js';
import { TxHash } from '../tx-hash.js';
import { MAX_L2_BLOCK_SIZE_BYTES, type ReqRespProtocolName, SMALL_RESPONSE_MAX_BYTES } from './reqresp-protocols.js';

/**
 * Request and response bodies of 4.1.2's req/resp sub-protocols (before the snappy compression of responses;
 * requests travel uncompressed). Decoders refuse trailing bytes and bound every count a peer chooses.
 */

/** Most txs one block, and so one request or response list, may hold (4.1.2 MAX_TXS_PER_BLOCK, 2^16). */
export const MAX_TXS_PER_BLOCK = 2 ** 16;

// ping: any request; the response is the four bytes `pong`.
export const PING_RESPONSE = Buffer.from('pong');

/** Why a peer says goodbye (4.1.2 GoodByeReason): one byte, the whole goodbye request; no response is sent. */
export const GoodbyeReason = {
  SHUTDOWN: 1,
  MAX_PEERS: 2,
  LOW_SCORE: 3,
  BANNED: 4,
  WRONG_NETWORK: 5,
  UNKNOWN: 6,
} as const;

export type GoodbyeReason = (typeof GoodbyeReason)[keyof typeof GoodbyeReason];

export function encodeGoodbyeReason(reason: GoodbyeReason): Buffer {
  return Buffer.from([reason]);
}

/** 4.1.2 takes any single byte as the reason and anything else as UNKNOWN; so do we. */
export function decodeGoodbyeReason(buf: Uint8Array): number {
  return buf.length === 1 ? (buf[0] as number) : GoodbyeReason.UNKNOWN;
}

// tx: the request is a list of tx hashes (u32 count, then 32 bytes each); the response a list of the txs the
// peer has (u32 count, then each Tx.toBuffer).

export function encodeTxHashes(hashes: readonly TxHash[]): Buffer {
  const w = new BufferWriter(4 + 32 * hashes.length);
  writeTxHashes(w, hashes);
  return w.toBuffer();
}

/** A u32 count then the 32-byte hashes (4.1.2 TxHashArray, and the hash list of proposals). */
export function writeTxHashes(w: BufferWriter, hashes: readonly TxHash[]): void {
  w.writeU32(hashes.length);
  for (const h of hashes) w.writeBytes(h.toBuffer());
}

export function decodeTxHashes(buf: Uint8Array, name = 'txHashes'): TxHash[] {
  const r = new BufferReader(buf, 0, name);
  const hashes = readTxHashes(r, 'hashes');
  r.assertEnd('hashes');
  return hashes;
}

export function readTxHashes(r: BufferReader, name: string): TxHash[] {
  const n = r.readU32(name, 'count');
  if (n > MAX_TXS_PER_BLOCK) throw r.error(name, 'count', `${n} is more than the ${MAX_TXS_PER_BLOCK} allowed`);
  if (n * 32 > r.remaining) throw r.error(name, 'count', `${n} hashes need ${n * 32} bytes, ${r.remaining} left`);
  const out = new Array<TxHash>(n);
  for (let i = 0; i < n; i++) out[i] = new TxHash(readField32(r.readBytes(32, name, i)));
  return out;
}

export function encodeTxs(txs: readonly Tx[]): Buffer {
  const w = new BufferWriter();
  writeTxsCounted(w, txs);
  return w.toBuffer();
}

/** A u32 count then each Tx.toBuffer (4.1.2 TxArray.toBuffer, and the tx list of SignedTxs). */
export function writeTxsCounted(w: BufferWriter, txs: readonly Tx[]): void {
  if (txs.length > MAX_TXS_PER_BLOCK) throw new RangeError(`At most ${MAX_TXS_PER_BLOCK} txs, got ${txs.length}`);
  w.writeU32(txs.length);
  for (const t of txs) w.writeBytes(t.toBuffer());
}

export function decodeTxs(buf: Uint8Array, name = 'txs'): Tx[] {
  const r = new BufferReader(buf, 0, name);
  const txs = readTxsCounted(r, 'txs');
  r.assertEnd('txs');
  return txs;
}

/** A u32 count then that many txs (4.1.2 readVector(Tx), TxArray and SignedTxs). */
export function readTxsCounted(r: BufferReader, name: string): Tx[] {
  const n = r.readU32(name, 'count');
  if (n > MAX_TXS_PER_BLOCK) throw r.error(name, 'count', `${n} is more than the ${MAX_TXS_PER_BLOCK} allowed`);
  const out: Tx[] = [];
  for (let i = 0; i < n; i++) out.push(Tx.read(r, `${name}[${i}]`));
  return out;
}

// block: the request is the block number as a 32-byte field; the response the L2Block's binary form.

export function encodeBlockRequest(blockNumber: number): Buffer {
  return new Fr(BigInt(blockNumber)).toBuffer();
}

/** The requested block number; a field above 2^32 - 1 is no block number. */
export function decodeBlockRequest(buf: Uint8Array): number {
  const r = new BufferReader(buf, 0, 'blockRequest');
  const v = r.readFieldValue('blockNumber');
  r.assertEnd('blockNumber');
  if (v > 0xffffffffn) throw r.error('blockNumber', undefined, `${v} is not a block number`);
  return Number(v);
}

/**
 * Which txs of a proposal a block_txs request asks for, or a response holds (4.1.2 BitVector): u32 bit count,
 * then ceil(count / 8) bytes, bit i in byte i / 8 at position i % 8 (least significant first).
 */
export class BitVector {
  private constructor(
    readonly length: number,
    private readonly bits: Buffer,
  ) {}

  static of(length: number, setIndices: Iterable<number>): BitVector {
    if (!Number.isInteger(length) || length < 0 || length > MAX_TXS_PER_BLOCK) {
      throw new RangeError(`A bit vector holds 0 to ${MAX_TXS_PER_BLOCK} bits, got ${length}`);
    }
    const bits = Buffer.alloc(Math.ceil(length / 8));
    for (const i of setIndices) {
      if (!Number.isInteger(i) || i < 0 || i >= length) {
        throw new RangeError(`Index ${i} is out of bounds for a bit vector of length ${length}`);
      }
      bits[i >> 3] = (bits[i >> 3] as number) | (1 << (i & 7));
    }
    return new BitVector(length, bits);
  }

  isSet(i: number): boolean {
    return i >= 0 && i < this.length && ((this.bits[i >> 3] as number) & (1 << (i & 7))) !== 0;
  }

  setIndices(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.length; i++) if (this.isSet(i)) out.push(i);
    return out;
  }

  write(w: BufferWriter): void {
    w.writeU32(this.length);
    w.writeBytes(this.bits);
  }

  static read(r: BufferReader, name: string): BitVector {
    const length = r.readU32(name, 'length');
    if (length > MAX_TXS_PER_BLOCK) {
      throw r.error(name, 'length', `${length} is more than the ${MAX_TXS_PER_BLOCK} allowed`);
    }
    return new BitVector(length, Buffer.from(r.readBytes(Math.ceil(length / 8), name, 'bits')));
  }
}

/**
 * block_txs request (4.1.2 BlockTxsRequest): the archive root after the proposed block (which proposal), the
 * hashes of the wanted txs (may be empty when the peer knows the proposal), and the indices wanted within it.
 */
export interface BlockTxsRequest {
  readonly archiveRoot: Fr;
  readonly txHashes: readonly TxHash[];
  readonly txIndices: BitVector;
}

/** block_txs response (4.1.2 BlockTxsResponse): the archive root, the txs the peer has, and which it has. */
export interface BlockTxsResponse {
  readonly archiveRoot: Fr;
  readonly txs: readonly Tx[];
  readonly txIndices: BitVector;
}

export function encodeBlockTxsRequest(req: BlockTxsRequest): Buffer {
  const w = new BufferWriter(40 + 32 * req.txHashes.length + Math.ceil(req.txIndices.length / 8));
  w.writeFr(req.archiveRoot);
  w.writeBytes(encodeTxHashes(req.txHashes));
  req.txIndices.write(w);
  return w.toBuffer();
}

export function decodeBlockTxsRequest(buf: Uint8Array): BlockTxsRequest {
  const r = new BufferReader(buf, 0, 'blockTxsRequest');
  const archiveRoot = r.readFr('archiveRoot');
  const txHashes = readTxHashes(r, 'txHashes');
  const txIndices = BitVector.read(r, 'txIndices');
  r.assertEnd('txIndices');
  return { archiveRoot, txHashes, txIndices };
}

export function encodeBlockTxsResponse(res: BlockTxsResponse): Buffer {
  const w = new BufferWriter();
  w.writeFr(res.archiveRoot);
  w.writeBytes(encodeTxs(res.txs));
  res.txIndices.write(w);
  return w.toBuffer();
}

export function decodeBlockTxsResponse(buf: Uint8Array): BlockTxsResponse {
  const r = new BufferReader(buf, 0, 'blockTxsResponse');
  const archiveRoot = r.readFr('archiveRoot');
  const txs = readTxsCounted(r, 'txs');
  const txIndices = BitVector.read(r, 'txIndices');
  r.assertEnd('txIndices');
  return { archiveRoot, txs, txIndices };
}

/**
 * The largest decompressed response accepted for a request, from the request's bytes (4.1.2
 * subProtocolSizeCalculators): `tx` one 512 KiB tx per requested hash (at least one) plus 1 KiB, `block_txs` one
 * per requested index plus 1 KiB (a request that does not decode allows one tx), `block` 3 MiB, the others 1 KiB.
 */
export function maxResponseBytes(protocol: ReqRespProtocolName, request: Uint8Array): number {
  try {
    if (protocol === 'tx') return Math.max(decodeTxHashes(request).length, 1) * MAX_TX_SIZE_BYTES + 1024;
    if (protocol === 'block_txs') {
      return decodeBlockTxsRequest(request).txIndices.setIndices().length * MAX_TX_SIZE_BYTES + 1024;
    }
  } catch {
    return MAX_TX_SIZE_BYTES + 1024;
  }
  return protocol === 'block' ? MAX_L2_BLOCK_SIZE_BYTES : SMALL_RESPONSE_MAX_BYTES;
}
