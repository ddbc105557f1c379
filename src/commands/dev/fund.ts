import { Args } from '@oclif/core';
import { AdminCommand } from '../_lib/admin-command.js';
import { CliError } from '../_lib/cli-error.js';
import { parseHexArgument } from '../_lib/hex-argument.js';

export default class Fund extends AdminCommand {
  static override summary = "Dev mode: set an address's FeeJuice balance (anvil_setBalance).";
  static override description =
    'Calls nodeDev_setFeeJuiceBalance on the admin listener: from the next block on, ADDRESS (an account, an ' +
    'FPC) holds AMOUNT FeeJuice base units (its balance slot of the FeeJuice contract; the balance is set, not ' +
    'added to). In instant mode (the default) the block is built at once. The --json result is {blockNumber} ' +
    '(null while it waits for the next block).';
  static override examples = [
    '<%= config.bin %> dev fund $CONTRACT_ADDRESS 1000000000000000000000',
    '<%= config.bin %> dev fund $CONTRACT_ADDRESS 0 --json',
  ];
  static override args = {
    address: Args.string({ required: true, ignoreStdin: true, description: 'The address to fund (0x hex).' }),
    amount: Args.string({ required: true, ignoreStdin: true, description: 'The new balance, decimal base units.' }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(Fund);
    const address = parseHexArgument(args.address, 'address');
    if (!/^[0-9]{1,39}$/.test(args.amount.trim())) {
      throw CliError.usage(`amount "${args.amount}" is not a decimal integer of at most 39 digits`);
    }
    const amount = BigInt(args.amount.trim());
    const blockNumber = await this.adminNode(flags).call('nodeDev_setFeeJuiceBalance', address, amount.toString());
    this.log(
      blockNumber === undefined
        ? `${address} holds ${amount} FeeJuice from the next block`
        : `${address} holds ${amount} FeeJuice from block ${blockNumber}`,
    );
    return { blockNumber: blockNumber ?? null };
  }
}
