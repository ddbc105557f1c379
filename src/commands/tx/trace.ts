import { existsSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import { flattenCalls } from '../../core/trace/tx-trace.js';
import { Tx, type TxJson } from '../../core/tx/tx.js';
import { AdminCommand } from '../_lib/admin-command.js';
import { CliError } from '../_lib/cli-error.js';
import { ContractArtifact } from '../_lib/contract-artifact.js';
import { parseTxHashArgument } from '../_lib/hex-argument.js';
import { decodeCall, decodeRevert, renderTrace } from '../_lib/trace-render.js';
import { readTxInput } from '../_lib/tx-input.js';
import { wireOf } from '../_lib/wire-json.js';

export default class TxTrace extends AdminCommand {
  static override summary = 'Show what a tx did in public: its call tree, gas per call, storage diffs, prints.';
  static override description =
    'A tx hash calls nodeDev_traceTx (the mined tx re-executed on the state before it); a file (a Tx as JSON, ' +
    'what `tx build` prints, or - for stdin) calls nodeDev_traceCall (run as the next block would run it, nothing ' +
    'kept). --artifact names the functions of that contract and decodes their arguments, return values and revert ' +
    'data as the official client does. The --json result is the trace (docs/debugging.md), plus decodedCalls and ' +
    'decodedRevert with --artifact. Exits 4 when the node has not mined the tx.';
  static override examples = [
    '<%= config.bin %> tx trace $TX_HASH',
    '<%= config.bin %> tx trace $TX_HASH --artifact target/token_contract-Token.json',
    '<%= config.bin %> tx trace tx.json --opcodes --max-steps 5000 --json',
  ];
  static override args = {
    tx: Args.string({
      ignoreStdin: true,
      description: 'A mined tx hash, or a file holding a Tx as JSON.',
      required: true,
    }),
  };
  static override flags = {
    opcodes: Flags.boolean({ description: "Add each call's instruction trace (pc, opcode, operands, gas left)." }),
    'max-steps': Flags.integer({ description: 'Most instructions the trace may hold (the node caps it too).', min: 1 }),
    artifact: Flags.string({
      description: 'A contract artifact (aztec-nargo / noir-contracts.js JSON) to decode calls.',
    }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(TxTrace);
    const artifact = flags.artifact === undefined ? undefined : ContractArtifact.load(flags.artifact);
    const options = {
      ...(flags.opcodes ? { opcodes: true } : {}),
      ...(flags['max-steps'] === undefined ? {} : { maxSteps: flags['max-steps'] }),
    };
    const node = this.adminNode(flags);
    const isHash = /^0x[0-9a-fA-F]{64}$/.test(args.tx) && !existsSync(args.tx);
    let trace: import('../../core/trace/tx-trace.js').TxTrace | undefined;
    if (isHash) {
      const hash = parseTxHashArgument(args.tx);
      trace = await node.call('nodeDev_traceTx', hash, options);
      if (trace === undefined) {
        throw CliError.notFound(`tx ${hash} is not in a block of this node`, [
          `see where it stands: l2node query receipt ${hash}`,
          'trace an unmined tx from its file: l2node tx trace tx.json',
        ]);
      }
    } else {
      const json = await readTxInput(args.tx);
      Tx.fromJSON(json); // refuses a malformed tx here, naming what is wrong
      trace = await node.call('nodeDev_traceCall', json as unknown as TxJson, options);
    }
    this.log(renderTrace(trace, artifact));
    const json = wireOf('nodeDev_traceCall', trace) as Record<string, unknown>;
    if (!artifact) return json;
    const decodedRevert = decodeRevert(trace, artifact);
    return {
      ...json,
      decodedCalls: flattenCalls(trace.calls).map((c) => decodeCall(c, artifact) ?? null),
      ...(decodedRevert ? { decodedRevert } : {}),
    };
  }
}
