import { writeFileSync } from 'node:fs';
import { Flags } from '@oclif/core';
import { toJsonText } from '../_lib/base-command.js';
import { parseBlockArgument } from '../_lib/block-argument.js';
import { blockNotFound } from '../_lib/block-not-found.js';
import { CliError } from '../_lib/cli-error.js';
import { NodeCommand } from '../_lib/node-command.js';

export default class TxBuild extends NodeCommand {
  static override summary = "Build a valid transaction for the node's chain, with the side effects you choose.";
  static override description =
    'Builds a rollup-only tx (no public calls, zero proof: what a dev node with fake proofs accepts) anchored to ' +
    'the latest block, with the chain id, rollup version, vk tree root and protocol contracts hash the node ' +
    'reports. Its first nullifier is fresh (from --seed, or random), so it is unique. Max fees default to the ' +
    "node's current min fees times (1 + --fee-padding). The fee payer must hold FeeJuice: by default the first " +
    'test account, which `l2node start` prefunds. Prints the Tx JSON (to stdout, or --out), ready for `tx send`; --json prints {txHash, tx}.';
  static override examples = [
    '<%= config.bin %> tx build --note-hash 0x01 --nullifier 0x02 > tx.json',
    '<%= config.bin %> tx build --private-log 0x7a6,0x01,0x02 --l2-to-l1-message 0x000000000000000000000000000000000000beef:0x05 | <%= config.bin %> tx send -',
    '<%= config.bin %> tx build --publish-class 0xa1:0xa2:c0ffee --publish-instance 0x5a17:$CLASS_ID:0x1217 --out deploy.json',
    '<%= config.bin %> tx build --fee-payer 0x0a60414ee907527880b7a53d4dacdeb9ef768bb98d9d8d1e7200725c13763331 --priority-fee-per-l2-gas 10 --json',
  ];
  static override flags = {
    'fee-payer': Flags.string({
      description: "Address whose FeeJuice pays the fee. Default: Aztec's first test account.",
    }),
    'note-hash': Flags.string({
      description: 'A note hash to insert (final, siloed and unique); repeatable.',
      multiple: true,
    }),
    nullifier: Flags.string({
      description: 'A siloed nullifier to add after the first one; repeatable.',
      multiple: true,
    }),
    'private-log': Flags.string({
      description: 'A private log: its fields comma-separated, the tag first (0x7a6,0x01); repeatable.',
      multiple: true,
    }),
    'l2-to-l1-message': Flags.string({
      description:
        'recipient:content[:sender] (L1 address, field, L2 address; sender defaults to the fee payer); repeatable.',
      multiple: true,
    }),
    'publish-class': Flags.string({
      description: 'Publish a contract class: artifactHash:privateFunctionsRoot:bytecodeHex.',
    }),
    'publish-instance': Flags.string({
      description: 'Publish a contract instance: salt:classId:initializationHash[:deployer]; repeatable.',
      multiple: true,
    }),
    'fee-padding': Flags.integer({
      description: 'Offer max fees of the current min fees times (1 + padding).',
      default: 1,
      min: 0,
    }),
    'max-fee-per-l2-gas': Flags.string({ description: 'Max fee per L2 gas (overrides --fee-padding).' }),
    'max-fee-per-da-gas': Flags.string({ description: 'Max fee per DA gas (overrides --fee-padding).' }),
    'priority-fee-per-l2-gas': Flags.string({ description: 'Max priority fee per L2 gas.', default: '0' }),
    'anchor-block': Flags.string({
      description: 'Block the tx is anchored to: a number, "latest" or a hash.',
      default: 'latest',
    }),
    seed: Flags.string({
      description: 'Tx request hash behind the first nullifier (same seed, same tx); default random.',
    }),
    out: Flags.string({ description: 'Write the Tx JSON to this file instead of stdout.' }),
    'vk-tree-root': Flags.string({ description: "Use this vk tree root instead of the node's.", helpGroup: 'CHAIN' }),
    'protocol-contracts-hash': Flags.string({
      description: "Use this protocol contracts hash instead of the node's.",
      helpGroup: 'CHAIN',
    }),
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(TxBuild);
    // The builder pulls in the kernel types and hashing: loaded here only, so other commands start fast.
    const [{ TxBuilder }, { fetchTxChainContext }, { buildOptionsFromFlags }] = await Promise.all([
      import('../../core/tx/tx-builder.js'),
      import('../../bot/tx-chain-context.js'),
      import('../_lib/tx-build-options.js'),
    ]);
    const node = this.publicNode(flags);
    const anchor = parseBlockArgument(flags['anchor-block'], '--anchor-block');
    const anchorHeader = await node.call('node_getBlockHeader', anchor);
    if (anchorHeader === undefined) throw await blockNotFound(node, anchor);
    const options = buildOptionsFromFlags(flags, await node.call('node_getCurrentMinFees'));
    const chain = await fetchTxChainContext(node, {
      anchorBlockHeader: anchorHeader,
      vkTreeRoot: options.vkTreeRoot,
      protocolContractsHash: options.protocolContractsHash,
    }).catch((err: unknown) => {
      throw err instanceof CliError ? err : CliError.failed((err as Error).message, 'CHAIN_CONTEXT');
    });
    let tx: import('../../core/tx/tx.js').Tx;
    try {
      tx = new TxBuilder(chain).build(options.build);
    } catch (err) {
      throw CliError.usage(`cannot build the tx: ${(err as Error).message}`);
    }
    const txHash = tx.txHash.toString();
    const json = tx.toJSON();
    if (flags.out) {
      writeFileSync(flags.out, `${toJsonText(json)}\n`);
      this.note(`wrote tx ${txHash} to ${flags.out}; send it: l2node tx send ${flags.out}`);
    } else if (!this.jsonEnabled()) {
      process.stdout.write(`${toJsonText(json)}\n`);
      this.note(`built tx ${txHash}`);
    }
    return { txHash, tx: json };
  }
}
