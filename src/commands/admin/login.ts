import { Flags } from '@oclif/core';
import { BaseCommand } from '../_lib/base-command.js';
import { CliError } from '../_lib/cli-error.js';
import { adminUrlFlag, timeoutFlag } from '../_lib/connection-flags.js';
import { CredentialsStore, normalizeAdminUrl } from '../_lib/credentials-store.js';
import { NodeConnection } from '../_lib/node-connection.js';
import { readSecret } from '../_lib/terminal-input.js';

export default class AdminLogin extends BaseCommand {
  static override summary = 'Save the admin API key of a node, so admin commands need no --api-key.';
  static override description =
    'Reads the key from a prompt without echo, or from stdin when it is not a terminal. Before saving, checks it ' +
    'against the node (an admin call that changes nothing): a refused key is not saved (exit 3), nor is one that ' +
    'cannot be checked (exit 5) unless --no-verify. The key is saved for --admin-url in the CLI credentials file ' +
    '($XDG_CONFIG_HOME/l2node/credentials.json, default ~/.config/l2node/, mode 0600). `l2node start` saves the ' +
    'keys it generates there itself.';
  static override examples = [
    '<%= config.bin %> admin login',
    'echo "$KEY" | <%= config.bin %> admin login --admin-url http://127.0.0.1:8880',
    '<%= config.bin %> admin login --no-verify < key.txt',
  ];
  static override flags = {
    'admin-url': adminUrlFlag,
    timeout: timeoutFlag,
    verify: Flags.boolean({
      description: 'Check the key against the node before saving it (--no-verify to skip).',
      default: true,
      allowNo: true,
    }),
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(AdminLogin);
    const adminUrl = normalizeAdminUrl(flags['admin-url']);
    const apiKey = await readSecret(`Admin API key for ${adminUrl}: `);
    if (apiKey.length === 0) throw CliError.usage('the key is empty');
    if (flags.verify) {
      const node = new NodeConnection({ url: flags['admin-url'], listener: 'admin', apiKey, timeoutMs: flags.timeout });
      try {
        await node.call('nodeAdmin_getConfig');
      } catch (err) {
        // Any answer past authentication proves the key (a node may not serve getConfig yet).
        if (!(err instanceof CliError) || err.code === 'UNAUTHORIZED' || err.exitCode === 5) {
          if (err instanceof CliError) {
            throw new CliError(`${err.message}; the key was not saved`, {
              exitCode: err.exitCode,
              code: err.code,
              actions:
                err.code === 'UNAUTHORIZED'
                  ? ['check the key (it was shown once by `l2node start`)']
                  : [...err.actions, 'or save it without checking: --no-verify'],
            });
          }
          throw err;
        }
      }
    }
    const store = new CredentialsStore();
    store.save(adminUrl, apiKey, 'login');
    this.log(
      `Saved the admin API key for ${adminUrl} in ${store.file}${flags.verify ? ' (the node accepted it)' : ''}.`,
    );
    return { adminUrl, file: store.file, verified: flags.verify };
  }
}
