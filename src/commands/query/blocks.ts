import { Flags } from '@oclif/core';
import { headerHash } from '../_lib/chain-render.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { formatTimestamp, shortHex, table } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { at, listAt, textAt, wireOf } from '../_lib/wire-json.js';

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
    const blocks = wireOf('node_getBlocks', await node.call('node_getBlocks', from, flags.limit)) as unknown[];
    if (blocks.length === 0) {
      this.log(`No blocks from ${from} on.`);
      return blocks;
    }
    this.log(
      table(
        ['BLOCK', 'HASH', 'SLOT', 'TIMESTAMP', 'TXS', 'MANA', 'FEES', 'CHECKPOINT'],
        blocks.map((b) => [
          textAt(b, 'header.globalVariables.blockNumber'),
          shortHex(headerHash(at(b, 'header')), flags.full),
          BigInt(textAt(b, 'header.globalVariables.slotNumber')).toString(),
          formatTimestamp(textAt(b, 'header.globalVariables.timestamp')).split(' ')[0] ?? '-',
          String(listAt(b, 'body.txEffects').length),
          BigInt(textAt(b, 'header.totalManaUsed')).toString(),
          BigInt(textAt(b, 'header.totalFees')).toString(),
          `${textAt(b, 'checkpointNumber')}.${textAt(b, 'indexWithinCheckpoint')}`,
        ]),
      ),
    );
    return blocks;
  }
}
