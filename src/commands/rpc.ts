import { Args, Flags } from '@oclif/core';
import { DEFAULT_PUBLIC_URL } from '../rpc/client/default-urls.js';
import { RPC_METHODS } from '../rpc/method-table.js';
import type { RpcMethod } from '../rpc/rpc-method.js';
import { resolveAdminKey } from './_lib/admin-key.js';
import { BaseCommand, toJsonText } from './_lib/base-command.js';
import { CliError } from './_lib/cli-error.js';
import { adminUrlFlag, apiKeyFlag, nodeUrlFlag, timeoutFlag } from './_lib/connection-flags.js';
import { NodeConnection } from './_lib/node-connection.js';

export default class Rpc extends BaseCommand {
  static override summary = 'Call any JSON-RPC method of a running node and print the result as JSON.';
  static override description =
    'Each param is read as JSON when it parses as JSON (5, true, null, [..], {..}) and as a string otherwise ' +
    '(latest, 0x12...). node_ methods go to --node-url, nodeAdmin_ and nodeDev_ methods to --admin-url with the ' +
    'admin API key (--api-key, NODE_ADMIN_API_KEY or the saved one). Without a method, lists every method with ' +
    'its params. The human output is the result as JSON; --json wraps it in the envelope.';
  static override examples = [
    '<%= config.bin %> rpc node_getBlockNumber',
    '<%= config.bin %> rpc node_getBlock latest',
    '<%= config.bin %> rpc node_getBlocks 1 10',
    '<%= config.bin %> rpc nodeAdmin_pauseSync --api-key $KEY',
    '<%= config.bin %> rpc',
  ];
  static override strict = false;
  static override args = {
    method: Args.string({ ignoreStdin: true, description: 'Method name, e.g. node_getBlockNumber.', required: false }),
    params: Args.string({
      ignoreStdin: true,
      description: 'Its params in order (as many as the method takes).',
      required: false,
    }),
  };
  static override flags = {
    // --url is the name this flag had before the other commands settled on --node-url.
    'node-url': Flags.string({
      description: nodeUrlFlag.description,
      env: 'NODE_URL',
      default: DEFAULT_PUBLIC_URL,
      aliases: ['url'],
      helpGroup: 'CONNECTION',
    }),
    'admin-url': adminUrlFlag,
    'api-key': apiKeyFlag,
    timeout: timeoutFlag,
  };

  protected async execute(): Promise<unknown> {
    const { args, argv, flags } = await this.parse(Rpc);
    const methods = RPC_METHODS as unknown as Record<string, RpcMethod>;
    if (!args.method) {
      const list = Object.values(methods).map((m) => ({
        name: m.name,
        listener: m.listener,
        params: m.params.map((p) => ({ name: p.name, type: p.wire.type, presence: p.presence })),
        result: m.result.type,
      }));
      for (const m of list) {
        const params = m.params.map((p) => (p.presence === 'required' ? p.name : `[${p.name}]`)).join(' ');
        this.log(`${m.name}${params ? ` ${params}` : ''}  -> ${m.result}`);
      }
      return list;
    }
    const method = methods[args.method];
    if (!method) {
      const near = Object.keys(methods).filter((n) =>
        n.toLowerCase().includes(args.method?.toLowerCase().replace(/^node(admin|dev)?_/, '') ?? ''),
      );
      throw CliError.usage(
        `unknown method ${args.method}${near.length ? `; did you mean ${near.slice(0, 5).join(', ')}?` : ''}`,
        ['list them all: l2node rpc'],
      );
    }
    const params = (argv as string[]).slice(1).map(parseParam);
    const admin = method.listener === 'admin';
    const node = new NodeConnection({
      url: admin ? flags['admin-url'] : flags['node-url'],
      listener: method.listener,
      apiKey: admin ? resolveAdminKey(flags['api-key'], flags['admin-url']).apiKey : undefined,
      timeoutMs: flags.timeout,
    });
    const result = (await node.callRaw(method.name, params)) ?? null;
    this.log(toJsonText(result));
    return result;
  }
}

/**
 * A param is JSON when it parses as JSON, else the text itself (so `latest` and `0x..` need no quotes).
 * Integers beyond 2^53 stay strings: that is how bigints travel, and a JSON number would lose digits.
 */
function parseParam(raw: string): unknown {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) ? raw : value;
  } catch {
    return raw;
  }
}
