import { Args } from '@oclif/core';
import { AdminCommand } from '../_lib/admin-command.js';
import { parseHexArgument } from '../_lib/hex-argument.js';

export default class SendL1Message extends AdminCommand {
  static override summary = 'Dev mode: send an L1-to-L2 message to the node as the L1 Inbox would.';
  static override description =
    'Calls nodeDev_sendL1ToL2Message on the admin listener. The message gets its leaf index at once and enters ' +
    'the L1-to-L2 message tree with the next checkpoint the dev sequencer builds (a checkpoint is built for it ' +
    'even without txs). Follow it with `l2node query messages --l1-to-l2 <message>`, prove it with ' +
    '`l2node query witness l1-to-l2 <message>`. The --json result is {message, index, checkpoint}.';
  static override examples = [
    '<%= config.bin %> admin send-l1-message 0x1234',
    '<%= config.bin %> admin send-l1-message 0x1234 --admin-url http://127.0.0.1:8880 --json',
  ];
  static override args = {
    message: Args.string({
      ignoreStdin: true,
      description: 'The message leaf: a non-zero field element, 0x + hex.',
      required: true,
    }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(SendL1Message);
    const message = parseHexArgument(args.message, 'message');
    const sent = await this.adminNode(flags).call('nodeDev_sendL1ToL2Message', message);
    // Shown as typed (the node got it padded to 64 digits).
    const shown = args.message.trim().toLowerCase();
    this.log(`sent ${shown}: leaf index ${sent.index}, enters the message tree with checkpoint ${sent.checkpoint}`);
    return { message: shown, index: sent.index.toString(), checkpoint: sent.checkpoint };
  }
}
