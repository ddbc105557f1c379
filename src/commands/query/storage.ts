import { Args } from '@oclif/core';
import { parseBlockArgument } from '../_lib/block-argument.js';
import { blockFlag } from '../_lib/connection-flags.js';
import { parseHexArgument } from '../_lib/hex-argument.js';
import { keyValues } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';

export default class QueryStorage extends NodeCommand {
  static override summary = 'Read a public storage slot of a contract.';
  static override description =
    'Calls node_getPublicStorageAt(block, contract, slot). An unset slot reads 0. The --json result is the value ' +
    'as 0x + 64 hex digits.';
  static override examples = [
    '<%= config.bin %> query storage 0x05 0x2e65a3662e199f40e5a6345c71e92ffcc2944e942e0b492de60299de75da3838',
    '<%= config.bin %> query storage 0x1234 0x01 --block 12 --json',
  ];
  static override args = {
    contract: Args.string({ ignoreStdin: true, description: 'Contract address (0x + hex).', required: true }),
    slot: Args.string({ ignoreStdin: true, description: 'Storage slot (0x + hex).', required: true }),
  };
  static override flags = { block: blockFlag };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryStorage);
    const block = parseBlockArgument(flags.block, '--block');
    const contract = parseHexArgument(args.contract, 'contract address');
    const slot = parseHexArgument(args.slot, 'slot');
    const value = (await this.publicNode(flags).call('node_getPublicStorageAt', block, contract, slot)).toString();
    this.log(
      keyValues([
        ['value', value],
        ['decimal', BigInt(value).toString()],
      ]),
    );
    return value;
  }
}
