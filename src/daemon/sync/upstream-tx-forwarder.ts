import type { Tx } from '../../core/tx/tx.js';
import { RpcError, rpcErrors } from '../../rpc/errors.js';
import type { Logger } from '../logging/logger.js';
import { type Upstream, UpstreamRpcError } from './upstream.js';

/**
 * Follower mode's node_sendTx hook: a tx this node validated and pooled goes on to the upstream, whose answer
 * is the caller's. A refusal comes back exactly as the upstream sent it (JSON-RPC code, message, data: a
 * TX_REJECTED with its figures, a 4.1.2 -32702...); an upstream that cannot be reached is INVALID_STATE.
 */
export function upstreamTxForwarder(upstream: Upstream, log: Logger): (tx: Tx) => Promise<void> {
  return async (tx) => {
    try {
      await upstream.sendTx(tx);
      log.debug({ txHash: tx.txHash.toString(), upstream: upstream.url }, 'tx forwarded to the upstream');
    } catch (err) {
      if (err instanceof UpstreamRpcError) {
        log.info(
          { txHash: tx.txHash.toString(), upstream: upstream.url, code: err.code, data: err.data },
          `the upstream refused tx ${tx.txHash}: ${err.message}`,
        );
        throw new RpcError(err.code, err.message, err.data);
      }
      throw rpcErrors.invalidState(
        `The upstream ${upstream.url} did not take the tx (${(err as Error).message}); it was not kept here: send it again`,
      );
    }
  };
}
