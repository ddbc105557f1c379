import { BaseCommand } from './base-command.js';
import { connectionFlags } from './connection-flags.js';
import { NodeConnection } from './node-connection.js';

/** A command that reads from the node's public listener (`query`, `tx`...). */
export abstract class NodeCommand extends BaseCommand {
  static override baseFlags = connectionFlags;

  protected publicNode(flags: { 'node-url': string; timeout: number }): NodeConnection {
    return new NodeConnection({ url: flags['node-url'], listener: 'public', timeoutMs: flags.timeout });
  }
}
