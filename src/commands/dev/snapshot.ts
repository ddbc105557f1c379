import { AdminCommand } from '../_lib/admin-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class Snapshot extends AdminCommand {
  static override summary = 'Dev mode: snapshot the whole node (evm_snapshot); prints the id for `dev revert`.';
  static override description =
    'Calls nodeDev_snapshot on the admin listener: a copy of the chain, world state, pool and L2 time, kept while ' +
    'the node runs (at most --dev-snapshot-limit at once). The --json result is {id}.';
  static override examples = ['<%= config.bin %> dev snapshot', '<%= config.bin %> dev snapshot --json'];

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(Snapshot);
    const id = wireOf('nodeDev_snapshot', await this.adminNode(flags).call('nodeDev_snapshot')) as number;
    this.log(`snapshot ${id}`);
    return { id };
  }
}
