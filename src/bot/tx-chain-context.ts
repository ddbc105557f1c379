import type { BlockHeader } from '../core/block/block-header.js';
import { Fr } from '../core/fr.js';
import type { TxChainContext } from '../core/tx/tx-builder.js';
import type { RpcMethodName, RpcMethods } from '../rpc/method-table.js';
import type { ClientArgs, ParamsOf, ResultOf } from '../rpc/rpc-method.js';

/** What building a tx for a running node needs from its public listener (NodeConnection provides it). */
export interface TxNodeRpc {
  call<N extends RpcMethodName>(
    method: N,
    ...params: ClientArgs<ParamsOf<RpcMethods[N]>>
  ): Promise<ResultOf<RpcMethods[N]>>;
  /** Response headers of the last call: the node's component versions travel there (docs/aztec-facts.md section 1.2). */
  readonly lastHeaders: Headers | undefined;
}

/** Values a caller may pin instead of taking the node's. */
export interface TxChainOverrides {
  readonly vkTreeRoot?: Fr;
  readonly protocolContractsHash?: Fr;
  readonly anchorBlockHeader?: BlockHeader;
}

/**
 * The chain a tx for this node must be built for: chain id and rollup version from their methods, the vk tree
 * root and protocol contracts hash from the version headers the node sends with every answer, and the
 * latest block header as anchor. Shared by `l2node tx build` and the tx bot.
 */
export async function fetchTxChainContext(rpc: TxNodeRpc, overrides: TxChainOverrides = {}): Promise<TxChainContext> {
  const chainId = await rpc.call('node_getChainId');
  const rollupVersion = await rpc.call('node_getVersion');
  const header = (name: string, flag: string): Fr => {
    const value = rpc.lastHeaders?.get(`x-aztec-${name}`);
    if (!value) {
      throw new Error(`the node did not send its x-aztec-${name} header: give the value with ${flag}`);
    }
    return Fr.fromString(value);
  };
  const vkTreeRoot = overrides.vkTreeRoot ?? header('l2CircuitsVkTreeRoot', '--vk-tree-root');
  const protocolContractsHash =
    overrides.protocolContractsHash ?? header('l2ProtocolContractsHash', '--protocol-contracts-hash');
  const anchorBlockHeader = overrides.anchorBlockHeader ?? (await latestHeader(rpc));
  return {
    chainId: BigInt(chainId),
    rollupVersion: BigInt(rollupVersion),
    vkTreeRoot,
    protocolContractsHash,
    anchorBlockHeader,
  };
}

/** The latest block header, to anchor a tx to. */
export async function latestHeader(rpc: TxNodeRpc): Promise<BlockHeader> {
  const header = await rpc.call('node_getBlockHeader', 'latest');
  if (!header) throw new Error('the node has no latest block header to anchor the tx to');
  return header;
}
