import { Args, Flags } from '@oclif/core';
import { renderReceipt } from '../_lib/chain-render.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseTxHashArgument } from '../_lib/hex-argument.js';
import { NodeCommand } from '../_lib/node-command.js';
import { Spinner } from '../_lib/spinner.js';
import { TX_PROGRESS, waitForReceipt } from '../_lib/wait-for-receipt.js';
import { wireOf } from '../_lib/wire-json.js';

export default class TxWait extends NodeCommand {
  static override summary = 'Wait until a transaction reaches a status (proposed by default).';
  static override description =
    'Polls node_getTxReceipt until the tx is --until or further along (pending, proposed, checkpointed, proven, ' +
    'finalized), showing a spinner on a terminal. Exits 0 with the receipt; 1 when the tx is dropped or --max-wait ' +
    'runs out; 4 when the node never saw the tx.';
  static override examples = [
    '<%= config.bin %> tx wait $TX_HASH',
    '<%= config.bin %> tx wait $TX_HASH --until proven --max-wait 300',
    '<%= config.bin %> tx wait "$(<%= config.bin %> tx send tx.json --json | jq -r .result.txHash)" --json',
  ];
  static override args = { hash: Args.string({ ignoreStdin: true, description: 'The tx hash.', required: true }) };
  static override flags = {
    until: Flags.string({ description: 'The status to wait for.', options: [...TX_PROGRESS], default: 'proposed' }),
    'max-wait': Flags.integer({ description: 'Seconds to wait at most.', default: 120, min: 1 }),
    'poll-interval': Flags.integer({ description: 'Milliseconds between two receipt queries.', default: 250, min: 10 }),
    full: fullFlag,
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(TxWait);
    const hash = parseTxHashArgument(args.hash);
    const until = flags.until as (typeof TX_PROGRESS)[number];
    const spinner = new Spinner(!this.jsonEnabled());
    spinner.start(`waiting for ${hash.slice(0, 10)}… to be ${until}`);
    try {
      const receipt = await waitForReceipt(this.publicNode(flags), hash, {
        until,
        maxWaitMs: flags['max-wait'] * 1000,
        pollMs: flags['poll-interval'],
        onStatus: (s) => spinner.status(s),
      });
      await spinner.stop('done');
      this.log(renderReceipt(receipt, flags.full));
      return wireOf('node_getTxReceipt', receipt);
    } catch (err) {
      await spinner.stop('failed');
      throw err;
    }
  }
}
