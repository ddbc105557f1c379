import { Flags } from '@oclif/core';
import { ContractClassLog } from '../../core/logs/contract-class-log.js';
import type { ExtendedContractClassLog } from '../../core/logs/extended-contract-class-log.js';
import type { ExtendedPublicLog } from '../../core/logs/extended-public-log.js';
import type { RpcMethods } from '../../rpc/method-table.js';
import type { ClientArgs, ParamsOf } from '../../rpc/rpc-method.js';
import { CliError } from '../_lib/cli-error.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseHexArgument, parseTxHashArgument } from '../_lib/hex-argument.js';
import { shortHex, table } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

/** The LogFilter as node_getPublicLogs takes it (the method table's type). */
type LogFilterParam = ClientArgs<ParamsOf<RpcMethods['node_getPublicLogs']>>[0];

export default class QueryLogs extends NodeCommand {
  static override summary = 'Find public, contract class or private logs, with filters.';
  static override description =
    'Public logs (default) and contract class logs: node_getPublicLogs / node_getContractClassLogs with a LogFilter ' +
    'built from --from-block, --to-block, --tx, --contract, --tag (public only) and --after-log; the --json result ' +
    'is {logs, maxLogsHit}: when maxLogsHit is true there are more, fetch them with --after-log <the last id as ' +
    'JSON>. Private logs: node_getPrivateLogs over the blocks --from-block (default 1) to --to-block (default: ' +
    'latest, at most 1000 blocks); the --json result is the PrivateLog array.';
  static override examples = [
    '<%= config.bin %> query logs --from-block 1 --to-block 20',
    '<%= config.bin %> query logs --contract 0x1234 --tag 0x7a6',
    '<%= config.bin %> query logs --kind class --tx $TX_HASH --json',
    '<%= config.bin %> query logs --kind private --from-block 5 --to-block 9',
  ];
  static override flags = {
    kind: Flags.string({ description: 'Which logs.', options: ['public', 'class', 'private'], default: 'public' }),
    'from-block': Flags.integer({ description: 'First block to search.', min: 0 }),
    'to-block': Flags.integer({
      description: 'Block to stop at (public and class logs: exclusive, as LogFilter).',
      min: 0,
    }),
    tx: Flags.string({ description: 'Only logs of this tx hash.' }),
    contract: Flags.string({ description: 'Only logs emitted by this contract address.' }),
    tag: Flags.string({ description: 'Only public logs whose first field is this tag.' }),
    'after-log': Flags.string({
      description: 'Paging: only logs after this LogId, as JSON {blockNumber, blockHash, txHash, txIndex, logIndex}.',
    }),
    full: fullFlag,
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(QueryLogs);
    const node = this.publicNode(flags);
    if (flags.kind === 'private') {
      for (const f of ['tx', 'contract', 'tag', 'after-log'] as const) {
        if (flags[f] !== undefined)
          throw CliError.usage(`--${f} does not apply to private logs (only --from-block, --to-block)`);
      }
      const from = Math.max(1, flags['from-block'] ?? 1);
      const to = flags['to-block'] ?? (await node.call('node_getBlockNumber'));
      if (to < from) {
        this.log(`No blocks from ${from} to ${to}.`);
        return [];
      }
      if (to - from + 1 > 1000)
        throw CliError.usage(`at most 1000 blocks of private logs at once (asked ${from} to ${to})`);
      const logs = await node.call('node_getPrivateLogs', from, to - from + 1);
      this.log(
        logs.length === 0
          ? `No private logs in blocks ${from} to ${to}.`
          : table(
              ['#', 'TAG', 'FIELDS'],
              logs.map((l, i) => [String(i), shortHex(firstField(l.fields), flags.full), String(l.emittedLength)]),
            ),
      );
      return wireOf('node_getPrivateLogs', logs);
    }
    if (flags.kind === 'class' && flags.tag !== undefined) throw CliError.usage('--tag applies to public logs only');
    const filter: LogFilterParam = {};
    if (flags['from-block'] !== undefined) filter.fromBlock = flags['from-block'];
    if (flags['to-block'] !== undefined) filter.toBlock = flags['to-block'];
    if (flags.tx !== undefined) filter.txHash = parseTxHashArgument(flags.tx, '--tx');
    if (flags.contract !== undefined) filter.contractAddress = parseHexArgument(flags.contract, '--contract');
    if (flags.tag !== undefined) filter.tag = parseHexArgument(flags.tag, '--tag');
    if (flags['after-log'] !== undefined)
      filter.afterLog = parseLogId(flags['after-log']) as LogFilterParam['afterLog'];
    const [response, wire] =
      flags.kind === 'class'
        ? await node
            .call('node_getContractClassLogs', filter)
            .then((r) => [r, wireOf('node_getContractClassLogs', r)] as const)
        : await node.call('node_getPublicLogs', filter).then((r) => [r, wireOf('node_getPublicLogs', r)] as const);
    const logs: readonly (ExtendedPublicLog | ExtendedContractClassLog)[] = response.logs;
    if (logs.length === 0) this.log('No logs match.');
    else {
      this.log(
        table(
          ['BLOCK', 'TX', 'LOG', 'TX HASH', 'CONTRACT', 'FIELDS', 'FIRST FIELD'],
          logs.map(({ id, log }) => {
            // A public log has its fields; a contract class log a fixed-size array and its emitted length.
            const [count, fields] =
              log instanceof ContractClassLog
                ? [log.emittedLength, log.fields.fields]
                : [log.fields.length, log.fields];
            return [
              String(id.blockNumber),
              String(id.txIndex),
              String(id.logIndex),
              shortHex(id.txHash.toString(), flags.full),
              shortHex(log.contractAddress.toString(), flags.full),
              String(count),
              shortHex(firstField(fields), flags.full),
            ];
          }),
        ),
      );
      const last = logs.at(-1);
      if (response.maxLogsHit && last) {
        this.log(`More logs match: continue with --after-log '${JSON.stringify(last.id)}'`);
      }
    }
    return wire;
  }
}

/** A log's first field (its tag), or '-' for a log without fields. */
function firstField(fields: readonly { toString(): string }[]): string {
  return fields[0]?.toString() ?? '-';
}

function parseLogId(raw: string): unknown {
  try {
    const id: unknown = JSON.parse(raw);
    if (typeof id === 'object' && id !== null && !Array.isArray(id)) return id;
  } catch {
    // Reported below.
  }
  throw CliError.usage(
    `--after-log "${raw}" is not a LogId object as JSON, e.g. {"blockNumber":3,"blockHash":"0x..","txHash":"0x..","txIndex":0,"logIndex":1}`,
  );
}
