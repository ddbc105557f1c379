import { Flags } from '@oclif/core';
import { DEFAULT_ADMIN_URL, DEFAULT_PUBLIC_URL } from '../../rpc/client/default-urls.js';
import { CliError } from './cli-error.js';

/** The flags that say where the node is and how long to wait for it, shared by every RPC command. */

/**
 * A listener URL as people type it: without a scheme (`localhost:8080`, `10.0.0.5:8880`) it is http, as curl
 * reads it; a scheme other than http or https is refused, naming the flag, instead of failing later as an
 * unreachable node.
 */
export function parseListenerUrl(raw: string): string {
  const text = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw CliError.usage(`"${raw}" is not a URL: expected e.g. http://127.0.0.1:8080 or 127.0.0.1:8080`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw CliError.usage(`"${raw}" is not an http:// or https:// URL`);
  }
  return withScheme;
}

export const nodeUrlFlag = Flags.string({
  description: "URL of the node's public JSON-RPC listener (node_ methods).",
  env: 'NODE_URL',
  default: DEFAULT_PUBLIC_URL,
  parse: async (input) => parseListenerUrl(input),
  helpGroup: 'CONNECTION',
});

export const adminUrlFlag = Flags.string({
  description: "URL of the node's admin JSON-RPC listener (nodeAdmin_ methods).",
  env: 'NODE_ADMIN_URL',
  default: DEFAULT_ADMIN_URL,
  parse: async (input) => parseListenerUrl(input),
  helpGroup: 'CONNECTION',
});

export const apiKeyFlag = Flags.string({
  description:
    'Admin API key. Without it (and without the env variable) the key saved for --admin-url by `start` or ' +
    '`admin login` is used.',
  env: 'NODE_ADMIN_API_KEY',
  helpGroup: 'CONNECTION',
});

export const timeoutFlag = Flags.integer({
  description: 'Milliseconds to wait for each answer of the node.',
  default: 30_000,
  min: 1,
  helpGroup: 'CONNECTION',
});

export const fullFlag = Flags.boolean({
  description: 'Show hashes and addresses whole instead of shortened.',
});

export const blockFlag = Flags.string({
  description: 'Block to read at: a number, "latest" or a block hash.',
  default: 'latest',
});

/**
 * The connection flags every client command takes, whichever listener it talks to: a script that names its node
 * with --node-url and --admin-url (or NODE_URL and NODE_ADMIN_URL) passes the same flags to every command. A
 * command reads the URL of the listener it calls; `status` reads both.
 */
export const connectionFlags = {
  'node-url': nodeUrlFlag,
  'admin-url': adminUrlFlag,
  'api-key': apiKeyFlag,
  timeout: timeoutFlag,
};
