import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';

/** Longest version string a STATUS message may carry (4.1.2 MAX_VERSION_STRING_LENGTH). */
export const MAX_VERSION_STRING_LENGTH = 64;
/** Longest block hash string a STATUS message may carry (4.1.2 MAX_BLOCK_HASH_STRING_LENGTH). */
export const MAX_BLOCK_HASH_STRING_LENGTH = 128;

/**
 * The STATUS handshake message (4.1.2 StatusMessage), the same in request and response: the compressed
 * component versions (a peer whose string differs is on another network), the latest block number, the latest
 * block hash as text (0x + 64 hex), and the finalized block number.
 *
 * Binary: u32 length + UTF-8 version string, u32 latest block number, u32 length + UTF-8 hash string, u32
 * finalized block number, all big-endian.
 */
export interface StatusMessage {
  readonly compressedComponentsVersion: string;
  readonly latestBlockNumber: number;
  readonly latestBlockHash: string;
  readonly finalizedBlockNumber: number;
}

export function encodeStatusMessage(s: StatusMessage): Buffer {
  const w = new BufferWriter(16 + s.compressedComponentsVersion.length + s.latestBlockHash.length);
  writeString(w, s.compressedComponentsVersion);
  w.writeU32(s.latestBlockNumber);
  writeString(w, s.latestBlockHash);
  w.writeU32(s.finalizedBlockNumber);
  return w.toBuffer();
}

/** Decodes a STATUS message; strings longer than 4.1.2's limits and trailing bytes are refused. */
export function decodeStatusMessage(buf: Uint8Array): StatusMessage {
  const r = new BufferReader(buf, 0, 'status');
  const compressedComponentsVersion = readString(r, 'compressedComponentsVersion', MAX_VERSION_STRING_LENGTH);
  const latestBlockNumber = r.readU32('latestBlockNumber');
  const latestBlockHash = readString(r, 'latestBlockHash', MAX_BLOCK_HASH_STRING_LENGTH);
  const finalizedBlockNumber = r.readU32('finalizedBlockNumber');
  r.assertEnd('finalizedBlockNumber');
  return { compressedComponentsVersion, latestBlockNumber, latestBlockHash, finalizedBlockNumber };
}

/** A u32 byte length then the UTF-8 bytes (4.1.2 serializeToBuffer of a string). */
export function writeString(w: BufferWriter, s: string): void {
  const bytes = Buffer.from(s, 'utf8');
  w.writeU32(bytes.length);
  w.writeBytes(bytes);
}

export function readString(r: BufferReader, name: string, maxBytes: number): string {
  const length = r.readU32(name, 'length');
  if (length > maxBytes) throw r.error(name, undefined, `${length} bytes is longer than the ${maxBytes} allowed`);
  return Buffer.from(r.readBytes(length, name)).toString('utf8');
}
