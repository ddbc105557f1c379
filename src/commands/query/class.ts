import { Args } from '@oclif/core';
import { CliError } from '../_lib/cli-error.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseHexArgument } from '../_lib/hex-argument.js';
import { keyValues, shortHex } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { at, listAt, textAt, wireOf } from '../_lib/wire-json.js';

export default class QueryClass extends NodeCommand {
  static override summary = 'Show a published contract class: artifact hash, functions root and bytecode size.';
  static override description =
    'Calls node_getContractClass. The --json result is the ContractClassPublic as the node sends it (bytecode ' +
    'included). Exits 4 when no class with the id was published.';
  static override examples = [
    '<%= config.bin %> query class $CLASS_ID',
    '<%= config.bin %> query class $CLASS_ID --json',
  ];
  static override args = {
    id: Args.string({ ignoreStdin: true, description: 'Contract class id (0x + hex).', required: true }),
  };
  static override flags = { full: fullFlag };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryClass);
    const id = parseHexArgument(args.id, 'class id');
    const found = await this.publicNode(flags).call('node_getContractClass', id);
    if (found === undefined) {
      throw CliError.notFound(`no contract class ${id} is published`, [
        'classes appear once a tx publishing them is mined: l2node tx build --publish-class ...',
      ]);
    }
    const wire = wireOf('node_getContractClass', found);
    const bytecode = at(wire, 'packedBytecode');
    this.log(
      keyValues([
        ['id', shortHex(textAt(wire, 'id'), flags.full)],
        ['version', textAt(wire, 'version')],
        ['artifact hash', shortHex(textAt(wire, 'artifactHash'), flags.full)],
        ['private functions root', shortHex(textAt(wire, 'privateFunctionsRoot'), flags.full)],
        ['packed bytecode', typeof bytecode === 'string' ? `${Buffer.from(bytecode, 'base64').length} bytes` : '-'],
        ['private functions', listAt(wire, 'privateFunctions').length],
        ['utility functions', listAt(wire, 'utilityFunctions').length],
      ]),
    );
    return wire;
  }
}
