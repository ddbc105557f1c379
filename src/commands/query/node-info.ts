import { fullFlag } from '../_lib/connection-flags.js';
import { keyValues, shortHex } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { at, textAt, wireOf } from '../_lib/wire-json.js';

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
    const info = wireOf('node_getNodeInfo', await this.publicNode(flags).call('node_getNodeInfo'));
    const addresses = (path: string): [string, string][] => {
      const o = at(info, path);
      if (typeof o !== 'object' || o === null) return [];
      return Object.entries(o).map(([k, v]) => [`  ${k}`, shortHex(String(v), flags.full)]);
    };
    this.log(
      keyValues([
        ['node version', textAt(info, 'nodeVersion')],
        ['l1 chain id', textAt(info, 'l1ChainId')],
        ['rollup version', textAt(info, 'rollupVersion')],
        ['real proofs', textAt(info, 'realProofs')],
        ['enr', at(info, 'enr') === undefined ? undefined : textAt(info, 'enr')],
        ['l1 contracts', ''],
        ...addresses('l1ContractAddresses'),
        ['protocol contracts', ''],
        ...addresses('protocolContractAddresses'),
      ]),
    );
    return info;
  }
}
