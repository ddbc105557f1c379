import { keyValues } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryFees extends NodeCommand {
  static override summary = 'Show the minimum fees per gas the next block charges.';
  static override description =
    'Calls node_getCurrentMinFees. A tx must offer at least these max fees per gas to be included. The --json ' +
    'result is the GasFees {feePerDaGas, feePerL2Gas} as decimal strings.';
  static override examples = [
    '<%= config.bin %> query fees',
    '<%= config.bin %> query fees --json | jq -r .result.feePerL2Gas',
  ];

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(QueryFees);
    const fees = await this.publicNode(flags).call('node_getCurrentMinFees');
    this.log(
      keyValues([
        ['min fee per L2 gas', fees.feePerL2Gas.toString()],
        ['min fee per DA gas', fees.feePerDaGas.toString()],
      ]),
    );
    return wireOf('node_getCurrentMinFees', fees);
  }
}
