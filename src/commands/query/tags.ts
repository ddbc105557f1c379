import { Args, Flags } from '@oclif/core';
import { CliError } from '../_lib/cli-error.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseHexArgument } from '../_lib/hex-argument.js';
import { shortHex, table } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { type AnswerOf, wireOf } from '../_lib/wire-json.js';

export default class QueryTags extends NodeCommand {
  static override summary = 'Find the logs carrying each of some tags.';
  static override description =
    'Calls node_getLogsByTags(tags, logsPerTag): private and public logs whose first field is the tag. With ' +
    '--contract, node_getPublicLogsByTagsFromContract (public logs of that contract); with --private, ' +
    'node_getPrivateLogsByTags (siloed tags); both page with --page. The --json result has one array of ' +
    'TxScopedL2Logs per tag, in the order given.';
  static override examples = [
    '<%= config.bin %> query tags 0x7a6',
    '<%= config.bin %> query tags 0x7a6 0x7a7 --logs-per-tag 3 --json',
    '<%= config.bin %> query tags 0x7a6 --contract 0x1234 --page 1',
  ];
  static override strict = false;
  static override args = {
    tags: Args.string({ ignoreStdin: true, description: 'Tags (0x + hex), up to 1000.', required: true }),
  };
  static override flags = {
    'logs-per-tag': Flags.integer({ description: 'Logs per tag (1 to 10).', default: 10, min: 1, max: 10 }),
    contract: Flags.string({ description: 'Public logs of this contract only (paged).', exclusive: ['private'] }),
    private: Flags.boolean({ description: 'Private logs by siloed tag (paged).', exclusive: ['contract'] }),
    page: Flags.integer({
      description: 'Page, from 0 (10 logs per tag per page), with --contract or --private.',
      min: 0,
    }),
    full: fullFlag,
  };

  protected async execute(): Promise<unknown> {
    const { argv, flags } = await this.parse(QueryTags);
    const tags = (argv as string[]).map((t) => parseHexArgument(t, 'tag'));
    const node = this.publicNode(flags);
    const paged = flags.contract !== undefined || flags.private;
    if (flags.page !== undefined && !paged) throw CliError.usage('--page applies with --contract or --private');
    if (paged && tags.length > 100)
      throw CliError.usage(`at most 100 tags with --contract or --private, got ${tags.length}`);
    // The three methods answer in one type (a list of TxScopedL2Log per tag), so one codec encodes any of them.
    const m = 'node_getLogsByTags';
    let perTag: AnswerOf<typeof m>;
    if (flags.contract !== undefined) {
      const contract = parseHexArgument(flags.contract, '--contract');
      perTag = await node.call('node_getPublicLogsByTagsFromContract', contract, tags, flags.page);
    } else if (flags.private) {
      perTag = await node.call('node_getPrivateLogsByTags', tags, flags.page);
    } else {
      if (tags.length > 1000) throw CliError.usage(`at most 1000 tags at once, got ${tags.length}`);
      perTag = await node.call(m, tags, flags['logs-per-tag']);
    }
    const rows = perTag.flatMap((logs, i) =>
      (logs.length === 0 ? [undefined] : logs).map((l) =>
        l === undefined
          ? [shortHex(tags[i] ?? '', flags.full), '-', '-', 'no logs']
          : [
              shortHex(tags[i] ?? '', flags.full),
              String(l.blockNumber),
              shortHex(l.txHash.toString(), flags.full),
              `${l.logData.length} fields`,
            ],
      ),
    );
    this.log(table(['TAG', 'BLOCK', 'TX HASH', 'LOG'], rows));
    return wireOf(m, perTag);
  }
}
