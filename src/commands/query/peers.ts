import { AdminCommand } from '../_lib/admin-command.js';
import { table } from '../_lib/human-format.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryPeers extends AdminCommand {
  static override summary = "Show the node's P2P peers: id, direction, scores and the chain each reported.";
  static override description =
    'Calls nodeAdmin_getPeers on the admin listener. `score` is the application score (penalties for bad ' +
    'messages, decaying to 0; disconnected at -50, banned at -100), `gossip` the gossipsub score. A node ' +
    'with P2P off has no peers. The --json result is the Peer array.';
  static override examples = ['<%= config.bin %> query peers', '<%= config.bin %> query peers --json'];

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(QueryPeers);
    const peers = await this.adminNode(flags).call('nodeAdmin_getPeers');
    const wire = wireOf('nodeAdmin_getPeers', peers);
    this.log(
      peers.length === 0
        ? 'No peers (is P2P on? l2node start --p2p-enabled).'
        : table(
            ['peer', 'direction', 'score', 'gossip', 'block', 'address'],
            peers.map((p) => [
              p.id,
              p.direction,
              String(p.score),
              String(p.gossipScore),
              p.status ? String(p.status.latestBlockNumber) : '-',
              p.addresses.join(' '),
            ]),
          ),
    );
    return wire;
  }
}
