import { blockArg, parseBlockArgument } from '../_lib/block-argument.js';
import { blockNotFound } from '../_lib/block-not-found.js';
import { renderHeader } from '../_lib/chain-render.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryHeader extends NodeCommand {
  static override summary = 'Show a block header: global variables, fees and state roots.';
  static override description =
    'Calls node_getBlockHeader. The --json result is the BlockHeader as the node sends it. Block 0 is the genesis ' +
    'header. Exits 4 when the chain has no such block.';
  static override examples = [
    '<%= config.bin %> query header',
    '<%= config.bin %> query header 0',
    '<%= config.bin %> query header latest --json',
  ];
  static override args = { block: blockArg };
  static override flags = { full: fullFlag };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryHeader);
    const block = parseBlockArgument(args.block);
    const node = this.publicNode(flags);
    const header = await node.call('node_getBlockHeader', block);
    if (header === undefined) throw await blockNotFound(node, block);
    this.log(renderHeader(header, flags.full));
    return wireOf('node_getBlockHeader', header);
  }
}
