import { parseStatusChunk, ReqRespStatus } from './reqresp-protocols.js';
import { SnappyError, snappyCompress, snappyDecompress } from './snappy-block.js';

/**
 * How 4.1.2 frames a req/resp exchange on a libp2p stream (ReqResp.sendRequestToPeer / processStream):
 * - the requester writes the request body as it is (no compression, no length prefix) and closes its side;
 * - the responder writes one chunk holding only the status byte, then, on SUCCESS, a second chunk holding the
 *   snappy block of the response body, and closes. On failure it writes the status byte alone.
 * 4.1.2's reader takes the first chunk it receives as the status and fails (UNKNOWN) unless it is exactly one
 * byte, so the two writes must stay separate stream writes (each becomes its own muxer frame).
 */

/** The chunks a responder writes for a successful response. */
export function successResponseChunks(body: Uint8Array): [Uint8Array, Uint8Array] {
  return [Uint8Array.of(ReqRespStatus.SUCCESS), snappyCompress(body)];
}

/** The single chunk a responder writes for a failed request. */
export function errorResponseChunk(status: Exclude<ReqRespStatus, 0>): Uint8Array {
  return Uint8Array.of(status);
}

export type DecodedResponse =
  | { readonly status: typeof ReqRespStatus.SUCCESS; readonly data: Buffer }
  | { readonly status: Exclude<ReqRespStatus, 0>; readonly reason?: string };

/**
 * The most compressed bytes a snappy block of `n` bytes can take (snappy's MaxCompressedLength): a reader can
 * stop reading a response once it has received more than this for its size limit.
 */
export function snappyMaxCompressedLength(n: number): number {
  return 32 + n + Math.floor(n / 6);
}

/**
 * Reads a response from the chunks received on the stream, as 4.1.2 does: the first chunk is the status (exactly
 * one byte, else UNKNOWN); on SUCCESS the rest is one snappy block that must announce at most `maxBytes`. A
 * body that does not decompress is UNKNOWN with the reason.
 */
export function decodeResponseChunks(chunks: readonly Uint8Array[], maxBytes: number): DecodedResponse {
  const [first, ...rest] = chunks;
  if (first === undefined) return { status: ReqRespStatus.UNKNOWN, reason: 'the response is empty' };
  const status = parseStatusChunk(first);
  if (status !== ReqRespStatus.SUCCESS) {
    return first.length === 1 ? { status } : { status, reason: `a status chunk of ${first.length} bytes` };
  }
  try {
    return { status, data: snappyDecompress(Buffer.concat(rest), maxBytes) };
  } catch (e) {
    if (e instanceof SnappyError) return { status: ReqRespStatus.UNKNOWN, reason: e.message };
    throw e;
  }
}
