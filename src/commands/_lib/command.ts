import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import { type Config, Errors, Flags, getLogger, type Interfaces, Parser, ux } from '@oclif/core';

/**
 * The base class of l2node's commands: oclif's Command (its instance API, statics and `_run` order), on oclif's
 * parser alone. oclif's Command module imports its Config, help and ux (all of oclif, about 50 ms of every CLI
 * call, bench/startup); in the bundles, `@oclif/core` is oclif's lean part (scripts/oclif-lean.mjs), and what only
 * a failure or a rare feature needs is oclif's own code, loaded then (`await import('@oclif/core')`, the full
 * oclif): `catch`, `static run` (oclif's Config.load), deprecation warnings. What is written again here is the
 * small glue of oclif's Command (`_run`, `parse`, `jsonEnabled`, `log`) over oclif's functions; oclif runs a class
 * of this base as its own (its Config.runCommand calls the static `run`, its manifest and help read the statics).
 */
export abstract class Command {
  // oclif's statics, with its defaults: its manifest, help and Config.runCommand read them.
  static aliases: string[] = [];
  static args: Interfaces.ArgInput = {};
  static baseFlags: Interfaces.FlagInput;
  static constraints: Command.Constraint[];
  static deprecateAliases?: boolean;
  static deprecationOptions?: Interfaces.Deprecation;
  static description: string | undefined;
  static enableJsonFlag = false;
  static examples: Array<string | { command: string; description: string }>;
  static flags: Interfaces.FlagInput;
  static hasDynamicHelp = false;
  static help: string | undefined;
  static hidden: boolean;
  static hiddenAliases: string[] = [];
  static id: string;
  static plugin: Interfaces.Plugin | undefined;
  static readonly pluginAlias?: string;
  static readonly pluginName?: string;
  static readonly pluginType?: string;
  static state?: 'beta' | 'deprecated' | string;
  static strict = true;
  static summary?: string;
  static usage: string | string[] | undefined;

  /** oclif's `<name>@<version>` of itself, which its Command logs under DEBUG: read only then. */
  static get _base(): string {
    const pjson = createRequire(import.meta.url)('@oclif/core/package.json') as { name: string; version: string };
    return `${pjson.name}@${pjson.version}`;
  }

  /**
   * Runs the command as oclif's Command.run does (its Config.load of `opts`, then `_run`): that is oclif's own
   * function, called for this class. oclif's Config.runCommand comes here with its loaded Config; bin/run.js runs
   * an own command with `new Command(argv, config)._run()` instead.
   */
  static async run<T extends Command>(
    this: new (
      argv: string[],
      config: Config,
    ) => T,
    argv?: string[],
    opts?: Interfaces.LoadOptions,
  ): Promise<unknown> {
    const oclif = await import('@oclif/core');
    return oclif.Command.run.call(this as never, argv, opts);
  }

  id: string | undefined;
  parsed = false;
  debug: (...args: unknown[]) => void;

  constructor(
    public argv: string[],
    public config: Config,
  ) {
    this.id = this.ctor.id;
    const namespace = this.id ? `${this.config.bin}:${this.id}` : this.config.bin;
    this.debug = (formatter: unknown, ...args: unknown[]) => getLogger(namespace).debug(formatter, ...args);
  }

  get ctor(): typeof Command {
    return this.constructor as typeof Command;
  }

  /** The command's work; oclif's `_run` calls it between `init` and `finally`. */
  abstract run(): Promise<unknown>;

  /** oclif's Command `_run`: init, run, catch, finally; a result printed as JSON under --json. */
  async _run<T>(): Promise<T | undefined> {
    let err: Error | undefined;
    let result: T | undefined;
    try {
      // Removes a redirected run's variable so a nested run starts afresh, as oclif does.
      for (const key of this.config.scopedEnvVarKeys('REDIRECTED')) delete process.env[key];
      await this.init();
      result = (await this.run()) as T;
    } catch (error) {
      err = error as Error;
      await this.catch(err as Interfaces.CommandError);
    } finally {
      await this.finally(err);
    }
    if (result && this.jsonEnabled()) this.logJson(this.toSuccessJson(result));
    // oclif's check that a command parsed its argv, outside production only (its isProd: NODE_ENV).
    if (!this.parsed && ['development', 'test'].includes(process.env.NODE_ENV ?? '')) {
      process.emitWarning(`Command ${this.id} did not parse its arguments. Did you forget to call 'this.parse'?`, {
        code: 'UnparsedCommand',
      });
    }
    return result;
  }

  async init(): Promise<void> {
    // oclif's debug line, which only DEBUG shows: without it, the debug package is not even loaded.
    if (process.env.DEBUG) this.debug('init version: %s argv: %o', this.ctor._base, this.argv);
    const g = globalThis as { 'http-call'?: { userAgent?: string } };
    g['http-call'] = g['http-call'] ?? {};
    g['http-call'].userAgent = this.config.userAgent;
    if (this.ctor.state === 'deprecated' || this.ctor.deprecateAliases) {
      const oclif = await import('@oclif/core');
      (oclif.Command.prototype as unknown as { warnIfCommandDeprecated(): void }).warnIfCommandDeprecated.call(this);
    }
  }

  /** oclif's Command `catch` (exit code, the JSON error or a stopped spinner, then rethrown): a failure's path. */
  async catch(err: Interfaces.CommandError): Promise<unknown> {
    const oclif = await import('@oclif/core');
    const prototype = oclif.Command.prototype as unknown as { catch(e: Interfaces.CommandError): Promise<unknown> };
    return prototype.catch.call(this, err);
  }

  async finally(_: Error | undefined): Promise<unknown> {
    return undefined;
  }

  error(input: string | Error, options: { code?: string; exit: false } & Interfaces.PrettyPrintableError): void;
  error(input: string | Error, options?: { code?: string; exit?: number } & Interfaces.PrettyPrintableError): never;
  error(
    input: string | Error,
    options: { code?: string; exit?: false | number } & Interfaces.PrettyPrintableError = {},
  ) {
    return Errors.error(input, options as never);
  }

  exit(code = 0): never {
    return Errors.exit(code);
  }

  warn(input: string | Error): string | Error {
    if (!this.jsonEnabled()) Errors.warn(input);
    return input;
  }

  /** oclif's: --json (before any `--`) on a command that enables it, or L2NODE_CONTENT_TYPE=json. */
  jsonEnabled(): boolean {
    if (!this.ctor?.enableJsonFlag) return false;
    if (this.config.scopedEnvVar?.('CONTENT_TYPE')?.toLowerCase() === 'json') return true;
    const passThroughIndex = this.argv.indexOf('--');
    const jsonIndex = this.argv.indexOf('--json');
    return passThroughIndex === -1 ? jsonIndex !== -1 : jsonIndex !== -1 && jsonIndex < passThroughIndex;
  }

  log(message = '', ...args: unknown[]): void {
    if (this.jsonEnabled()) return;
    ux.stdout(typeof message === 'string' ? message : inspect(message), ...(args as string[]));
  }

  logToStderr(message = '', ...args: unknown[]): void {
    if (this.jsonEnabled()) return;
    ux.stderr(typeof message === 'string' ? message : inspect(message), ...(args as string[]));
  }

  logJson(json: unknown): void {
    ux.stdout(ux.colorizeJson(json, { pretty: true, theme: this.config.theme?.json }));
  }

  toErrorJson(err: unknown): unknown {
    return err instanceof Error ? { error: { ...err, message: err.message, name: err.name } } : { error: err };
  }

  toSuccessJson(result: unknown): unknown {
    return result;
  }

  /** oclif's Command `parse`: the preparse hook, then oclif's parser over the flags, base flags and --json. */
  protected async parse<F extends Command.Output, B extends Command.Output, A extends Command.Output>(
    options?: Interfaces.Input<F, B, A>,
    argv: string[] = this.argv,
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    const input = options ?? (this.ctor as unknown as Interfaces.Input<F, B, A>);
    const opts = {
      context: this,
      ...input,
      flags: aggregateFlags(input.flags, input.baseFlags, input.enableJsonFlag),
    } as Interfaces.Input<F, B, A>;
    const hookResult = await this.config.runHook('preparse', { argv: [...argv], options: opts });
    // A hook of the root plugin may rewrite argv (oclif takes the root plugin's result; l2node has no such hook).
    const rewritten = hookResult.successes?.find((s) => s.plugin.root === this.config.root)?.result;
    const argvToParse = hookResult.successes?.length ? (rewritten ?? argv) : argv;
    this.argv = [...argvToParse];
    const results = await Parser.parse<F, B, A>(argvToParse, opts);
    await this.warnIfFlagDeprecated(results.flags ?? {});
    this.parsed = true;
    return results;
  }

  /** oclif's warnings for a deprecated flag or flag alias given: oclif's own, loaded only when there is one. */
  private async warnIfFlagDeprecated(flags: Record<string, unknown>): Promise<void> {
    const all = aggregateFlags(this.ctor.flags, this.ctor.baseFlags, this.ctor.enableJsonFlag);
    if (!Object.keys(flags).some((name) => all[name]?.deprecated || all[name]?.deprecateAliases)) return;
    const oclif = await import('@oclif/core');
    const prototype = oclif.Command.prototype as unknown as { warnIfFlagDeprecated(f: object): void };
    prototype.warnIfFlagDeprecated.call(this, flags);
  }
}

export declare namespace Command {
  /** oclif's FlagOutput and ArgOutput (not exported by its index). */
  type Output = Record<string, unknown>;
  /** oclif's flag constraint (not exported by its index), as its Command declares the static. */
  type Constraint = NonNullable<typeof import('@oclif/core').Command['constraints']>[number];
}

/** oclif's --json flag, as its aggregateFlags defines it (not exported by oclif). */
const jsonFlag = Flags.boolean({ description: 'Format output as json.', helpGroup: 'GLOBAL' });

/** oclif's aggregateFlags (not exported by oclif): the base flags, the command's, and --json first if enabled. */
function aggregateFlags<F extends Interfaces.FlagInput>(
  flags: F | undefined,
  baseFlags: Interfaces.FlagInput | undefined,
  enableJsonFlag: boolean | undefined,
): Interfaces.FlagInput {
  const combined = { ...baseFlags, ...flags };
  return enableJsonFlag ? { json: jsonFlag, ...combined } : combined;
}

// oclif's Command module swallows EPIPE on stdout when it is loaded (`l2node ... | head`); so does this one, once
// per process (every command's bundle holds this module, and the docs generator loads them all).
const EPIPE_HANDLER = Symbol.for('l2node.cli.epipe');
const processState = process as unknown as Record<symbol, boolean>;
if (!processState[EPIPE_HANDLER]) {
  processState[EPIPE_HANDLER] = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err && err.code === 'EPIPE') return;
    throw err;
  });
}
