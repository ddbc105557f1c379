import { Flags } from '@oclif/core';
import { fullFlag } from '../_lib/connection-flags.js';
import { formatTimestamp, shortHex, table } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryBlocks extends NodeCommand {
  static override summary = 'List consecutive blocks, one line each.';
  static override description =
    'Calls node_getBlocks(from, limit). Without --from, lists the latest --limit blocks. The --json result is the ' +
    'array of L2Blocks the node sent (fewer than --limit when the chain is shorter).';
  static override examples = [
    '<%= config.bin %> query blocks',
    '<%= config.bin %> query blocks --from 1 --limit 100',
    '<%= config.bin %> query blocks --limit 3 --json',
  ];
  static override flags = {
    from: Flags.integer({ description: 'First block number (>= 1). Default: the latest --limit blocks.', min: 1 }),
    limit: Flags.integer({ description: 'How many blocks (1 to 100).', default: 10, min: 1, max: 100 }),
    full: fullFlag,
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(QueryBlocks);
    const node = this.publicNode(flags);
    let from = flags.from;
    if (from === undefined) {
      const latest = await node.call('node_getBlockNumber');
      if (latest === 0) {
        this.log('No blocks yet: the chain is at genesis (block 0).');
        return [];
      }
      from = Math.max(1, latest - flags.limit + 1);
    }
    const blocks = await node.call('node_getBlocks', from, flags.limit);
    if (blocks.length === 0) {
      this.log(`No blocks from ${from} on.`);
      return [];
    }
    this.log(
      table(
        ['BLOCK', 'HASH', 'SLOT', 'TIMESTAMP', 'TXS', 'MANA', 'FEES', 'CHECKPOINT'],
        blocks.map(({ header, body, checkpointNumber, indexWithinCheckpoint }) => [
          String(header.globalVariables.blockNumber),
          shortHex(header.hash().toString(), flags.full),
          String(header.globalVariables.slotNumber),
          formatTimestamp(header.globalVariables.timestamp).split(' ')[0] ?? '-',
          String(body.txEffects.length),
          header.totalManaUsed.value.toString(),
          header.totalFees.value.toString(),
          `${checkpointNumber}.${indexWithinCheckpoint}`,
        ]),
      ),
    );
    return wireOf('node_getBlocks', blocks);
  }
}
