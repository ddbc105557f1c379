import { renderTips } from '../_lib/chain-render.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryTips extends NodeCommand {
  static override summary = 'Show the chain tips: proposed, checkpointed, proven and finalized.';
  static override description =
    'Calls node_getL2Tips. The --json result is the v4 tips object (spec part 2): `proposed` is {number, hash}; ' +
    '`checkpointed`, `proven` and `finalized` are {block, checkpoint}.';
  static override examples = [
    '<%= config.bin %> query tips',
    '<%= config.bin %> query tips --json | jq .result.proven.block.number',
    'NODE_URL=http://10.0.0.5:8080 <%= config.bin %> query tips --full',
  ];
  static override flags = { full: fullFlag };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(QueryTips);
    const tips = await this.publicNode(flags).call('node_getL2Tips');
    this.log(renderTips(tips, flags.full));
    return wireOf('node_getL2Tips', tips);
  }
}
