import { Args } from '@oclif/core';
import { CliError } from '../_lib/cli-error.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseHexArgument } from '../_lib/hex-argument.js';
import { keyValues, shortHex } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryContract extends NodeCommand {
  static override summary = 'Show a published contract instance: its class, deployer, salt and keys.';
  static override description =
    'Calls node_getContract. The --json result is the ContractInstanceWithAddress as the node sends it. Exits 4 ' +
    'when no instance was published at the address.';
  static override examples = [
    '<%= config.bin %> query contract $CONTRACT_ADDRESS',
    '<%= config.bin %> query contract $CONTRACT_ADDRESS --json',
  ];
  static override args = {
    address: Args.string({ ignoreStdin: true, description: 'Contract address (0x + hex).', required: true }),
  };
  static override flags = { full: fullFlag };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryContract);
    const address = parseHexArgument(args.address, 'contract address');
    const instance = await this.publicNode(flags).call('node_getContract', address);
    if (instance === undefined) {
      throw CliError.notFound(`no contract instance is published at ${address}`, [
        'instances appear once a tx publishing them is mined: l2node tx build --publish-instance ...',
      ]);
    }
    const h = (value: { toString(): string }) => shortHex(value.toString(), flags.full);
    this.log(
      keyValues([
        ['address', h(instance.address)],
        ['version', instance.version],
        ['current class', h(instance.currentContractClassId)],
        ['original class', h(instance.originalContractClassId)],
        ['deployer', h(instance.deployer)],
        ['salt', h(instance.salt)],
        ['initialization hash', h(instance.initializationHash)],
      ]),
    );
    return wireOf('node_getContract', instance);
  }
}
