import { Args, Command, Flags } from '@oclif/core';
import { DEFAULT_ADMIN_URL, DEFAULT_PUBLIC_URL } from '../rpc/client/default-urls.js';
import { RpcClient } from '../rpc/client/rpc-client.js';
import { RpcClientError } from '../rpc/client/rpc-client-error.js';
import { RPC_METHODS } from '../rpc/method-table.js';
import type { RpcMethod } from '../rpc/rpc-method.js';

export default class Rpc extends Command {
  static override summary = 'Call any JSON-RPC method of a running node and print the result as JSON.';
  static override description =
    'Each param is read as JSON when it parses as JSON (5, true, null, [..], {..}) and as a string otherwise ' +
    '(latest, 0x12...). node_ methods go to --url, nodeAdmin_ methods to --admin-url with --api-key. ' +
    'Without a method, lists every method with its params.';
  static override examples = [
    '<%= config.bin %> rpc node_getBlockNumber',
    '<%= config.bin %> rpc node_getBlock latest',
    '<%= config.bin %> rpc node_getBlocks 1 10',
    '<%= config.bin %> rpc nodeAdmin_pauseSync --api-key $KEY',
    '<%= config.bin %> rpc',
  ];
  static override strict = false;
  static override args = {
    method: Args.string({ description: 'Method name, e.g. node_getBlockNumber.', required: false }),
    params: Args.string({ description: 'Its params in order (as many as the method takes).', required: false }),
  };
  static override flags = {
    url: Flags.string({ description: 'Public listener URL.', env: 'NODE_RPC_URL', default: DEFAULT_PUBLIC_URL }),
    'admin-url': Flags.string({
      description: 'Admin listener URL.',
      env: 'NODE_ADMIN_URL',
      default: DEFAULT_ADMIN_URL,
    }),
    'api-key': Flags.string({ description: 'Admin API key (for nodeAdmin_ methods).', env: 'NODE_ADMIN_API_KEY' }),
    timeout: Flags.integer({ description: 'Milliseconds to wait for the answer.', default: 30_000, min: 1 }),
  };

  async run(): Promise<void> {
    const { args, argv, flags } = await this.parse(Rpc);
    const methods = RPC_METHODS as unknown as Record<string, RpcMethod>;
    if (!args.method) {
      for (const m of Object.values(methods)) {
        const params = m.params.map((p) => (p.presence === 'required' ? p.name : `[${p.name}]`)).join(' ');
        this.log(`${m.name}${params ? ` ${params}` : ''}  -> ${m.result.type}`);
      }
      return;
    }
    const method = methods[args.method];
    if (!method) {
      const near = Object.keys(methods).filter((n) =>
        n.toLowerCase().includes(args.method?.toLowerCase().replace(/^node(admin)?_/, '') ?? ''),
      );
      this.fail(
        `unknown method ${args.method}${near.length ? `; did you mean ${near.slice(0, 5).join(', ')}?` : ''} (\`l2node rpc\` lists them all)`,
        2,
      );
    }
    const params = (argv as string[]).slice(1).map(parseParam);
    const admin = method.listener === 'admin';
    const client = new RpcClient({
      url: admin ? flags['admin-url'] : flags.url,
      apiKey: admin ? flags['api-key'] : undefined,
      timeoutMs: flags.timeout,
    });
    try {
      const result = await client.callRaw(method.name, params);
      this.log(JSON.stringify(result ?? null, null, 2));
    } catch (err) {
      if (err instanceof RpcClientError) {
        const data = err.data === undefined ? '' : `\n${JSON.stringify(err.data, null, 2)}`;
        this.fail(`${err.message}${data}`, 1);
      }
      throw err;
    }
  }

  /** One plain line on stderr (no wrapping: scripts grep it), then the exit code. */
  private fail(message: string, code: number): never {
    process.stderr.write(`l2node rpc: ${message}\n`);
    return this.exit(code);
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
