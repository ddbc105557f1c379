import { Args } from '@oclif/core';
import { AdminCommand } from '../_lib/admin-command.js';
import { CliError } from '../_lib/cli-error.js';

export default class Mine extends AdminCommand {
  static override summary = 'Dev mode: build blocks now (anvil_mine), with the pending txs or empty.';
  static override description =
    'Calls nodeDev_mineBlocks on the admin listener: the dev sequencer builds COUNT blocks (default 1) at once, ' +
    'whatever --sequencer-mode and the slot clock say, each with the pending txs that fit or none, each its own ' +
    'checkpoint published at once. A follower refuses (it builds no blocks). The --json result is {blocks}.';
  static override examples = ['<%= config.bin %> dev mine', '<%= config.bin %> dev mine 5 --json'];
  static override args = {
    count: Args.integer({ ignoreStdin: true, description: 'How many blocks to build, 1 to 1000.', default: 1 }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(Mine);
    if (args.count < 1 || args.count > 1000) throw CliError.usage(`count must be 1 to 1000, got ${args.count}`);
    const blocks = await this.adminNode(flags).call('nodeDev_mineBlocks', args.count);
    this.log(blocks.length === 0 ? 'no block built' : `built blocks ${blocks.join(', ')}`);
    return { blocks };
  }
}
