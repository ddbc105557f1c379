import type { Command } from '@oclif/core';
import { type CliManifest, visibleCommands } from './cli-manifest.js';

/** Where the generated reference sits in README.md (the markers `oclif readme` uses). */
export const README_START = '<!-- commands -->';
export const README_END = '<!-- commandsstop -->';

/**
 * The command reference in `oclif readme` style: an index, then per command its summary and its --help text as
 * oclif renders it (so README and --help cannot disagree).
 */
export async function renderCommandReference(root: string, manifest: CliManifest): Promise<string> {
  const { CommandHelp, Config } = await import('@oclif/core');
  const config = await Config.load({ root });
  const commands = visibleCommands(manifest);
  const title = (c: Command.Cached) => `${config.bin} ${c.id.replaceAll(':', ' ')}`;
  const anchor = (c: Command.Cached) => title(c).replaceAll(' ', '-');
  const out = [README_START, ''];
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
  out.push('', README_END);
  return out.join('\n');
}

/** README text with its reference section replaced; throws when the markers are missing. */
export function replaceReferenceSection(readme: string, reference: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${README_START} ... ${README_END} section`);
  return readme.slice(0, start) + reference + readme.slice(end + README_END.length);
}

/** The reference section of a README (between the markers, inclusive), or undefined. */
export function referenceSectionOf(readme: string): string | undefined {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  return start < 0 || end < start ? undefined : readme.slice(start, end + README_END.length);
}
