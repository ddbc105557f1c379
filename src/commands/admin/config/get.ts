import { Args } from '@oclif/core';
import { AdminCommand } from '../../_lib/admin-command.js';
import { CliError } from '../../_lib/cli-error.js';
import { table } from '../../_lib/human-format.js';

export default class AdminConfigGet extends AdminCommand {
  static override summary = "Show the running node's runtime configuration (all keys, or one).";
  static override description =
    'Calls nodeAdmin_getConfig. The --json result is the NodeAdminConfig object, or the one value asked for. ' +
    'Exits 4 when the node has no such key. Start-up settings are shown by `l2node config`.';
  static override examples = [
    '<%= config.bin %> admin config get',
    '<%= config.bin %> admin config get maxPendingTxCount',
    '<%= config.bin %> admin config get --json',
  ];
  static override args = { key: Args.string({ ignoreStdin: true, description: 'Only this key.' }) };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(AdminConfigGet);
    // The values are JSON as the node's settings table writes them: the codec passes them through.
    const config = await this.adminNode(flags).call('nodeAdmin_getConfig');
    if (args.key !== undefined) {
      if (!(args.key in config)) {
        throw CliError.notFound(`the node has no config key "${args.key}"`, [
          `known keys: ${Object.keys(config).join(', ')}`,
        ]);
      }
      this.log(show(config[args.key]));
      return config[args.key];
    }
    this.log(
      table(
        ['KEY', 'VALUE'],
        Object.entries(config).map(([k, v]) => [k, show(v)]),
      ),
    );
    return config;
  }
}

function show(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
