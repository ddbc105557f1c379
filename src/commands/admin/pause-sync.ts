import { AdminCommand } from '../_lib/admin-command.js';

export default class AdminPauseSync extends AdminCommand {
  static override summary = 'Pause block sync and world state updates.';
  static override description =
    'Calls nodeAdmin_pauseSync. The node keeps answering queries at the block it reached; resume with ' +
    '`admin resume-sync`. The --json result is {paused: true}.';
  static override examples = ['<%= config.bin %> admin pause-sync', '<%= config.bin %> admin pause-sync --json'];

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(AdminPauseSync);
    await this.adminNode(flags).call('nodeAdmin_pauseSync');
    this.log('Sync paused: resume it with `l2node admin resume-sync`.');
    return { paused: true };
  }
}
