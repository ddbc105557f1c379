import { Args, Flags } from '@oclif/core';
import { EventStreamClient } from '../../rpc/client/event-stream-client.js';
import type { RollbackEvent } from '../../rpc/node-stream-event.js';
import { AdminCommand } from '../_lib/admin-command.js';
import { resolveAdminKey } from '../_lib/admin-key.js';
import { parseBlockArgument } from '../_lib/block-argument.js';
import { blockNotFound } from '../_lib/block-not-found.js';
import { CliError } from '../_lib/cli-error.js';
import { NodeConnection } from '../_lib/node-connection.js';
import { confirm } from '../_lib/terminal-input.js';

export default class AdminRollback extends AdminCommand {
  static override summary = 'Roll the chain back to a block, removing every block after it.';
  static override description =
    'Calls nodeAdmin_rollbackTo(block, force). The chain store, world state and mempool go back together. Below ' +
    'the finalized block the node refuses unless --force (which may clear world state and pool data). A block ' +
    'given as "latest" or as a hash is resolved to its number through --node-url first. Asks for confirmation on ' +
    'a terminal; scripts (and --json) must pass --yes.';
  static override examples = [
    '<%= config.bin %> admin rollback 10',
    '<%= config.bin %> admin rollback 10 --yes --json',
    '<%= config.bin %> admin rollback 3 --force --yes',
    '<%= config.bin %> admin rollback $BLOCK_HASH --yes',
  ];
  static override args = {
    block: Args.string({
      ignoreStdin: true,
      description: 'The block to keep as the new tip: a number, "latest" or a block hash.',
      required: true,
    }),
  };
  static override flags = {
    force: Flags.boolean({
      description: 'Roll back below the finalized block too (clears world state and pool data if needed).',
    }),
    yes: Flags.boolean({ char: 'y', description: 'Do not ask for confirmation.' }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(AdminRollback);
    const block = parseBlockArgument(args.block);
    let target: number;
    if (typeof block === 'number') target = block;
    else {
      const node = new NodeConnection({ url: flags['node-url'], listener: 'public', timeoutMs: flags.timeout });
      const header = await node.call('node_getBlockHeader', block);
      if (header === undefined) throw await blockNotFound(node, block);
      target = header.globalVariables.blockNumber;
    }
    if (!flags.yes) {
      if (this.jsonEnabled() || !process.stdin.isTTY) {
        throw CliError.usage(`rolling back to block ${target} removes every later block: confirm with --yes`);
      }
      if (
        !(await confirm(
          `Roll the chain of ${flags['admin-url']} back to block ${target}${flags.force ? ' (forced)' : ''}?`,
        ))
      ) {
        throw CliError.usage('not confirmed: nothing was rolled back');
      }
    }
    // nodeAdmin_rollbackTo answers nothing (the spec's void); what it did is in the node's `rollback` event,
    // read from the admin event stream opened before the call.
    const { apiKey } = resolveAdminKey(flags['api-key'], flags['admin-url']);
    const outcome = await rollbackEvent(flags['admin-url'], apiKey, target, async () => {
      try {
        await this.adminNode(flags).call('nodeAdmin_rollbackTo', target, flags.force);
      } catch (err) {
        throw forceRefusal(err, this.config.bin, target) ?? err;
      }
    });
    if (!outcome) {
      this.log(`Rolled back to block ${target}.`);
      this.warning('the node sent no rollback event (its event stream did not answer): the figures are unknown');
      return { targetBlockNumber: target, force: flags.force };
    }
    this.log(
      outcome.removedBlocks === 0
        ? `Block ${target} is already the tip: nothing rolled back.`
        : `Rolled back to block ${target}: removed ${plural(outcome.removedBlocks, 'block')} holding ` +
            `${plural(outcome.removedTxs, 'tx')}; ${outcome.returnedTxs} returned to the pool` +
            (outcome.rederived ? '; world state and pool data re-derived from the stored blocks' : '') +
            '.',
    );
    return {
      targetBlockNumber: target,
      force: flags.force,
      removedBlocks: outcome.removedBlocks,
      removedTxs: outcome.removedTxs,
      returnedTxs: outcome.returnedTxs,
      rederived: outcome.rederived,
    };
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Runs `call` with the admin event stream open and returns the node's `rollback` event for `target`, or undefined
 * when the stream does not open within a few seconds or the event does not come.
 */
async function rollbackEvent(
  adminUrl: string,
  apiKey: string | undefined,
  target: number,
  call: () => Promise<void>,
): Promise<RollbackEvent | undefined> {
  const stream = new EventStreamClient({ adminUrl, apiKey, minDelayMs: 100, maxDelayMs: 500 });
  let resolveEvent: (e: RollbackEvent) => void = () => {};
  const event = new Promise<RollbackEvent>((resolve) => {
    resolveEvent = resolve;
  });
  const opened = new Promise<boolean>((resolve) => {
    // Each connection starts with a snapshot: once it came, later events reach this client.
    stream.onEvent((e) => {
      if (e.type === 'snapshot') resolve(true);
      if (e.type === 'rollback' && e.targetBlockNumber === target) resolveEvent(e);
    });
    setTimeout(() => resolve(false), 3000).unref();
  });
  stream.start();
  try {
    const open = await opened;
    await call();
    if (!open) return undefined;
    return await Promise.race([
      event,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000).unref()),
    ]);
  } finally {
    stream.close();
  }
}

/**
 * The node's refusal of a target below its finalized block names the RPC param ("pass force (true)"); a CLI user
 * passes --force, so the refusal is told again in those words, with the node's figures in `data` as before.
 */
function forceRefusal(err: unknown, bin: string, target: number): CliError | undefined {
  if (!(err instanceof CliError) || err.code !== 'INVALID_STATE') return undefined;
  const data = (err.data as { data?: { forceRequired?: boolean; finalizedBlockNumber?: number } } | undefined)?.data;
  if (!data?.forceRequired) return undefined;
  return CliError.failed(
    `block ${target} is before the finalized block ${data.finalizedBlockNumber}: rolling back below it takes --force`,
    err.code,
    [
      `${bin} admin rollback ${target} --force --yes (clears the world state and the pool data and re-derives them ` +
        'from the stored blocks)',
    ],
    err.data,
  );
}
