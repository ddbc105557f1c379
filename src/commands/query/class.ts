import { Args } from '@oclif/core';
import { CliError } from '../_lib/cli-error.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseHexArgument } from '../_lib/hex-argument.js';
import { keyValues, shortHex } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

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
    this.log(
      keyValues([
        ['id', shortHex(found.id.toString(), flags.full)],
        ['version', found.version],
        ['artifact hash', shortHex(found.artifactHash.toString(), flags.full)],
        ['private functions root', shortHex(found.privateFunctionsRoot.toString(), flags.full)],
        ['packed bytecode', `${found.packedBytecode.length} bytes`],
        ['private functions', found.privateFunctions.length],
        ['utility functions', found.utilityFunctions.length],
      ]),
    );
    return wireOf('node_getContractClass', found);
  }
}
