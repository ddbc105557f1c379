/**
 * JSON-RPC error codes of the node (docs/architecture.md section 4.4). The standard codes come from JSON-RPC 2.0; the
 * application codes start at -32000 and each carries a stable `data.code` string that clients switch on.
 * A JSON-RPC error travels with HTTP 200, except UNAUTHORIZED (401); 405 and 413 are HTTP-level refusals.
 * Aztec 4.1.2 uses -32701/-32702 and HTTP 400 instead: see docs/compatibility.md.
 */

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/** Application errors: JSON-RPC code, the stable `data.code`, and what the code means. */
export const APPLICATION_ERRORS = {
  UNAUTHORIZED: { code: -32000, meaning: 'admin API key missing or wrong (HTTP 401)' },
  BLOCK_NOT_AVAILABLE: { code: -32002, meaning: 'the requested block is not (yet, or any longer) available' },
  TX_REJECTED: { code: -32003, meaning: 'the mempool declined the transaction; data.code says why' },
  TX_INVALID: { code: -32004, meaning: 'the transaction failed validation; data.reasons lists why' },
  INVALID_STATE: { code: -32005, meaning: 'the node cannot do this now (e.g. a snapshot already running)' },
  UNSUPPORTED: { code: -32006, meaning: 'this node does not support the request' },
  NOT_READY: { code: -32007, meaning: 'the node is starting or stopping; retry shortly' },
  LIMIT_EXCEEDED: {
    code: -32008,
    meaning: 'the request asks for more than a budget allows; data.setting names the setting that sets it',
  },
  STORAGE_FULL: {
    code: -32009,
    meaning: 'the node cannot write to its data directory (disk full or I/O error); data.dataDirectory names it',
  },
  DATA_DAMAGED: {
    code: -32010,
    meaning:
      'a stored record failed its checksum: nothing of it is served and no block is built; data.dataDirectory names the directory to check (l2node db check --full)',
  },
} as const;

export type ApplicationErrorName = keyof typeof APPLICATION_ERRORS;

/** Every JSON-RPC error code the node answers with: the standard ones and the application ones. */
export const RPC_ERROR_CODES: readonly number[] = [
  PARSE_ERROR,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  INVALID_PARAMS,
  INTERNAL_ERROR,
  ...Object.values(APPLICATION_ERRORS).map((e) => e.code),
];

/** The `error` member of a JSON-RPC response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error a handler (or the server) throws on purpose: it reaches the caller as is. Anything else a
 * handler throws is an internal error, logged with an id and answered with -32603.
 */
export class RpcError extends Error {
  override name = 'RpcError';

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

function application(name: ApplicationErrorName, message: string, extra?: Record<string, unknown>): RpcError {
  return new RpcError(APPLICATION_ERRORS[name].code, message, { code: name, ...extra });
}

/** The message of the 401 answer; the same for a missing and a wrong key so neither is told apart. */
export const UNAUTHORIZED_MESSAGE = 'Unauthorized: invalid or missing API key';

export const rpcErrors = {
  invalidRequest: (why: string) => new RpcError(INVALID_REQUEST, `Invalid request: ${why}`),
  methodNotFound: (method: string, hint?: string) =>
    new RpcError(METHOD_NOT_FOUND, `Method not found: ${method}${hint ? ` (${hint})` : ''}`),
  /** A method of the table whose service has not landed yet. */
  invalidParams: (message: string) => new RpcError(INVALID_PARAMS, message),
  unauthorized: () => application('UNAUTHORIZED', UNAUTHORIZED_MESSAGE),
  blockNotAvailable: (message: string, extra?: Record<string, unknown>) =>
    application('BLOCK_NOT_AVAILABLE', message, extra),
  /** `rejection` (the mempool's TxRejection) becomes `data` unchanged (docs/aztec-facts.md section 1.7). */
  txRejected: (rejection: { readonly code: string; readonly message: string; readonly [figure: string]: unknown }) =>
    new RpcError(APPLICATION_ERRORS.TX_REJECTED.code, rejection.message, { ...rejection }),
  /**
   * `reasons` are 4.1.2's texts word for word (clients match on them); `details` say, for people, which call or
   * value a reason is about (the message carries them, `data.details` too).
   */
  txInvalid: (reasons: readonly string[], details: readonly string[] = []) =>
    application(
      'TX_INVALID',
      `Invalid tx: ${reasons.join(', ')}${details.length ? ` (${details.join('; ')})` : ''}`,
      details.length ? { reasons: [...reasons], details: [...details] } : { reasons: [...reasons] },
    ),
  invalidState: (message: string, extra?: Record<string, unknown>) => application('INVALID_STATE', message, extra),
  unsupported: (message: string) => application('UNSUPPORTED', message),
  /** A request over a budget of the node: `setting` is the flag that sets the budget, `limit` its value. */
  limitExceeded: (message: string, setting: string, limit: number) =>
    application('LIMIT_EXCEEDED', message, { setting, limit }),
  storageFull: (reason: string, dataDirectory: string) => application('STORAGE_FULL', reason, { dataDirectory }),
  dataDamaged: (reason: string, dataDirectory: string) =>
    application('DATA_DAMAGED', reason, { dataDirectory, check: 'l2node db check --full' }),
  notReady: (state: string) =>
    application('NOT_READY', `The node is ${state} and does not serve requests now; retry shortly`),
} as const;
