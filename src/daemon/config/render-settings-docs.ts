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
    'Every setting has a flag of `l2node start` and an environment variable twin, and can be given in a config',
    'file. A flag beats its variable, the variable beats the file, the file beats the default. `l2node config`',
    '(same flags) prints the effective values and where each one came from (`flag`, `env`, `file`, `default`),',
    'secrets redacted. Settings marked *runtime* can also be changed on a running node with `nodeAdmin_setConfig`',
    '(or `l2node admin config set key=value`), under the key in the first column.',
    '',
    'A bad value stops start-up with one line naming the flag, variable or file key; nothing starts half-way.',
    '',
    '## Config file',
    '',
    '`--config FILE` (or `NODE_CONFIG_FILE`) reads settings from a TOML file (`.toml`) or a JSON file (any other',
    'name), keyed by the first column below. A value is the text the flag takes, or a number, a boolean or a list',
    '(read as comma-separated text). A key that is not in the table is refused, naming the closest one.',
    '',
    '```toml',
    '# l2node.toml',
    'dataDirectory = "/var/lib/l2node"',
    'port = 8080',
    'sequencerMode = "interval"',
    'l1RpcUrls = ["http://127.0.0.1:8545"]',
    '```',
    '',
    '`l2node config --dump` prints a complete file of the settings in force (every key, its description, defaults',
    'marked; secrets left out: give them in the environment), so `l2node config --data-directory ./data --dump >',
    'l2node.toml` then `l2node start --config l2node.toml` starts the same node. `--dump-format json` writes JSON.',
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
