/** The req/resp sub-protocols of 4.1.2 (ReqRespSubProtocol), each a libp2p protocol id. */
export const REQRESP_PROTOCOLS = {
  ping: '/aztec/req/ping/1.0.0',
  status: '/aztec/req/status/1.0.0',
  goodbye: '/aztec/req/goodbye/1.0.0',
  tx: '/aztec/req/tx/1.0.0',
  block: '/aztec/req/block/1.0.0',
  auth: '/aztec/req/auth/1.0.0',
  block_txs: '/aztec/req/block_txs/1.0.0',
} as const;

export type ReqRespProtocolName = keyof typeof REQRESP_PROTOCOLS;
export type ReqRespProtocolId = (typeof REQRESP_PROTOCOLS)[ReqRespProtocolName];

/**
 * The status byte a response starts with (4.1.2 ReqRespStatus). A responder writes it as a chunk of its own;
 * on SUCCESS the snappy-compressed body follows, on anything else nothing does.
 */
export const ReqRespStatus = {
  SUCCESS: 0,
  RATE_LIMIT_EXCEEDED: 1,
  BADLY_FORMED_REQUEST: 2,
  INTERNAL_ERROR: 3,
  NOT_FOUND: 4,
  FAILURE: 126,
  UNKNOWN: 127,
} as const;

export type ReqRespStatus = (typeof ReqRespStatus)[keyof typeof ReqRespStatus];

const STATUS_NAMES = new Map<number, string>(Object.entries(ReqRespStatus).map(([k, v]) => [v, k]));

export function reqRespStatusName(status: number): string {
  return STATUS_NAMES.get(status) ?? `unknown status ${status}`;
}

/**
 * The status of a response's first chunk (4.1.2 parseStatusChunk): exactly one byte holding a known status,
 * else UNKNOWN.
 */
export function parseStatusChunk(chunk: Uint8Array): ReqRespStatus {
  if (chunk.length !== 1) return ReqRespStatus.UNKNOWN;
  const status = chunk[0] as number;
  return STATUS_NAMES.has(status) ? (status as ReqRespStatus) : ReqRespStatus.UNKNOWN;
}

/** 3 MiB: the largest block a `block` response may decompress to (4.1.2 MAX_L2_BLOCK_SIZE_KB). */
export const MAX_L2_BLOCK_SIZE_BYTES = 3 * 1024 * 1024;

/** 1 KiB: the limit of every response whose size does not depend on the request (ping, status, auth, goodbye). */
export const SMALL_RESPONSE_MAX_BYTES = 1024;
