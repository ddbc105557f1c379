import { RPC_METHODS, type RpcMethodName, type RpcMethods } from '../../rpc/method-table.js';
import type { ResultCodec, ResultOf } from '../../rpc/rpc-method.js';

/**
 * The two forms of a node's answer in the CLI: the value the method table's codec decoded it into (what
 * `NodeConnection.call` returns, what the human views read) and its wire JSON (what `--json` prints).
 */

/** What a method's answer decodes into: `AnswerOf<'node_getL2Tips'>`. */
export type AnswerOf<N extends RpcMethodName> = ResultOf<RpcMethods[N]>;

/**
 * A decoded result back in the wire JSON the node sent (the `--json` output): the method table's codec
 * encodes it, so the CLI prints what the node answered without a JSON round trip of its own.
 */
export function wireOf<N extends RpcMethodName>(method: N, value: AnswerOf<N>): unknown {
  const codec = RPC_METHODS[method].result as ResultCodec<AnswerOf<N>>;
  return value === undefined ? null : codec.encode(value);
}
