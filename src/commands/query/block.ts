import { blockArg, parseBlockArgument } from '../_lib/block-argument.js';
import { blockNotFound } from '../_lib/block-not-found.js';
import { renderBlock } from '../_lib/chain-render.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryBlock extends NodeCommand {
  static override summary = 'Show a block: its header, state roots and txs.';
  static override description =
    'Calls node_getBlock. The --json result is the L2Block as the node sends it; the human view adds the block ' +
    'hash. Exits 4 when the chain has no such block.';
  static override examples = [
    '<%= config.bin %> query block',
    '<%= config.bin %> query block 12 --full',
    '<%= config.bin %> query block $BLOCK_HASH --json',
  ];
  static override args = { block: blockArg };
  static override flags = { full: fullFlag };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryBlock);
    const block = parseBlockArgument(args.block);
    const node = this.publicNode(flags);
    const found = await node.call('node_getBlock', block);
    if (found === undefined) throw await blockNotFound(node, block);
    this.log(renderBlock(found, flags.full));
    return wireOf('node_getBlock', found);
  }
}
