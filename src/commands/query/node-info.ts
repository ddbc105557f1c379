import { fullFlag } from '../_lib/connection-flags.js';
import { keyValues, shortHex } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryNodeInfo extends NodeCommand {
  static override summary = 'Show what the node runs: versions, chain id, L1 and protocol contract addresses.';
  static override description = 'Calls node_getNodeInfo. The --json result is the NodeInfo as the node sends it.';
  static override examples = [
    '<%= config.bin %> query node-info',
    '<%= config.bin %> query node-info --json | jq .result.l1ChainId',
  ];
  static override flags = { full: fullFlag };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(QueryNodeInfo);
    const info = await this.publicNode(flags).call('node_getNodeInfo');
    const addresses = (named: Readonly<Record<string, string>>): [string, string][] =>
      Object.entries(named).map(([k, v]) => [`  ${k}`, shortHex(v, flags.full)]);
    this.log(
      keyValues([
        ['node version', info.nodeVersion],
        ['l1 chain id', info.l1ChainId],
        ['rollup version', info.rollupVersion],
        ['real proofs', info.realProofs],
        ['enr', info.enr ?? 'none (P2P off)'],
        ['l1 contracts', ''],
        ...addresses(info.l1ContractAddresses),
        ['protocol contracts', ''],
        ...addresses(info.protocolContractAddresses),
      ]),
    );
    return wireOf('node_getNodeInfo', info);
  }
}
