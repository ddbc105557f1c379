import { Args, Flags } from '@oclif/core';
import type { TxJson } from '../../core/tx/tx.js';
import { renderReceipt } from '../_lib/chain-render.js';
import { CliError } from '../_lib/cli-error.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { NodeCommand } from '../_lib/node-command.js';
import { Spinner } from '../_lib/spinner.js';
import { readTxInput } from '../_lib/tx-input.js';
import { TX_PROGRESS, waitForReceipt } from '../_lib/wait-for-receipt.js';
import { wireOf } from '../_lib/wire-json.js';

export default class TxSend extends NodeCommand {
  static override summary = "Send a transaction (JSON, from a file or stdin) to the node's mempool.";
  static override description =
    'Calls node_sendTx. The input is a Tx as JSON: what `tx build` prints, a `query tx --json` answer, or either ' +
    'envelope. A refusal exits 1 with the rejection code (LOW_PRIORITY_FEE, INSUFFICIENT_FEE_PAYER_BALANCE, ' +
    'NULLIFIER_CONFLICT, TX_INVALID) as error.code and its figures as error.data. With --wait, waits until the tx ' +
    'reaches that status. The --json result is {txHash} (and {receipt} with --wait).';
  static override examples = [
    '<%= config.bin %> tx send tx.json',
    '<%= config.bin %> tx build --note-hash 0x01 | <%= config.bin %> tx send -',
    '<%= config.bin %> tx send tx.json --wait checkpointed --json',
  ];
  static override args = {
    file: Args.string({ ignoreStdin: true, description: 'File holding the Tx JSON, or - for stdin.', required: true }),
  };
  static override flags = {
    wait: Flags.string({ description: 'Then wait until the tx reaches this status.', options: [...TX_PROGRESS] }),
    'max-wait': Flags.integer({ description: 'With --wait: seconds to wait at most.', default: 120, min: 1 }),
    full: fullFlag,
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(TxSend);
    const json = await readTxInput(args.file);
    // The node recomputes the hash from the tx data; so does this (the hash in the file may be stale or absent).
    const { Tx } = await import('../../core/tx/tx.js');
    let txHash: string;
    try {
      txHash = Tx.fromJSON(json).txHash.toString();
    } catch (err) {
      throw CliError.usage(
        `the tx in ${args.file === '-' ? 'stdin' : args.file} does not decode: ${(err as Error).message}`,
      );
    }
    const node = this.publicNode(flags);
    // Sent as given (the node decodes and checks it as this did above).
    await node.call('node_sendTx', json as unknown as TxJson);
    this.log(`sent ${txHash}`);
    if (!flags.wait) return { txHash };
    const until = flags.wait as (typeof TX_PROGRESS)[number];
    const spinner = new Spinner(!this.jsonEnabled());
    spinner.start(`waiting for it to be ${until}`);
    try {
      const receipt = await waitForReceipt(node, txHash, {
        until,
        maxWaitMs: flags['max-wait'] * 1000,
        pollMs: 250,
        onStatus: (s) => spinner.status(s),
      });
      await spinner.stop('done');
      this.log(renderReceipt(receipt, flags.full));
      return { txHash, receipt: wireOf('node_getTxReceipt', receipt) };
    } catch (err) {
      await spinner.stop('failed');
      throw err;
    }
  }
}
