import { Args } from '@oclif/core';
import { parseBlockArgument } from '../_lib/block-argument.js';
import { CliError } from '../_lib/cli-error.js';
import { blockFlag, fullFlag } from '../_lib/connection-flags.js';
import { parseHexArgument } from '../_lib/hex-argument.js';
import { shortHex, table } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { parseTreeArgument, TREE_IDS_BY_NAME } from '../_lib/tree-argument.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryLeaves extends NodeCommand {
  static override summary = 'Find the index of leaf values in a tree, with the block that inserted each.';
  static override description =
    'Calls node_findLeavesIndexes(block, treeId, values). Trees: nullifier, note-hash, public-data, l1-to-l2, ' +
    'archive (or their ids 0 to 4). The --json result has one entry per value: {l2BlockNumber, l2BlockHash, data} ' +
    'with the index as data, or null when the value is not in the tree. Absent values are an answer, not an error.';
  static override examples = [
    '<%= config.bin %> query leaves nullifier 0x0123 0x0456',
    '<%= config.bin %> query leaves note-hash $NOTE_HASH --block 12 --json',
    '<%= config.bin %> query leaves archive $BLOCK_HASH',
  ];
  static override strict = false;
  static override args = {
    tree: Args.string({ ignoreStdin: true, description: 'Tree name or id.', required: true }),
    values: Args.string({ ignoreStdin: true, description: 'Leaf values (0x + hex), up to 1000.', required: true }),
  };
  static override flags = { block: blockFlag, full: fullFlag };

  protected async execute(): Promise<unknown> {
    const { args, argv, flags } = await this.parse(QueryLeaves);
    const tree = parseTreeArgument(args.tree);
    const values = (argv as string[]).slice(1).map((v) => parseHexArgument(v, 'leaf value'));
    if (values.length > 1000) throw CliError.usage(`at most 1000 leaf values at once, got ${values.length}`);
    const block = parseBlockArgument(flags.block, '--block');
    const found = await this.publicNode(flags).call('node_findLeavesIndexes', block, TREE_IDS_BY_NAME[tree], values);
    this.log(
      table(
        ['VALUE', 'INDEX', 'INSERTED IN BLOCK'],
        values.map((v, i) => {
          const f = found[i];
          return f === undefined
            ? [shortHex(v, flags.full), 'absent', '-']
            : [shortHex(v, flags.full), f.index.toString(), String(f.blockNumber)];
        }),
      ),
    );
    return wireOf('node_findLeavesIndexes', found);
  }
}
