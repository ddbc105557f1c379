import { AdminCommand } from '../../_lib/admin-command.js';
import { indentJson } from '../../_lib/human-format.js';
import { wireOf } from '../../_lib/wire-json.js';

export default class AdminSlashPayloads extends AdminCommand {
  static override summary = 'Show the slash payloads monitored in the current round.';
  static override description = 'Calls nodeAdmin_getSlashPayloads. The --json result is the SlashPayloadRound array.';
  static override examples = [
    '<%= config.bin %> admin slash payloads',
    '<%= config.bin %> admin slash payloads --json',
  ];

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(AdminSlashPayloads);
    const payloads = await this.adminNode(flags).call('nodeAdmin_getSlashPayloads');
    const wire = wireOf('nodeAdmin_getSlashPayloads', payloads);
    this.log(payloads.length === 0 ? 'No slash payloads in the current round.' : indentJson(wire));
    return wire;
  }
}
