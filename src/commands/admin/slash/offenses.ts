import { Args } from '@oclif/core';
import { AdminCommand } from '../../_lib/admin-command.js';
import { CliError } from '../../_lib/cli-error.js';
import { indentJson } from '../../_lib/human-format.js';
import { wireOf } from '../../_lib/wire-json.js';

export default class AdminSlashOffenses extends AdminCommand {
  static override summary = 'Show the offenses of a slashing round.';
  static override description =
    'Calls nodeAdmin_getSlashOffenses(round): a round number, "current" (default) or "all" (every pending ' +
    'offense). The --json result is the Offense array.';
  static override examples = [
    '<%= config.bin %> admin slash offenses',
    '<%= config.bin %> admin slash offenses 42',
    '<%= config.bin %> admin slash offenses all --json',
  ];
  static override args = {
    round: Args.string({ ignoreStdin: true, description: 'A round number, "current" or "all".', default: 'current' }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(AdminSlashOffenses);
    if (!/^([0-9]{1,20}|current|all)$/.test(args.round)) {
      throw CliError.usage(`round "${args.round}" is not a round number, "current" or "all"`);
    }
    const offenses = await this.adminNode(flags).call('nodeAdmin_getSlashOffenses', args.round);
    const wire = wireOf('nodeAdmin_getSlashOffenses', offenses);
    this.log(offenses.length === 0 ? `No offenses (round ${args.round}).` : indentJson(wire));
    return wire;
  }
}
