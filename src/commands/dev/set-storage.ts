import { Args } from '@oclif/core';
import { AdminCommand } from '../_lib/admin-command.js';
import { CliError } from '../_lib/cli-error.js';
import { parseHexArgument } from '../_lib/hex-argument.js';

/** A field argument as 0x hex or a decimal integer (storage slots are often small numbers). */
function fieldArgument(raw: string, what: string): string {
  const s = raw.trim();
  if (/^[0-9]{1,78}$/.test(s)) return `0x${BigInt(s).toString(16).padStart(64, '0')}`;
  if (/^0x/.test(s)) return parseHexArgument(s, what);
  throw CliError.usage(`${what} "${raw}" is neither 0x + up to 64 hex digits nor a decimal integer`);
}

export default class SetStorage extends AdminCommand {
  static override summary = "Dev mode: set a contract's public storage slot (anvil_setStorageAt).";
  static override description =
    "Calls nodeDev_setPublicStorage on the admin listener: from the next block on, CONTRACT's public storage " +
    'SLOT (as the contract declares it, not siloed) holds VALUE. The next block applies it before its txs; in ' +
    'instant mode (the default) that block is built at once. A follower replays the write from its upstream. ' +
    'SLOT and VALUE take 0x hex or a decimal integer. The --json result is {blockNumber} (null while it waits).';
  static override examples = [
    '<%= config.bin %> dev set-storage $CONTRACT_ADDRESS 1 42',
    '<%= config.bin %> dev set-storage $CONTRACT_ADDRESS 0x0c 0x01 --json',
  ];
  static override args = {
    contract: Args.string({ required: true, ignoreStdin: true, description: 'The contract address (0x hex).' }),
    slot: Args.string({ required: true, ignoreStdin: true, description: 'The storage slot (0x hex or decimal).' }),
    value: Args.string({ required: true, ignoreStdin: true, description: 'The new value (0x hex or decimal).' }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(SetStorage);
    const contract = parseHexArgument(args.contract, 'contract');
    const slot = fieldArgument(args.slot, 'slot');
    const value = fieldArgument(args.value, 'value');
    const blockNumber = await this.adminNode(flags).call('nodeDev_setPublicStorage', contract, slot, value);
    this.log(
      blockNumber === undefined
        ? `slot ${slot} of ${contract} is set to ${value} by the next block`
        : `slot ${slot} of ${contract} is ${value} from block ${blockNumber}`,
    );
    return { blockNumber: blockNumber ?? null };
  }
}
