import { Args } from '@oclif/core';
import { AdminCommand } from '../_lib/admin-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class Revert extends AdminCommand {
  static override summary = 'Dev mode: put the whole node back to snapshot ID (evm_revert).';
  static override description =
    'Calls nodeDev_revert on the admin listener: chain, world state, pool and L2 time go back to what snapshot ID ' +
    'held; that snapshot and every later one are consumed. The --json result is {blockNumber}, the tip now.';
  static override examples = ['<%= config.bin %> dev revert 1'];
  static override args = {
    id: Args.integer({ ignoreStdin: true, required: true, description: 'The id `dev snapshot` printed.' }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(Revert);
    const blockNumber = wireOf('nodeDev_revert', await this.adminNode(flags).call('nodeDev_revert', args.id)) as number;
    this.log(`reverted to snapshot ${args.id}: the chain is back at block ${blockNumber}`);
    return { blockNumber };
  }
}
