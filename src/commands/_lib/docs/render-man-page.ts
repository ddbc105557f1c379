import type { Command } from '@oclif/core';
import { EXIT_CODES } from '../exit-codes.js';
import { type CliManifest, manPageName, visibleCommands } from './cli-manifest.js';

/** What every page names besides its command. */
export interface ManContext {
  readonly bin: string;
  readonly version: string;
  /** One line on the program, for the overview page. */
  readonly description: string;
}

/** What the exit codes mean, for the EXIT STATUS section of every page. */
const EXIT_MEANINGS: Record<keyof typeof EXIT_CODES, string> = {
  ok: 'success',
  error: 'the node refused the request, a check failed, or another error',
  usage: 'bad arguments or flags (also params the node refused as invalid)',
  unauthorized: 'the admin listener refused the API key (or none was given)',
  notFound: 'the block, tx, contract or file asked for does not exist',
  unreachable: 'no node answered at the URL',
};

/**
 * man(7) pages generated from the oclif manifest: one per command (`l2node-admin-rollback.1`) and an overview
 * (`l2node.1`). Plain ASCII roff with every special character escaped, so `man --warnings` stays silent.
 */
export function renderManPages(manifest: CliManifest, ctx: ManContext): Map<string, string> {
  const commands = visibleCommands(manifest);
  const pages = new Map<string, string>();
  pages.set(`${ctx.bin}.1`, renderOverviewPage(commands, ctx));
  for (const c of commands) pages.set(`${manPageName(ctx.bin, c.id)}.1`, renderCommandPage(c, ctx));
  return pages;
}

export function renderCommandPage(c: Command.Cached, ctx: ManContext): string {
  const name = manPageName(ctx.bin, c.id);
  const words = `${ctx.bin} ${c.id.replaceAll(':', ' ')}`;
  const args = Object.values(c.args ?? {}).filter((a) => !a.hidden);
  const flags = Object.values(c.flags ?? {})
    .filter((f) => !f.hidden)
    .sort((a, b) => a.name.localeCompare(b.name));
  const out: string[] = [header(name, ctx), '.SH NAME', `${name} \\- ${text(summaryOf(c))}`, '.SH SYNOPSIS'];
  const synopsis = [`.B ${text(words)}`];
  for (const a of args)
    synopsis.push(a.required ? `.I ${text(a.name.toUpperCase())}` : `.RI [ ${text(a.name.toUpperCase())} ]`);
  if (c.strict === false && args.length > 0) synopsis.push('.RI [ ... ]');
  if (flags.length > 0) synopsis.push('.RI [ OPTIONS ]');
  out.push(...synopsis);
  out.push('.SH DESCRIPTION', paragraph(summaryOf(c)));
  if (c.description && c.description !== c.summary) out.push('.PP', paragraph(c.description));
  if (args.length > 0) {
    out.push('.SH ARGUMENTS');
    for (const a of args) {
      const extra = [
        a.required ? 'required' : undefined,
        a.default !== undefined ? `default: ${String(a.default)}` : undefined,
      ]
        .filter(Boolean)
        .join('; ');
      out.push(
        '.TP',
        `.I ${text(a.name.toUpperCase())}`,
        paragraph(`${a.description ?? ''}${extra ? ` (${extra})` : ''}`),
      );
    }
  }
  if (flags.length > 0) {
    out.push('.SH OPTIONS');
    for (const f of flags) out.push('.TP', flagTitle(f), paragraph(flagText(f)));
  }
  out.push(...exitStatus());
  const examples = examplesOf(c, ctx);
  if (examples.length > 0) {
    out.push('.SH EXAMPLES');
    for (const e of examples) out.push('.PP', '.RS 4', '.nf', text(e), '.fi', '.RE');
  }
  out.push('.SH SEE ALSO', `.BR ${ctx.bin} (1)`);
  return `${out.join('\n')}\n`;
}

export function renderOverviewPage(commands: readonly Command.Cached[], ctx: ManContext): string {
  const out = [
    header(ctx.bin, ctx),
    '.SH NAME',
    `${ctx.bin} \\- ${text(ctx.description)}`,
    '.SH SYNOPSIS',
    `.B ${ctx.bin}`,
    '.I COMMAND',
    '.RI [ ARGUMENTS ]',
    '.RI [ OPTIONS ]',
    '.SH DESCRIPTION',
    paragraph(
      '`start` runs the node; every other command is a JSON-RPC client of a running node (public listener, ' +
        'default http://127.0.0.1:8080; admin listener, default http://127.0.0.1:8880), except `config` and the ' +
        'offline `db` commands, which read settings and the database directly. Every command prints human output by ' +
        'default and, with --json, one JSON object {status, result, warnings} (or {status, error, warnings}) whose ' +
        'status is the exit code. Each command has its own page, e.g. l2node-admin-rollback(1), and --help.',
    ),
    '.SH COMMANDS',
  ];
  for (const c of commands)
    out.push('.TP', `.B ${text(`${ctx.bin} ${c.id.replaceAll(':', ' ')}`)}`, paragraph(summaryOf(c)));
  out.push(
    '.SH ENVIRONMENT',
    '.TP',
    '.B NODE_URL',
    paragraph('The public listener of the node (--node-url).'),
    '.TP',
    '.B NODE_ADMIN_URL',
    paragraph('The admin listener of the node (--admin-url).'),
    '.TP',
    '.B NODE_ADMIN_API_KEY',
    paragraph('The admin API key (--api-key); without it, the key saved for the admin URL is used.'),
    '.TP',
    '.B XDG_CONFIG_HOME',
    paragraph('Where the credentials file lives (default ~/.config).'),
    '.PP',
    paragraph('`l2node start --help` lists the node settings, each with its environment variable.'),
    '.SH FILES',
    '.TP',
    '.I $XDG_CONFIG_HOME/l2node/credentials.json',
    paragraph(
      'Admin API keys per admin URL (mode 0600), written by `start` when it generates a key and by `admin login`, ' +
        'removed by `admin logout`. The node itself keeps only the SHA-256 of its key, in <data-directory>/admin/api_key_hash.',
    ),
    ...exitStatus(),
    '.SH SEE ALSO',
    commands.map((c) => `.BR ${manPageName(ctx.bin, c.id)} (1)`).join(',\n'),
  );
  return `${out.join('\n')}\n`;
}

function header(name: string, ctx: ManContext): string {
  return [
    `.\\" Generated from the oclif manifest by scripts/generate-cli-docs.js; do not edit.`,
    `.TH "${name.toUpperCase()}" "1" "" "${ctx.bin} ${ctx.version}" "${ctx.bin} manual"`,
    // Left-adjusted: justified text spreads around the long hashes these pages hold.
    '.ad l',
  ].join('\n');
}

function exitStatus(): string[] {
  const out = ['.SH EXIT STATUS'];
  for (const [key, code] of Object.entries(EXIT_CODES) as [keyof typeof EXIT_CODES, number][]) {
    out.push('.TP', `.B ${code}`, text(EXIT_MEANINGS[key]));
  }
  return out;
}

function summaryOf(c: Command.Cached): string {
  return c.summary ?? c.description?.split('\n')[0] ?? '';
}

function examplesOf(c: Command.Cached, ctx: ManContext): string[] {
  const raw = c.examples ?? [];
  return (Array.isArray(raw) ? raw : [raw]).map((e) => {
    const s = typeof e === 'string' ? e : e.command;
    return `$ ${s.replaceAll('<%= config.bin %>', ctx.bin)}`;
  });
}

function flagTitle(f: Command.Flag.Cached): string {
  const names = [`\\fB${text(`--${f.name}`)}\\fR`];
  if (f.char) names.push(`\\fB${text(`-${f.char}`)}\\fR`);
  if (f.type === 'boolean' && f.allowNo) names.push(`\\fB${text(`--no-${f.name}`)}\\fR`);
  const value = f.type === 'option' ? ` \\fI${text(f.options ? f.options.join('|') : 'value')}\\fR` : '';
  return `${names.join(', ')}${value}`;
}

function flagText(f: Command.Flag.Cached): string {
  const notes: string[] = [];
  if (f.env) notes.push(`env: ${f.env}`);
  if (f.type === 'option' && f.default !== undefined) notes.push(`default: ${String(f.default)}`);
  if (f.type === 'boolean' && f.allowNo && f.default !== undefined) notes.push(`default: ${f.default ? 'on' : 'off'}`);
  if (f.type === 'option' && f.multiple) notes.push('repeatable');
  if (f.required) notes.push('required');
  if (f.aliases?.length) notes.push(`also --${f.aliases.join(', --')}`);
  const description = (f.description ?? '').replace(/\s*\[env: [A-Z0-9_]+\]/, '');
  return `${description}${notes.length ? ` [${notes.join('; ')}]` : ''}`;
}

/** A paragraph of filled text: `code` spans in bold. */
function paragraph(s: string): string {
  const parts = s.split('`');
  return parts.map((p, i) => (i % 2 === 1 ? `\\fB${text(p)}\\fR` : text(p))).join('');
}

/** Marks where roff may break a long word (turned into `\:` once the text is escaped). */
const BREAK = '\uE000';

/**
 * Text safe for roff: backslashes and dashes escaped, a leading dot or quote neutralised, anything outside
 * ASCII as a groff Unicode escape, and break points every 32 characters of a word longer than 40 (hashes),
 * which would otherwise overflow an 80-column page.
 */
export function text(s: string): string {
  let t = s
    .replace(/\S{41,}/g, (word) => word.replace(/(.{32})(?=.)/g, `$1${BREAK}`))
    .replaceAll('\\', '\\e')
    .replaceAll('-', '\\-')
    .replace(
      /[^\uE000\x20-\x7e\n]/g,
      (ch) => `\\[u${(ch.codePointAt(0) ?? 0x3f).toString(16).toUpperCase().padStart(4, '0')}]`,
    );
  t = t.replace(/^([.'])/gm, '\\&$1').replaceAll(BREAK, '\\:');
  return t.replace(/\n+/g, ' ');
}
