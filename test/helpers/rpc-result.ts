import { RpcClient } from '../../src/rpc/client/rpc-client.js';
import type { RpcMethodName, RpcMethods } from '../../src/rpc/method-table.js';
import type { ClientArgs, ParamsOf, ResultOf } from '../../src/rpc/rpc-method.js';

/**
 * One call through the typed client of the method table: params typed as the client sends them, the result
 * decoded by the table (an L2Block, a TxReceipt, a number); an error answer throws "<method> failed: <message>".
 */
export async function rpcResult<N extends RpcMethodName>(
  url: string,
  method: N,
  ...params: ClientArgs<ParamsOf<RpcMethods[N]>>
): Promise<ResultOf<RpcMethods[N]>> {
  return new RpcClient({ url }).call(method, ...params);
}
