import type { Command } from '@oclif/core';
import { type CliManifest, visibleCommands } from './cli-manifest.js';

/**
 * docs/cli.md, the command reference in `oclif readme` style: an index, then per command its summary and its
 * --help text as oclif renders it (so the reference and --help cannot disagree).
 */
export async function renderCliDocs(root: string, manifest: CliManifest): Promise<string> {
  const { CommandHelp, Config } = await import('@oclif/core');
  const config = await Config.load({ root });
  const commands = visibleCommands(manifest);
  const title = (c: Command.Cached) => `${config.bin} ${c.id.replaceAll(':', ' ')}`;
  const anchor = (c: Command.Cached) => title(c).replaceAll(' ', '-');
  const out = [
    '# CLI command reference',
    '',
    'Generated from the commands by `npm run docs` (`scripts/generate-cli-docs.js --docs`); do not edit by hand.',
    '`l2node --help`, `l2node <topic> --help` and `man l2node` show the same text. The settings behind the flags',
    'of `start` and `config` are described in [configuration.md](configuration.md).',
    '',
  ];
  for (const c of commands) out.push(`* [\`${title(c)}\`](#${anchor(c)})`);
  for (const c of commands) {
    // As oclif's Help does before rendering: ids with the configured topic separator (a space).
    const shown = { ...c, id: c.id.replaceAll(':', config.topicSeparator) };
    const help = new CommandHelp(shown as unknown as Command.Loadable, config, {
      maxWidth: 100,
      stripAnsi: true,
      hideCommandSummaryInDescription: true,
    }).generate();
    out.push('', `## \`${title(c)}\``, '', c.summary ?? '', '', '```', help.replace(/[ \t]+$/gm, '').trimEnd(), '```');
  }
  out.push('');
  return out.join('\n');
}
