import { AdminCommand } from '../../_lib/admin-command.js';

export default class AdminKeystoreReload extends AdminCommand {
  static override summary = 'Reload validator keys from the keystore without a restart.';
  static override description =
    'Calls nodeAdmin_reloadKeystore. Attester keys, coinbase and fee recipient per validator and the ' +
    'publisher-to-validator mapping are updated; publisher signers, prover keys and HA signer connections need a ' +
    'restart. A keystore that fails validation is refused and nothing changes. The --json result is {reloaded: true}.';
  static override examples = [
    '<%= config.bin %> admin keystore reload',
    '<%= config.bin %> admin keystore reload --json',
  ];

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(AdminKeystoreReload);
    await this.adminNode(flags).call('nodeAdmin_reloadKeystore');
    this.log('Keystore reloaded.');
    return { reloaded: true };
  }
}
