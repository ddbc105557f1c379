import { Args, Command, Flags } from '@oclif/core';
import { DEFAULT_ADMIN_URL } from '../../rpc/client/default-urls.js';
import { RpcClient } from '../../rpc/client/rpc-client.js';
import { RpcClientError } from '../../rpc/client/rpc-client-error.js';

export default class SendL1Message extends Command {
  static override summary = 'Dev mode: send an L1-to-L2 message to the node as the L1 Inbox would.';
  static override description =
    'Calls nodeDev_sendL1ToL2Message on the admin listener. The message gets its leaf index at once and enters ' +
    'the L1-to-L2 message tree with the next checkpoint the dev sequencer builds (a checkpoint is built for it ' +
    'even without txs). Query it with node_getL1ToL2MessageBlock and node_getL1ToL2MessageMembershipWitness.';
  static override examples = [
    '<%= config.bin %> admin send-l1-message 0x1234 --api-key $KEY',
    '<%= config.bin %> admin send-l1-message 0x1234 --admin-url http://127.0.0.1:8880 --json',
  ];
  static override args = {
    message: Args.string({ description: 'The message leaf: a non-zero field element, 0x + hex.', required: true }),
  };
  static override flags = {
    'admin-url': Flags.string({
      description: 'Admin listener URL.',
      env: 'NODE_ADMIN_URL',
      default: DEFAULT_ADMIN_URL,
    }),
    'api-key': Flags.string({ description: 'Admin API key.', env: 'NODE_ADMIN_API_KEY' }),
    json: Flags.boolean({ description: 'Print the result as JSON.' }),
    timeout: Flags.integer({ description: 'Milliseconds to wait for the answer.', default: 30_000, min: 1 }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SendL1Message);
    const client = new RpcClient({ url: flags['admin-url'], apiKey: flags['api-key'], timeoutMs: flags.timeout });
    try {
      const result = (await client.call('nodeDev_sendL1ToL2Message', args.message)) as {
        index: string;
        checkpoint: number;
      };
      if (flags.json) {
        this.log(JSON.stringify({ message: args.message, ...result }));
      } else {
        this.log(
          `sent ${args.message}: leaf index ${result.index}, enters the message tree with checkpoint ${result.checkpoint}`,
        );
      }
    } catch (err) {
      if (err instanceof RpcClientError) {
        process.stderr.write(`l2node admin send-l1-message: ${err.message}\n`);
        this.exit(1);
      }
      throw err;
    }
  }
}
