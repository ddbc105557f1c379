/** Why a call failed, so callers (and `l2node` commands) can choose an exit code and a next step. */
export type RpcClientErrorKind =
  | 'unreachable'
  | 'timeout'
  | 'unauthorized'
  | 'http'
  | 'rpc'
  | 'bad-response'
  | 'too-large';

/**
 * A failed call, with a message that says what to do next. JSON-RPC errors keep the node's code and
 * data (for example TX_REJECTED with the rejection figures).
 */
export class RpcClientError extends Error {
  override name = 'RpcClientError';

  constructor(
    readonly kind: RpcClientErrorKind,
    message: string,
    readonly details: {
      readonly code?: number;
      readonly data?: unknown;
      readonly httpStatus?: number;
      /** The node's own error message, unprefixed (a follower passes it on as it was). */
      readonly remoteMessage?: string;
    } = {},
  ) {
    super(message);
  }

  /** The JSON-RPC error code, when the node answered one. */
  get code(): number | undefined {
    return this.details.code;
  }

  get data(): unknown {
    return this.details.data;
  }
}
