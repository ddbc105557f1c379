import { AztecAddress } from '../../core/aztec-address.js';
import { PublicKeys } from '../../core/contract/public-keys.js';
import { EthAddress } from '../../core/eth-address.js';
import { Fr } from '../../core/fr.js';
import { GasFees } from '../../core/gas/gas-fees.js';
import { paddedFees } from '../../core/gas/padded-fees.js';
import { PrivateLog } from '../../core/logs/private-log.js';
import { TEST_ACCOUNTS } from '../../core/test-accounts.js';
import type { ContractInstanceSpec, TxBuildOptions } from '../../core/tx/tx-builder.js';
import { CliError } from './cli-error.js';

/** The effect and fee flags of `tx build`, as oclif parses them. */
export interface TxBuildFlags {
  readonly 'fee-payer'?: string;
  readonly 'note-hash'?: string[];
  readonly nullifier?: string[];
  readonly 'private-log'?: string[];
  readonly 'l2-to-l1-message'?: string[];
  readonly 'publish-class'?: string;
  readonly 'publish-instance'?: string[];
  readonly 'fee-padding': number;
  readonly 'max-fee-per-l2-gas'?: string;
  readonly 'max-fee-per-da-gas'?: string;
  readonly 'priority-fee-per-l2-gas': string;
  readonly seed?: string;
  readonly 'vk-tree-root'?: string;
  readonly 'protocol-contracts-hash'?: string;
}

/**
 * The TxBuilder options the flags ask for; every malformed value is a usage error naming its flag. Lives apart
 * from the command so that its core imports load only when a tx is built.
 */
export function buildOptionsFromFlags(
  flags: TxBuildFlags,
  minFees: GasFees,
): { build: TxBuildOptions; vkTreeRoot?: Fr; protocolContractsHash?: Fr } {
  const feePayer = flags['fee-payer'] ? address(flags['fee-payer'], '--fee-payer') : TEST_ACCOUNTS[0].address;
  const padded = paddedFees(minFees, flags['fee-padding']);
  const maxFees = new GasFees(
    flags['max-fee-per-da-gas'] !== undefined
      ? amount(flags['max-fee-per-da-gas'], '--max-fee-per-da-gas')
      : padded.feePerDaGas,
    flags['max-fee-per-l2-gas'] !== undefined
      ? amount(flags['max-fee-per-l2-gas'], '--max-fee-per-l2-gas')
      : padded.feePerL2Gas,
  );
  const priority = new GasFees(0n, amount(flags['priority-fee-per-l2-gas'], '--priority-fee-per-l2-gas'));
  const build: TxBuildOptions = {
    feePayer,
    maxFeesPerGas: maxFees,
    maxPriorityFeesPerGas: priority,
    noteHashes: (flags['note-hash'] ?? []).map((v) => field(v, '--note-hash')),
    nullifiers: (flags.nullifier ?? []).map((v) => field(v, '--nullifier')),
    privateLogs: (flags['private-log'] ?? []).map((v) =>
      PrivateLog.fromEmitted(v.split(',').map((f) => field(f.trim(), '--private-log'))),
    ),
    l2ToL1Messages: (flags['l2-to-l1-message'] ?? []).map((v) => {
      const [recipient, content, sender, extra] = v.split(':');
      if (!recipient || !content || extra !== undefined) {
        throw CliError.usage(`--l2-to-l1-message "${v}": expected recipient:content[:sender]`);
      }
      return {
        recipient: ethAddress(recipient, '--l2-to-l1-message recipient'),
        content: field(content, '--l2-to-l1-message content'),
        sender: sender ? address(sender, '--l2-to-l1-message sender') : feePayer,
      };
    }),
    publishContractInstances: (flags['publish-instance'] ?? []).map(instance),
    txRequestHash: flags.seed === undefined ? undefined : field(flags.seed, '--seed'),
  };
  if (flags['publish-class'] !== undefined) {
    const [artifactHash, root, bytecode, extra] = flags['publish-class'].split(':');
    if (
      !artifactHash ||
      !root ||
      bytecode === undefined ||
      extra !== undefined ||
      !/^(0x)?([0-9a-fA-F]{2})*$/.test(bytecode)
    ) {
      throw CliError.usage(
        `--publish-class "${flags['publish-class']}": expected artifactHash:privateFunctionsRoot:bytecodeHex (bytecode as whole bytes)`,
      );
    }
    build.publishContractClass = {
      artifactHash: field(artifactHash, '--publish-class artifactHash'),
      privateFunctionsRoot: field(root, '--publish-class privateFunctionsRoot'),
      packedBytecode: Buffer.from(bytecode.replace(/^0x/, ''), 'hex'),
    };
  }
  return {
    build,
    vkTreeRoot: flags['vk-tree-root'] === undefined ? undefined : field(flags['vk-tree-root'], '--vk-tree-root'),
    protocolContractsHash:
      flags['protocol-contracts-hash'] === undefined
        ? undefined
        : field(flags['protocol-contracts-hash'], '--protocol-contracts-hash'),
  };
}

function instance(v: string): ContractInstanceSpec {
  const [salt, classId, initHash, deployer, extra] = v.split(':');
  if (!salt || !classId || !initHash || extra !== undefined) {
    throw CliError.usage(`--publish-instance "${v}": expected salt:classId:initializationHash[:deployer]`);
  }
  return {
    salt: field(salt, '--publish-instance salt'),
    contractClassId: field(classId, '--publish-instance classId'),
    initializationHash: field(initHash, '--publish-instance initializationHash'),
    publicKeys: PublicKeys.default(),
    deployer: deployer ? address(deployer, '--publish-instance deployer') : AztecAddress.ZERO,
  };
}

function field(v: string, flag: string): Fr {
  try {
    return Fr.fromString(v);
  } catch (err) {
    throw CliError.usage(`${flag} "${v}" is not a field element (${(err as Error).message})`);
  }
}

function address(v: string, flag: string): AztecAddress {
  try {
    return AztecAddress.fromString(v);
  } catch (err) {
    throw CliError.usage(`${flag} "${v}" is not an L2 address (${(err as Error).message})`);
  }
}

function ethAddress(v: string, flag: string): EthAddress {
  try {
    return EthAddress.fromString(v);
  } catch (err) {
    throw CliError.usage(`${flag} "${v}" is not an L1 address, 0x + 40 hex (${(err as Error).message})`);
  }
}

function amount(v: string, flag: string): bigint {
  if (!/^[0-9]{1,39}$/.test(v)) throw CliError.usage(`${flag} "${v}" is not a non-negative integer`);
  return BigInt(v);
}
