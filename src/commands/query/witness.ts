import { Args, Flags } from '@oclif/core';
import { type BlockArgument, describeBlock, parseBlockArgument } from '../_lib/block-argument.js';
import { CliError } from '../_lib/cli-error.js';
import { blockFlag, fullFlag } from '../_lib/connection-flags.js';
import { parseHexArgument } from '../_lib/hex-argument.js';
import { indentJson, shortHex } from '../_lib/human-format.js';
import { NodeCommand } from '../_lib/node-command.js';
import type { NodeConnection } from '../_lib/node-connection.js';
import { parseTreeArgument, type TreeName } from '../_lib/tree-argument.js';
import { wireOf } from '../_lib/wire-json.js';

export default class QueryWitness extends NodeCommand {
  static override summary = 'Get a membership witness (or a sibling path) from a tree at a block.';
  static override description =
    'By tree: nullifier (node_getNullifierMembershipWitness; --low for the low-leaf witness of a non-inclusion ' +
    'proof), note-hash (node_getNoteHashMembershipWitness), public-data (node_getPublicDataWitness, value = leaf ' +
    'slot), archive (node_getBlockHashMembershipWitness, value = block hash), l1-to-l2 ' +
    '(node_getL1ToL2MessageMembershipWitness). With --leaf-index instead of a value: the sibling path of that leaf ' +
    "(nullifier, note-hash, public-data, archive). The --json result is the node's answer; exits 4 when the value " +
    'is not in the tree.';
  static override examples = [
    '<%= config.bin %> query witness note-hash $NOTE_HASH',
    '<%= config.bin %> query witness nullifier 0x1234 --low --block 10',
    '<%= config.bin %> query witness archive $BLOCK_HASH',
    '<%= config.bin %> query witness note-hash --leaf-index 0 --json',
  ];
  static override args = {
    tree: Args.string({
      ignoreStdin: true,
      description: 'nullifier, note-hash, public-data, archive or l1-to-l2 (or 0 to 4).',
      required: true,
    }),
    value: Args.string({
      ignoreStdin: true,
      description: 'The leaf value (nullifier, note hash, leaf slot, block hash, message).',
    }),
  };
  static override flags = {
    block: blockFlag,
    low: Flags.boolean({ description: 'nullifier tree: the witness of the low leaf (non-inclusion proof).' }),
    'leaf-index': Flags.string({ description: 'The sibling path of the leaf at this index instead of a witness.' }),
    full: fullFlag,
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(QueryWitness);
    const tree = parseTreeArgument(args.tree);
    const block = parseBlockArgument(flags.block, '--block');
    const node = this.publicNode(flags);
    let answer: unknown;
    if (flags['leaf-index'] !== undefined) {
      if (args.value !== undefined) throw CliError.usage('give a value or --leaf-index, not both');
      if (!/^[0-9]{1,20}$/.test(flags['leaf-index'])) {
        throw CliError.usage(`--leaf-index "${flags['leaf-index']}" is not a non-negative integer`);
      }
      answer = await siblingPath(node, tree, block, flags['leaf-index']);
    } else {
      if (args.value === undefined) throw CliError.usage('give the leaf value to prove, or --leaf-index <n>');
      if (flags.low && tree !== 'nullifier') throw CliError.usage('--low applies to the nullifier tree only');
      answer = await witness(node, tree, block, parseHexArgument(args.value, 'value'), flags.low);
    }
    if (answer === null) {
      throw CliError.notFound(`${args.value} is not in the ${tree} tree at ${describeBlock(block)}`, [
        tree === 'nullifier'
          ? 'for a non-inclusion proof: add --low'
          : `check the value: l2node query leaves ${tree} ${args.value}`,
      ]);
    }
    const wire = answer;
    this.log(renderWitness(wire, flags.full));
    return wire;
  }
}

async function witness(
  node: NodeConnection,
  tree: TreeName,
  block: BlockArgument,
  value: string,
  low: boolean,
): Promise<unknown> {
  switch (tree) {
    case 'nullifier':
      return low
        ? node
            .call('node_getLowNullifierMembershipWitness', block, value)
            .then((v) => wireOf('node_getLowNullifierMembershipWitness', v))
        : node
            .call('node_getNullifierMembershipWitness', block, value)
            .then((v) => wireOf('node_getNullifierMembershipWitness', v));
    case 'note-hash':
      return node
        .call('node_getNoteHashMembershipWitness', block, value)
        .then((v) => wireOf('node_getNoteHashMembershipWitness', v));
    case 'public-data':
      return node.call('node_getPublicDataWitness', block, value).then((v) => wireOf('node_getPublicDataWitness', v));
    case 'archive':
      return node
        .call('node_getBlockHashMembershipWitness', block, value)
        .then((v) => wireOf('node_getBlockHashMembershipWitness', v));
    case 'l1-to-l2':
      return node
        .call('node_getL1ToL2MessageMembershipWitness', block, value)
        .then((v) => wireOf('node_getL1ToL2MessageMembershipWitness', v));
  }
}

async function siblingPath(
  node: NodeConnection,
  tree: TreeName,
  block: BlockArgument,
  index: string,
): Promise<unknown> {
  switch (tree) {
    case 'nullifier':
      return node
        .call('node_getNullifierSiblingPath', block, index)
        .then((v) => wireOf('node_getNullifierSiblingPath', v));
    case 'note-hash':
      return node
        .call('node_getNoteHashSiblingPath', block, index)
        .then((v) => wireOf('node_getNoteHashSiblingPath', v));
    case 'public-data':
      return node
        .call('node_getPublicDataSiblingPath', block, index)
        .then((v) => wireOf('node_getPublicDataSiblingPath', v));
    case 'archive':
      return node.call('node_getArchiveSiblingPath', block, index).then((v) => wireOf('node_getArchiveSiblingPath', v));
    case 'l1-to-l2':
      throw CliError.usage('the l1-to-l2 tree has no sibling path method: give the message to get its witness');
  }
}

/** Indented JSON with hex shortened and long base64 (sibling paths) summarised, unless --full. */
function renderWitness(wire: unknown, full: boolean): string {
  const text = indentJson(wire).replace(/"(0x[0-9a-f]{20,})"/g, (_m, hex: string) => `"${shortHex(hex, full)}"`);
  if (full) return text;
  return text.replace(
    /"([A-Za-z0-9+/]{80,}={0,2})"/g,
    (_m, b64: string) => `"${b64.slice(0, 12)}… (base64, ${Buffer.from(b64, 'base64').length} bytes)"`,
  );
}
