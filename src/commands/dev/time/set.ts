import { Args } from '@oclif/core';
import { AdminCommand } from '../../_lib/admin-command.js';
import { wireOf } from '../../_lib/wire-json.js';

export default class TimeSet extends AdminCommand {
  static override summary = 'Dev mode: the next block carries TIMESTAMP (evm_setNextBlockTimestamp).';
  static override description =
    'Calls nodeDev_setNextBlockTimestamp on the admin listener: the next block, in the next slot, carries exactly ' +
    "TIMESTAMP (Unix seconds) and L2 time runs on from it. Not before the latest block's timestamp. With --l1 " +
    "anvil the node's anvil moves with it, TIMESTAMP must be a rollup slot start, and the next block is in that " +
    'slot or a later one (docs/l1.md). The --json result is {timestamp}.';
  static override examples = ['<%= config.bin %> dev time set 1893456000'];
  static override args = {
    timestamp: Args.integer({ ignoreStdin: true, required: true, description: 'Unix seconds.' }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(TimeSet);
    const timestamp = wireOf(
      'nodeDev_setNextBlockTimestamp',
      await this.adminNode(flags).call('nodeDev_setNextBlockTimestamp', args.timestamp),
    ) as number;
    this.log(`the next block carries timestamp ${timestamp} (${new Date(timestamp * 1000).toISOString()})`);
    return { timestamp };
  }
}
