import { Args, Flags } from '@oclif/core';
import { CliError } from '../_lib/cli-error.js';
import { parseHexArgument } from '../_lib/hex-argument.js';
import { indentJson } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryValidator extends NodeCommand {
  static override summary = 'Show the statistics of one validator over a slot range.';
  static override description =
    'Calls node_getValidatorStats(address, fromSlot, toSlot). The --json result is the SingleValidatorStats as the ' +
    'node sends it; exits 4 when the node has no record of the validator. A node without a validator service ' +
    'answers that the method is not available: the command prints it and exits 1.';
  static override examples = [
    '<%= config.bin %> query validator $VALIDATOR_ADDRESS',
    '<%= config.bin %> query validator $VALIDATOR_ADDRESS --from-slot 1 --to-slot 10 --json',
  ];
  static override args = {
    address: Args.string({
      ignoreStdin: true,
      description: 'Validator (attester) L1 address, 0x + 40 hex.',
      required: true,
    }),
  };
  static override flags = {
    'from-slot': Flags.string({ description: 'First slot (a non-negative integer).' }),
    'to-slot': Flags.string({ description: 'Last slot (a non-negative integer).' }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryValidator);
    const address = parseHexArgument(args.address, 'validator address', 20);
    for (const f of ['from-slot', 'to-slot'] as const) {
      const v = flags[f];
      if (v !== undefined && !/^[0-9]{1,20}$/.test(v))
        throw CliError.usage(`--${f} "${v}" is not a non-negative integer`);
    }
    const stats = await this.publicNode(flags).call(
      'node_getValidatorStats',
      address,
      flags['from-slot'],
      flags['to-slot'],
    );
    if (stats === undefined) throw CliError.notFound(`the node has no record of validator ${address}`);
    const wire = wireOf('node_getValidatorStats', stats);
    this.log(indentJson(wire));
    return wire;
  }
}
