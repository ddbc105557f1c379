import { Args } from '@oclif/core';
import { AdminCommand } from '../../_lib/admin-command.js';
import { CliError } from '../../_lib/cli-error.js';

export default class AdminConfigSet extends AdminCommand {
  static override summary = 'Change runtime configuration keys of the running node.';
  static override description =
    'Calls nodeAdmin_setConfig with the key=value pairs given. A value is read as JSON when it parses (500, true, ' +
    '"x", [..]) and as a string otherwise. The node checks every key and value, and refuses them all when one is ' +
    'wrong (exit 2). The --json result is the object that was sent.';
  static override examples = [
    '<%= config.bin %> admin config set maxPendingTxCount=500',
    '<%= config.bin %> admin config set archiverPollingIntervalMS=1000 maxPendingTxCount=2000 --json',
  ];
  static override strict = false;
  static override args = { pairs: Args.string({ ignoreStdin: true, description: 'key=value pairs.', required: true }) };

  protected async execute(): Promise<unknown> {
    const { argv, flags } = await this.parse(AdminConfigSet);
    const config: Record<string, unknown> = {};
    for (const pair of argv as string[]) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw CliError.usage(`"${pair}" is not key=value`);
      const key = pair.slice(0, eq);
      if (key in config) throw CliError.usage(`${key} is given twice`);
      config[key] = parseValue(pair.slice(eq + 1));
    }
    await this.adminNode(flags).call('nodeAdmin_setConfig', config);
    this.log(`Set ${Object.keys(config).join(', ')}.`);
    return config;
  }
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
