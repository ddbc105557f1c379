import SnappyJS from 'snappyjs';

/**
 * Snappy block format (not the framed stream format), as 4.1.2 compresses gossip messages and req/resp bodies.
 * A peer chooses how large a compressed body says it will be, so the size it announces is checked against the
 * limit before anything is decompressed: a few bytes can otherwise claim gigabytes.
 */

export class SnappyError extends Error {
  override name = 'SnappyError';
}

/**
 * The uncompressed length a snappy block announces in its preamble: a little-endian base-128 varint of at most
 * 5 bytes (4.1.2 readSnappyPreamble, byte for byte the same rules and the same 32-bit wrap).
 */
export function readSnappyPreamble(data: Uint8Array): { decompressedSize: number; bytesRead: number } {
  if (data.length === 0) throw new SnappyError('Cannot read a snappy preamble from empty data');
  let result = 0;
  let shift = 0;
  const maxBytes = Math.min(data.length, 5);
  for (let i = 0; i < maxBytes; i++) {
    const byte = data[i] as number;
    result = (result | ((byte & 0x7f) << shift)) >>> 0;
    if ((byte & 0x80) === 0) return { decompressedSize: result, bytesRead: i + 1 };
    shift += 7;
  }
  if (maxBytes === 5) throw new SnappyError('Snappy preamble varint is too long (max 5 bytes for a 32-bit value)');
  throw new SnappyError('Snappy preamble is incomplete: the data ends inside the varint');
}

/** Compresses one block. Empty input stays empty (4.1.2 sends an empty body as is). */
export function snappyCompress(data: Uint8Array): Buffer {
  if (data.length === 0) return Buffer.alloc(0);
  return Buffer.from(SnappyJS.compress(toUint8(data)));
}

/**
 * Decompresses one block whose announced size is at most `maxBytes`; throws a SnappyError naming the sizes
 * otherwise, or when the block is malformed or does not decompress to the size it announced. Empty input
 * stays empty.
 */
export function snappyDecompress(data: Uint8Array, maxBytes: number): Buffer {
  if (data.length === 0) return Buffer.alloc(0);
  const { decompressedSize } = readSnappyPreamble(data);
  if (decompressedSize > maxBytes) {
    throw new SnappyError(`Decompressed size ${decompressedSize} exceeds the maximum of ${maxBytes} bytes`);
  }
  let out: Uint8Array;
  try {
    out = SnappyJS.uncompress(toUint8(data), maxBytes);
  } catch (e) {
    throw new SnappyError(`Malformed snappy block: ${(e as Error).message}`);
  }
  if (out.length !== decompressedSize) {
    throw new SnappyError(`Snappy block announced ${decompressedSize} bytes but held ${out.length}`);
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** snappyjs returns the type it is given; a plain Uint8Array view keeps Buffer's pooled memory out of it. */
function toUint8(data: Uint8Array): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
