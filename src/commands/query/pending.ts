import { Flags } from '@oclif/core';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseTxHashArgument } from '../_lib/hex-argument.js';
import { shortHex, table } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryPending extends NodeCommand {
  static override summary = 'List the pending transactions of the mempool, highest priority fee first.';
  static override description =
    'Calls node_getPendingTxCount and node_getPendingTxs(limit, after). The --json result is {count, txs}: the ' +
    'number pending and the Txs of this page as the node sends them. Page on with --after <last hash>. With ' +
    '--hashes, only the tx hashes, one per line (for scripts); the --json result is then {count, txHashes}.';
  static override examples = [
    '<%= config.bin %> query pending',
    '<%= config.bin %> query pending --limit 5 --hashes',
    '<%= config.bin %> query pending --json | jq .result.count',
  ];
  static override flags = {
    limit: Flags.integer({ description: 'How many txs (1 to 100).', default: 100, min: 1, max: 100 }),
    after: Flags.string({ description: 'Return the txs after this tx hash (paging).' }),
    hashes: Flags.boolean({ description: 'Print only the tx hashes, one per line.', default: false }),
    full: fullFlag,
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(QueryPending);
    const after = flags.after === undefined ? undefined : parseTxHashArgument(flags.after, '--after');
    const node = this.publicNode(flags);
    const count = await node.call('node_getPendingTxCount');
    const pending = await node.call('node_getPendingTxs', flags.limit, after);
    if (flags.hashes) {
      const txHashes = pending.map((tx) => tx.txHash.toString());
      for (const h of txHashes) this.log(h);
      return { count, txHashes };
    }
    if (!this.jsonEnabled()) {
      this.log(`${count} pending tx${count === 1 ? '' : 's'}`);
      if (pending.length > 0) {
        const rows = pending.map((tx) => {
          const g = tx.data.gasSettings;
          return [
            shortHex(tx.txHash.toString(), flags.full),
            shortHex(tx.data.feePayer.toString(), flags.full),
            g.maxFeesPerGas.feePerL2Gas.toString(),
            g.maxPriorityFeesPerGas.feePerL2Gas.toString(),
            String(tx.data.constants.anchorBlockHeader.globalVariables.blockNumber),
          ];
        });
        this.log(table(['TX HASH', 'FEE PAYER', 'MAX FEE/L2 GAS', 'PRIORITY FEE/L2 GAS', 'ANCHOR'], rows));
      }
    }
    return { count, txs: wireOf('node_getPendingTxs', pending) };
  }
}
