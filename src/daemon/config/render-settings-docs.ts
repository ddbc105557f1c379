import type { Setting } from './setting.js';
import { SETTINGS } from './settings.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * docs/configuration.md, rendered from the settings table so that the reference can never disagree
 * with what the node parses (test/unit/daemon/config/settings-docs.test.ts fails when the file is stale).
 */
export function renderSettingsDocs(): string {
  const rows = Object.values(SETTINGS) as Setting<unknown>[];
  const groups = [...new Set(rows.map((s) => s.group))];
  const out: string[] = [
    '# Configuration',
    '',
    '<!-- Generated from src/daemon/config/settings.ts by scripts/generate-config-docs.js. Do not edit by hand. -->',
    '',
    'Every setting has a flag of `l2node start` and an environment variable twin. A flag beats its variable,',
    'the variable beats the default. `l2node config` (same flags) prints the effective values and where each',
    'one came from, secrets redacted. Settings marked *runtime* can also be changed on a running node with',
    '`nodeAdmin_setConfig` (or `l2node admin config set key=value`), under the key in the first column.',
    '',
    'A bad value stops start-up with one line naming the flag or variable; nothing starts half-way.',
    '',
  ];
  for (const group of groups) {
    out.push(`## ${group}`, '', '| key | flag | env | default | runtime | description |', '|---|---|---|---|---|---|');
    for (const s of rows.filter((r) => r.group === group)) {
      const def =
        s.defaultValue === undefined ? '(unset)' : s.format ? s.format(s.defaultValue) : String(s.defaultValue);
      const shown = s.secret ? '(secret)' : def;
      out.push(
        `| \`${s.key}\` | \`--${s.flag}\` | \`${s.env}\` | ${cell(shown)} | ${s.runtime ? 'yes' : ''} | ${cell(s.description)} |`,
      );
    }
    out.push('');
  }
  return `${out.join('\n')}`;
}
