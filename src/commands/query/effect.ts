import { Args } from '@oclif/core';
import { renderIndexedEffect } from '../_lib/chain-render.js';
import { CliError } from '../_lib/cli-error.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseTxHashArgument } from '../_lib/hex-argument.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryEffect extends NodeCommand {
  static override summary = 'Show the effects of a mined transaction: note hashes, nullifiers, messages, logs, fee.';
  static override description =
    'Calls node_getTxEffect. The --json result is the IndexedTxEffect (the effect with its block and position) as ' +
    'the node sends it. Exits 4 when the tx is not in a block.';
  static override examples = [
    '<%= config.bin %> query effect $TX_HASH',
    '<%= config.bin %> query effect $TX_HASH --full --json',
  ];
  static override args = { hash: Args.string({ ignoreStdin: true, description: 'The tx hash.', required: true }) };
  static override flags = { full: fullFlag };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryEffect);
    const hash = parseTxHashArgument(args.hash);
    const effect = await this.publicNode(flags).call('node_getTxEffect', hash);
    if (effect === undefined) {
      throw CliError.notFound(`tx ${hash} is not in a block of this node`, [
        `see where it stands: l2node query receipt ${hash}`,
      ]);
    }
    this.log(renderIndexedEffect(effect, flags.full));
    return wireOf('node_getTxEffect', effect);
  }
}
