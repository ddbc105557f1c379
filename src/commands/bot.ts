import { Flags } from '@oclif/core';
import { BaseCommand } from './_lib/base-command.js';
import { CliError } from './_lib/cli-error.js';
import { nodeUrlFlag, timeoutFlag } from './_lib/connection-flags.js';
import { NodeConnection } from './_lib/node-connection.js';
import { settingFlags } from './_lib/setting-flags.js';

export default class Bot extends BaseCommand {
  static override summary = 'Run the transaction bot against a node: a valid tx at a set interval, until stopped.';
  static override description =
    "Each turn reads the node's current minimum fees and offers max fees of minFee * (1 + --bot.minFeePadding) " +
    '(spec part 9), builds a rollup-only tx with a fresh nullifier anchored to the latest block, and sends it; a ' +
    'turn is skipped while the mempool holds --bot.maxPendingTxs txs. It prints its rate every --report-every ' +
    'seconds and stops cleanly on Ctrl+C / SIGTERM (or after --count txs), finishing the tx in flight. The fee ' +
    'payer defaults to the first test account, which `l2node start` prefunds. The --json result is the final figures. The same bot runs ' +
    'inside the node with `l2node start --bot`.';
  static override examples = [
    '<%= config.bin %> bot',
    '<%= config.bin %> bot --node-url http://127.0.0.1:8080 --bot.txIntervalSeconds 1 --bot.minFeePadding 1',
    '<%= config.bin %> bot --count 10 --json',
  ];
  static override flags = {
    'node-url': nodeUrlFlag,
    timeout: timeoutFlag,
    ...settingFlags((s) => s.group === 'Bot' && s.key !== 'bot'),
    count: Flags.integer({ description: 'Stop after sending this many txs.', min: 1 }),
    'report-every': Flags.integer({ description: 'Seconds between two rate reports.', default: 10, min: 1 }),
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(Bot);
    const [{ ConfigError, resolveConfig }, { TxBot }, { TEST_ACCOUNTS }] = await Promise.all([
      import('../daemon/config/resolve-config.js'),
      import('../bot/tx-bot.js'),
      import('../core/test-accounts.js'),
    ]);
    // Only the bot's rows of the settings table apply here: other NODE_* variables are the node's business.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('BOT_')));
    let config: Awaited<ReturnType<typeof resolveConfig>>['config'];
    try {
      config = resolveConfig(flags, env).config;
    } catch (err) {
      if (err instanceof ConfigError) throw CliError.usage(err.message);
      throw err;
    }
    const feePayer = config.botFeePayer ?? TEST_ACCOUNTS[0].address;
    const human = !this.jsonEnabled();
    const bot = new TxBot({
      rpc: new NodeConnection({ url: flags['node-url'], listener: 'public', timeoutMs: flags.timeout }),
      feePayer,
      intervalMs: config.botTxIntervalSeconds * 1000,
      minFeePadding: config.botMinFeePadding,
      maxPendingTxs: config.botMaxPendingTxs,
      count: flags.count,
      reportEveryMs: flags['report-every'] * 1000,
      onEvent: (e) => {
        if (!human) return;
        const time = new Date().toISOString().slice(11, 19);
        if (e.kind === 'rejected') this.warning(`tx rejected (${e.code}): ${e.message}`);
        else if (e.kind === 'failed') this.warning(`could not send: ${e.message}`);
        else if (e.kind === 'rate') this.log(`${time}  ${rateLine(e.stats)}`);
      },
    });
    await bot.start();
    this.note(
      `bot: a tx every ${config.botTxIntervalSeconds} s to ${flags['node-url']} from ${feePayer}, max fees = min fees x ${1 + config.botMinFeePadding}; Ctrl+C stops it`,
    );
    const stop = () => {
      void bot.stop();
    };
    // `on`, not `once`: a terminal's Ctrl-C can arrive twice (directly and forwarded by the bin/run.js wrapper),
    // and the repeat must not kill the bot with the tx in flight.
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    const stats = await bot.done;
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    this.log(`stopped: ${rateLine(stats)}`);
    return { ...stats, feePayer: feePayer.toString(), nodeUrl: flags['node-url'] };
  }
}

function rateLine(s: {
  sent: number;
  rejected: number;
  failed: number;
  skipped: number;
  seconds: number;
  txPerSecond: number;
}): string {
  return (
    `${s.sent} txs sent in ${s.seconds.toFixed(1)} s (${s.txPerSecond.toFixed(2)} tx/s), ` +
    `${s.rejected} rejected, ${s.failed} failed, ${s.skipped} turns skipped`
  );
}
