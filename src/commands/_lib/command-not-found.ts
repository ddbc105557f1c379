import { type Command, type Hook, toConfiguredId } from '@oclif/core';
import damerauLevenshtein from 'damerau-levenshtein';
import { toJsonText } from './base-command.js';
import { EXIT_CODES } from './exit-codes.js';

/**
 * A mistyped command ("did you mean"), the root plugin's `command_not_found` hook (package.json oclif.hooks).
 * On a terminal, @oclif/plugin-not-found asks "Did you mean status?" (y/n) and runs the suggestion when
 * confirmed. Without a terminal (scripts, CI, --json) that plugin would only say the command does not exist,
 * without the suggestion: this prints the suggestion itself and never waits for an answer. Either way a command
 * that stays unknown exits 2, the usage code of every l2node command.
 */
const hook: Hook.CommandNotFound = async function (options) {
  const json = options.argv?.includes('--json') ?? false;
  const words = options.id.split(':');
  const suggestion = closestCommand(options.config.commands, words);
  const bin = options.config.bin;
  // oclif folds the arguments of a command that takes none into the id (`query blocks 1 5` is "query:blocks:1:5"):
  // the command exists, what is wrong is the arguments.
  const exact = suggestion?.split(':');
  if (exact && words.length > exact.length && exact.every((w, i) => w === words[i])) {
    const command = toConfiguredId(suggestion as string, options.config);
    const extra = words.slice(exact.length).join(' ');
    const takes = Object.keys(options.config.findCommand(suggestion as string)?.args ?? {}).length;
    return usageFailure(
      json,
      `${bin} ${command}: unexpected argument${words.length - exact.length > 1 ? 's' : ''} "${extra}": ` +
        (takes === 0 ? 'it takes no arguments' : `it takes at most ${takes}`),
      [`see its usage: ${bin} ${command} --help`],
    );
  }
  if (suggestion && process.stdin.isTTY && process.stderr.isTTY && !json) {
    // Imported here: the plugin loads a prompt library the non-interactive path does not need.
    const { default: notFoundPlugin } = await import('@oclif/plugin-not-found');
    // The plugin picks among the config's command ids by plain Levenshtein distance, which makes `stauts`
    // `start`; it is shown only the suggestion made here, so both paths suggest the same command (and the real
    // config, `this.config`, runs it). It ends a declined suggestion with exit 127 (the shell's "command not
    // found"); l2node's exit code table says 2 for a command line it cannot run.
    const config = Object.create(options.config, {
      commandIDs: { value: [suggestion] },
      commands: { value: [] },
    }) as typeof options.config;
    const context = { ...this, error: (message: string | Error) => this.error(message, { exit: EXIT_CODES.usage }) };
    return notFoundPlugin.call(context, { ...options, config });
  }
  // oclif joins the words before the first flag into the id, arguments too (`admin rolback 3`): the
  // words past the suggested command's are its arguments.
  const typed = words.slice(0, suggestion?.split(':').length ?? words.length).join(' ');
  const rest = [...words.slice(typed.split(' ').length), ...(options.argv ?? [])].join(' ');
  const suggested = suggestion && toConfiguredId(suggestion, options.config);
  const message = `"${typed}" is not an ${bin} command.${suggested ? ` Did you mean "${suggested}"?` : ''}`;
  const actions = [
    ...(suggested ? [`run: ${`${bin} ${suggested} ${rest}`.trim()}`] : []),
    `every command: ${bin} --help`,
  ];
  usageFailure(json, `${bin}: ${message}`, actions, { suggestion: suggested ?? null }, message);
};

/** Exit 2 with the message and next steps: one JSON envelope on stdout with --json, else lines on stderr. */
function usageFailure(json: boolean, line: string, actions: string[], data?: unknown, jsonMessage = line): void {
  process.exitCode = EXIT_CODES.usage;
  if (json) {
    const error = { code: 'USAGE', message: jsonMessage, actions, ...(data === undefined ? {} : { data }) };
    process.stdout.write(`${toJsonText({ status: EXIT_CODES.usage, error, warnings: [] })}\n`);
  } else {
    process.stderr.write(`${[line, ...actions.map((a) => `  - ${a}`)].join('\n')}\n`);
  }
}

export default hook;

/**
 * The visible command closest to the words typed, by Damerau-Levenshtein distance (a swap of two letters is one
 * typo: `stauts` is `status`, not `start`), compared over as many words as the command has. Nothing is suggested
 * past a third of the letters typed (and at least two): `x` is no typo of `bot`.
 */
function closestCommand(commands: readonly Command.Loadable[], words: readonly string[]): string | undefined {
  let best: { id: string; steps: number } | undefined;
  for (const command of commands) {
    if (command.hidden) continue;
    for (const id of [command.id, ...command.aliases]) {
      const typed = words.slice(0, id.split(':').length).join(':');
      const { steps } = damerauLevenshtein(typed, id);
      if (!best || steps < best.steps) best = { id, steps };
    }
  }
  if (!best) return undefined;
  const typedLength = words.slice(0, best.id.split(':').length).join(':').length;
  return best.steps <= Math.max(2, Math.floor(typedLength / 3)) ? best.id : undefined;
}
