import { AdminCommand } from '../_lib/admin-command.js';

export default class AdminResumeSync extends AdminCommand {
  static override summary = 'Resume block sync and world state updates.';
  static override description = 'Calls nodeAdmin_resumeSync. The --json result is {paused: false}.';
  static override examples = ['<%= config.bin %> admin resume-sync', '<%= config.bin %> admin resume-sync --json'];

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(AdminResumeSync);
    await this.adminNode(flags).call('nodeAdmin_resumeSync');
    this.log('Sync resumed.');
    return { paused: false };
  }
}
