import { Flags } from '@oclif/core';
import { toHex64 } from '../../core/fr.js';
import { blockArg, parseBlockArgument } from '../_lib/block-argument.js';
import { blockNotFound } from '../_lib/block-not-found.js';
import { CliError } from '../_lib/cli-error.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseHexArgument } from '../_lib/hex-argument.js';
import { keyValues, shortHex, table } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryMessages extends NodeCommand {
  static override summary = 'Show the L2-to-L1 messages of a block, or where an L1-to-L2 message stands.';
  static override description =
    'With a block: node_getL2ToL1Messages, the messages per tx of that block (--json: string[][]). With ' +
    '--l1-to-l2 <message>: node_getL1ToL2MessageCheckpoint, node_getL1ToL2MessageBlock and ' +
    'node_isL1ToL2MessageSynced (--json: {message, synced, checkpoint, block}, null where not known yet).';
  static override examples = [
    '<%= config.bin %> query messages 12',
    '<%= config.bin %> query messages --l1-to-l2 0x2c5f9b1d2a7e',
    '<%= config.bin %> query messages latest --json',
  ];
  static override args = { block: blockArg };
  static override flags = {
    'l1-to-l2': Flags.string({ description: 'Show where this L1-to-L2 message stands instead.' }),
    full: fullFlag,
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryMessages);
    const node = this.publicNode(flags);
    if (flags['l1-to-l2'] !== undefined) {
      const message = parseHexArgument(flags['l1-to-l2'], 'message');
      const synced = await node.call('node_isL1ToL2MessageSynced', message);
      const checkpoint = (await node.call('node_getL1ToL2MessageCheckpoint', message)) ?? null;
      const block = (await node.call('node_getL1ToL2MessageBlock', message)) ?? null;
      this.log(
        keyValues([
          ['message', shortHex(message, flags.full)],
          ['synced', synced ? 'yes' : 'no: the node has not seen it'],
          ['checkpoint', checkpoint ?? '-'],
          ['in the tree from block', block ?? 'not yet'],
        ]),
      );
      return { message, synced, checkpoint, block };
    }
    if (args.block !== 'latest' && !/^[0-9]+$/.test(args.block) && !args.block.startsWith('0x')) {
      throw CliError.usage(`"${args.block}" is not a block: to look up an L1-to-L2 message use --l1-to-l2 <message>`);
    }
    const block = parseBlockArgument(args.block);
    const messages = await node.call('node_getL2ToL1Messages', block);
    if (messages === undefined) throw await blockNotFound(node, block);
    const rows = messages.flatMap((perTx, tx) =>
      perTx.map((m, i) => [String(tx), String(i), shortHex(toHex64(m), flags.full)]),
    );
    this.log(rows.length === 0 ? 'No L2-to-L1 messages in this block.' : table(['TX', '#', 'MESSAGE'], rows));
    return wireOf('node_getL2ToL1Messages', messages);
  }
}
