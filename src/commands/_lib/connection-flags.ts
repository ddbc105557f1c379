import { Flags } from '@oclif/core';
import { DEFAULT_ADMIN_URL, DEFAULT_PUBLIC_URL } from '../../rpc/client/default-urls.js';

/** The flags that say where the node is and how long to wait for it, shared by every RPC command. */

export const nodeUrlFlag = Flags.string({
  description: "URL of the node's public JSON-RPC listener (node_ methods).",
  env: 'NODE_URL',
  default: DEFAULT_PUBLIC_URL,
  helpGroup: 'CONNECTION',
});

export const adminUrlFlag = Flags.string({
  description: "URL of the node's admin JSON-RPC listener (nodeAdmin_ methods).",
  env: 'NODE_ADMIN_URL',
  default: DEFAULT_ADMIN_URL,
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
