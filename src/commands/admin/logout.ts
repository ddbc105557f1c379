import { BaseCommand } from '../_lib/base-command.js';
import { adminUrlFlag } from '../_lib/connection-flags.js';
import { CredentialsStore, normalizeAdminUrl } from '../_lib/credentials-store.js';

export default class AdminLogout extends BaseCommand {
  static override summary = 'Forget the saved admin API key of a node.';
  static override description =
    'Removes the key saved for --admin-url from the CLI credentials file (the node keeps accepting the key: reset ' +
    'it with `l2node start --reset-admin-api-key`). Succeeds when no key was saved, with a warning.';
  static override examples = [
    '<%= config.bin %> admin logout',
    '<%= config.bin %> admin logout --admin-url http://127.0.0.1:9880 --json',
  ];
  static override flags = { 'admin-url': adminUrlFlag };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(AdminLogout);
    const adminUrl = normalizeAdminUrl(flags['admin-url']);
    const store = new CredentialsStore();
    const removed = store.remove(adminUrl);
    if (removed) this.log(`Removed the saved admin API key for ${adminUrl}.`);
    else this.warning(`no admin API key was saved for ${adminUrl}`);
    return { adminUrl, removed };
  }
}
