import { type BlockArgument, describeBlock } from './block-argument.js';
import { CliError } from './cli-error.js';
import type { NodeConnection } from './node-connection.js';

/** The not-found error for a block, naming the chain's latest block so the next try can be right. */
export async function blockNotFound(node: NodeConnection, block: BlockArgument): Promise<CliError> {
  const latest = await node.call('node_getBlockNumber').catch(() => undefined);
  const where = latest === undefined ? '' : ` (its latest block is ${latest})`;
  return CliError.notFound(`${describeBlock(block)} is not on the chain of ${node.url}${where}`, [
    'see the chain tips: l2node query tips',
  ]);
}
