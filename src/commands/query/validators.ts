import { indentJson } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryValidators extends NodeCommand {
  static override summary = 'Show the statistics of every validator the node has seen.';
  static override description =
    'Calls node_getValidatorsStats. The --json result is the ValidatorsStats as the node sends it. A node without ' +
    'a validator service answers that the method is not available: the command prints it and exits 1.';
  static override examples = ['<%= config.bin %> query validators', '<%= config.bin %> query validators --json'];

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(QueryValidators);
    const stats = wireOf('node_getValidatorsStats', await this.publicNode(flags).call('node_getValidatorsStats'));
    this.log(indentJson(stats));
    return stats;
  }
}
