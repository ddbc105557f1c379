import { Args } from '@oclif/core';
import { AdminCommand } from '../../_lib/admin-command.js';
import { wireOf } from '../../_lib/wire-json.js';

export default class TimeIncrease extends AdminCommand {
  static override summary = 'Dev mode: move L2 time forward by SECONDS (evm_increaseTime).';
  static override description =
    'Calls nodeDev_increaseTime on the admin listener: slots, the next block timestamp, tx expiry checks and the ' +
    "dev L1's proofs all move by SECONDS (after `--`, a negative value goes back, never before the latest " +
    "block's timestamp). With --l1 anvil the node's anvil moves with it, to the start of the first rollup slot " +
    "that late (never back): the time printed is that slot start, the next block's timestamp (docs/l1.md). The " +
    '--json result is {time}, in Unix seconds.';
  static override examples = [
    '<%= config.bin %> dev time increase 86400',
    '<%= config.bin %> dev time increase -- -60',
  ];
  static override args = {
    seconds: Args.integer({ ignoreStdin: true, required: true, description: 'Seconds to add to L2 time.' }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(TimeIncrease);
    const time = wireOf(
      'nodeDev_increaseTime',
      await this.adminNode(flags).call('nodeDev_increaseTime', args.seconds),
    ) as number;
    this.log(`L2 time is now ${time} (${new Date(time * 1000).toISOString()})`);
    return { time };
  }
}
