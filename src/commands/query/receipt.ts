import { Args } from '@oclif/core';
import { renderReceipt } from '../_lib/chain-render.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseTxHashArgument } from '../_lib/hex-argument.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryReceipt extends NodeCommand {
  static override summary = 'Show the receipt of a transaction: its status, block and fee.';
  static override description =
    'Calls node_getTxReceipt. Status is one of pending, proposed, checkpointed, proven, finalized (mined) or ' +
    'dropped; a hash the node never saw reads as dropped ("Tx dropped by P2P node"), as in Aztec 4.1.2. The ' +
    '--json result is the TxReceipt as the node sends it.';
  static override examples = [
    '<%= config.bin %> query receipt $TX_HASH',
    '<%= config.bin %> query receipt $TX_HASH --json | jq -r .result.status',
  ];
  static override args = { hash: Args.string({ ignoreStdin: true, description: 'The tx hash.', required: true }) };
  static override flags = { full: fullFlag };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryReceipt);
    const hash = parseTxHashArgument(args.hash);
    const receipt = await this.publicNode(flags).call('node_getTxReceipt', hash);
    this.log(renderReceipt(receipt, flags.full));
    return wireOf('node_getTxReceipt', receipt);
  }
}
