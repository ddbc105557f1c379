import { Flags } from '@oclif/core';
import type { TxBot } from '../bot/tx-bot.js';
import { ConfigError, type ResolvedConfig, resolveConfig } from '../daemon/config/resolve-config.js';
import type { NodeConfig } from '../daemon/config/settings.js';
import { l1SettingsConflict } from '../daemon/l1/l1-settings.js';
import { StartupInterrupted } from '../daemon/lifecycle/service-runner.js';
import { installShutdownHandlers } from '../daemon/lifecycle/signals.js';
import { NodeLogger } from '../daemon/logging/logger.js';
import { L2Node } from '../daemon/node.js';
import { PACKAGE_VERSION } from '../daemon/package-version.js';
import { storageStartFailure } from '../daemon/store/storage-health.js';
import { Command } from './_lib/command.js';
import { CredentialsStore } from './_lib/credentials-store.js';
import { settingFlags } from './_lib/setting-flags.js';
import { type KeySaveOutcome, renderStartBanner, type StartBannerFacts, startEnvelope } from './_lib/start-banner.js';
import { unknownFlagMessage } from './_lib/unknown-flag.js';

export default class Start extends Command {
  static override summary = 'Start the node (a local dev chain by default).';
  static override description =
    'Runs the daemon: public JSON-RPC (node_ methods) and admin JSON-RPC (nodeAdmin_ methods) over one SQLite database. ' +
    'Every flag has an environment variable twin; flags win over env, env over defaults. Prints a banner with the ' +
    'listeners, the prefunded accounts and, when this start generates one, the admin API key, which it also saves ' +
    "for the CLI (the node keeps only the key's hash). With --json, the banner is one JSON line instead " +
    '({status, result: {publicUrl, adminUrl, adminApiKey, ...}, warnings}), the only line on stdout (the log goes to stderr), for scripts that start a node on port 0. ' +
    'With --bot, a transaction bot sends txs to it. Stop it with Ctrl+C or SIGTERM.';
  static override enableJsonFlag = true;
  static override examples = [
    '<%= config.bin %> start',
    '<%= config.bin %> start --port 0 --admin-port 0 --json --log-format json',
    '<%= config.bin %> start --data-directory ./data --port 8080 --admin-port 8880',
    '<%= config.bin %> start --bot --bot.txIntervalSeconds 1 --bot.minFeePadding 2',
    'NODE_LOG_LEVEL="info; debug: rpc" <%= config.bin %> start --log-format json --no-save-api-key',
  ];
  static override flags = {
    ...settingFlags(),
    // A CLI concern, not a node setting: the node itself never writes outside its data directory.
    'save-api-key': Flags.boolean({
      description:
        'Save a newly generated admin API key in the CLI credentials file ($XDG_CONFIG_HOME/l2node/credentials.json, ' +
        'default ~/.config/l2node/, mode 0600) for the admin URL, so admin commands need no --api-key.',
      default: true,
      allowNo: true,
      helpGroup: 'Admin API',
    }),
  };

  /** A command line start cannot run: one line naming what is wrong (one JSON envelope with --json), exit 2. */
  private usageError(message: string): never {
    if (this.jsonEnabled() || process.argv.includes('--json')) {
      const error = { code: 'USAGE', message, actions: ['see the settings: l2node start --help'] };
      process.stdout.write(`${JSON.stringify({ status: 2, error, warnings: [] })}\n`);
    } else process.stderr.write(`l2node start: ${message}\n`);
    return this.exit(2);
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Start).catch((err: unknown) => {
      const unknownFlag = unknownFlagMessage(err, Object.keys(Start.flags));
      if (!unknownFlag) throw err;
      return this.usageError(unknownFlag);
    });
    let config: NodeConfig;
    let sources: ResolvedConfig['sources'];
    try {
      ({ config, sources } = resolveConfig(flags, process.env));
      if (config.bot && !config.botFeePayer && config.prefundedAccounts?.length === 0) {
        throw new ConfigError('--bot needs a fee payer with FeeJuice: give --bot.feePayer, or keep prefunded accounts');
      }
      const l1Conflict = l1SettingsConflict(config);
      if (l1Conflict) throw new ConfigError(l1Conflict);
    } catch (err) {
      if (err instanceof ConfigError) this.usageError(err.message);
      throw err;
    }
    // With --json, stdout carries only the banner (one JSON line: `start --json | head -1 | jq` works) and the
    // log goes to stderr.
    let logger: NodeLogger;
    try {
      logger = new NodeLogger({
        spec: config.logLevel,
        format: config.logFormat,
        destination: this.jsonEnabled() ? 'stderr' : 'stdout',
        ...(config.logFile
          ? { file: { path: config.logFile, maxBytes: config.logFileMaxSize, maxFiles: config.logFileMaxFiles } }
          : {}),
      });
    } catch (err) {
      // Only the log file can fail here (a missing directory, no permission).
      return this.usageError(`cannot open the log file ${config.logFile}: ${(err as Error).message}`);
    }
    // The services' own banners are folded into the one printed below.
    const log = logger.module('node');
    let node: L2Node | undefined;
    let bot: TxBot | undefined;
    // A signal during start-up (an L1 deployment takes seconds) stops what has started, then exits.
    const startup = new AbortController();
    let opening: Promise<unknown> = Promise.resolve();
    let starting: Promise<unknown> = Promise.resolve();
    installShutdownHandlers({
      stop: async () => {
        startup.abort();
        await opening.catch(() => {});
        await bot?.stop();
        // Also mid-start: the runner stops what runs, and a service still starting is stopped when it is up.
        await node?.stop();
        await starting.catch(() => {});
      },
      log,
    });
    try {
      const init = L2Node.init(config, logger, { print: () => {}, sources, signal: startup.signal });
      opening = init;
      node = await init;
      starting = node.start();
      await starting;
    } catch (err) {
      // Interrupted by a signal: the shutdown handler finishes the stop and exits.
      if (err instanceof StartupInterrupted || startup.signal.aborted) return;
      // A restart on a full disk says so as the running node does, naming the directory.
      const message = storageStartFailure(err, config.dataDirectory) ?? (err as Error).message;
      log.fatal({ err: message }, `node failed to start: ${message}`);
      process.exitCode = 1;
      process.exit(1);
    }
    const keySave = saveGeneratedKey(node, flags['save-api-key'] as boolean);
    if (keySave?.saved) node.log.info({ file: keySave.file }, `admin API key saved for the CLI in ${keySave.file}`);
    const feePayer = config.botFeePayer ?? node.chain.prefundedAccounts[0]?.address;
    const facts: StartBannerFacts = {
      version: PACKAGE_VERSION,
      l1ChainId: config.l1ChainId,
      rollupVersion: config.rollupVersion,
      publicUrl: node.rpc.publicUrl,
      adminUrl: node.rpc.adminUrl,
      dataDirectory: config.dataDirectory,
      sequencer: `${config.sequencerMode}, ${config.slotDuration} s slots, ${config.blocksPerSlot} blocks per slot`,
      prefunded: node.chain.prefundedAccounts,
      sponsoredFpc: node.chain.sponsoredFpc,
      bananaFpc: node.chain.bananaFpc,
      adminKey: node.rpc.adminKey,
      keySave,
      bot: config.bot && feePayer ? `a tx every ${config.botTxIntervalSeconds} s from ${feePayer}` : undefined,
      l1: node.l1?.status(),
    };
    process.stdout.write(this.jsonEnabled() ? `${JSON.stringify(startEnvelope(facts))}\n` : renderStartBanner(facts));
    if (config.bot && feePayer) {
      const { startNodeBot } = await import('./_lib/node-bot.js');
      try {
        bot = await startNodeBot({
          publicUrl: node.rpc.publicUrl,
          feePayer,
          intervalSeconds: config.botTxIntervalSeconds,
          minFeePadding: config.botMinFeePadding,
          maxPendingTxs: config.botMaxPendingTxs,
          log: logger.module('bot'),
        });
      } catch (err) {
        node.log.error({ err: (err as Error).message }, `the tx bot could not start: ${(err as Error).message}`);
      }
    }
  }
}

/** Saves a key this start generated for the CLI (unless --no-save-api-key); never stops the node on failure. */
function saveGeneratedKey(node: L2Node, save: boolean): KeySaveOutcome | undefined {
  const key = node.rpc.adminKey;
  if (!key.enabled || !key.newKey) return undefined;
  if (!save) return { saved: false, reason: '--no-save-api-key', byFlag: true };
  const store = new CredentialsStore();
  try {
    store.save(node.rpc.adminUrl, key.newKey, 'start');
    return { saved: true, file: store.file };
  } catch (err) {
    const reason = (err as Error).message;
    node.log.warn({ file: store.file }, `could not save the admin API key for the CLI: ${reason}`);
    return { saved: false, reason, byFlag: false };
  }
}
