import { resolveAdminKey } from './admin-key.js';
import { BaseCommand } from './base-command.js';
import { connectionFlags } from './connection-flags.js';
import { NodeConnection } from './node-connection.js';

/** A command of the node's admin listener: its URL, and the API key from the flag, the env or the saved one. */
export abstract class AdminCommand extends BaseCommand {
  static override baseFlags = connectionFlags;

  protected adminNode(flags: { 'admin-url': string; 'api-key'?: string; timeout: number }): NodeConnection {
    const { apiKey } = resolveAdminKey(flags['api-key'], flags['admin-url']);
    return new NodeConnection({ url: flags['admin-url'], listener: 'admin', apiKey, timeoutMs: flags.timeout });
  }
}
