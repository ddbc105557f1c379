import { Args } from '@oclif/core';
import { AdminCommand } from '../_lib/admin-command.js';
import { CliError } from '../_lib/cli-error.js';
import { parseTxHashArgument } from '../_lib/hex-argument.js';
import { renderProfile } from '../_lib/trace-render.js';

export default class TxProfile extends AdminCommand {
  static override summary = 'Show where a mined tx spent its gas, and what each part cost.';
  static override description =
    'Calls nodeDev_traceTx and prints its gas profile: L2 and DA gas by phase (private with the tx overhead, ' +
    'setup, app logic, teardown at its limit), by call (own gas), by opcode family, the top opcodes, and DA gas ' +
    "by effect kind, each with its fee at the tx's fees per gas. The --json result is the profile " +
    '(docs/debugging.md). Exits 4 when the node has not mined the tx.';
  static override examples = ['<%= config.bin %> tx profile $TX_HASH', '<%= config.bin %> tx profile $TX_HASH --json'];
  static override args = { hash: Args.string({ ignoreStdin: true, description: 'A mined tx hash.', required: true }) };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(TxProfile);
    const hash = parseTxHashArgument(args.hash);
    const trace = await this.adminNode(flags).call('nodeDev_traceTx', hash, {});
    if (trace === undefined) {
      throw CliError.notFound(`tx ${hash} is not in a block of this node`, [
        `see where it stands: l2node query receipt ${hash}`,
      ]);
    }
    this.log(renderProfile(trace));
    return { txHash: trace.txHash, transactionFee: trace.transactionFee, gasUsed: trace.gasUsed, ...trace.profile };
  }
}
