import { Args } from '@oclif/core';
import type { Tx } from '../../core/tx/tx.js';
import { CliError } from '../_lib/cli-error.js';
import { fullFlag } from '../_lib/connection-flags.js';
import { parseTxHashArgument } from '../_lib/hex-argument.js';
import { keyValues, shortHex } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryTx extends NodeCommand {
  static override summary = 'Show a pending transaction: fee payer, fees, gas and side effects.';
  static override description =
    "Calls node_getTxByHash, which knows the mempool's txs. The --json result is the Tx as the node sends it " +
    '(what `tx send` takes). A mined tx is read with `query receipt` and `query effect`; exits 4 when the tx is ' +
    'not pending.';
  static override examples = [
    '<%= config.bin %> query tx $TX_HASH',
    '<%= config.bin %> query tx $TX_HASH --json > tx.json',
  ];
  static override args = { hash: Args.string({ ignoreStdin: true, description: 'The tx hash.', required: true }) };
  static override flags = { full: fullFlag };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryTx);
    const hash = parseTxHashArgument(args.hash);
    const tx = await this.publicNode(flags).call('node_getTxByHash', hash);
    if (tx === undefined) {
      throw CliError.notFound(`tx ${hash} is not pending on this node`, [
        `if it was mined: l2node query receipt ${hash}`,
        'see what is pending: l2node query pending',
      ]);
    }
    if (!this.jsonEnabled()) this.log(describeTx(tx, flags.full));
    return wireOf('node_getTxByHash', tx);
  }
}

/** A summary of a Tx's public inputs. */
function describeTx(tx: Tx, full: boolean): string {
  const d = tx.data;
  const g = d.gasSettings;
  const rollup = d.forRollup;
  const effects = rollup
    ? `${rollup.getNonEmptyNoteHashes().length} note hashes, ${rollup.getNonEmptyNullifiers().length} nullifiers, ` +
      `${rollup.getNonEmptyPrivateLogs().length} private logs, ${rollup.getNonEmptyContractClassLogsHashes().length} class logs`
    : 'has public calls';
  return keyValues([
    ['tx', shortHex(tx.txHash.toString(), full)],
    ['fee payer', shortHex(d.feePayer.toString(), full)],
    ['anchor block', d.constants.anchorBlockHeader.globalVariables.blockNumber],
    ['expires', new Date(Number(d.expirationTimestamp) * 1000).toISOString()],
    ['gas limits', `${g.gasLimits.l2Gas} L2, ${g.gasLimits.daGas} DA`],
    ['gas used', `${d.gasUsed.l2Gas} L2, ${d.gasUsed.daGas} DA`],
    ['max fees', `${g.maxFeesPerGas.feePerL2Gas} per L2 gas, ${g.maxFeesPerGas.feePerDaGas} per DA gas`],
    [
      'priority fees',
      `${g.maxPriorityFeesPerGas.feePerL2Gas} per L2 gas, ${g.maxPriorityFeesPerGas.feePerDaGas} per DA gas`,
    ],
    ['side effects', effects],
  ]);
}
