import { GovernanceAbi } from '@aztec/l1-artifacts/GovernanceAbi';
import { RegistryAbi } from '@aztec/l1-artifacts/RegistryAbi';
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { TestERC20Abi } from '@aztec/l1-artifacts/TestERC20Abi';
import { getAddress, type PublicClient } from 'viem';
import type { L1ContractAddresses } from '../chain/settlement/settlement-layer.js';

/** Addresses 4.1.2 reports beside the required ones when they exist (its L1ContractAddresses optional keys). */
export interface OptionalL1ContractAddresses {
  readonly gseAddress?: string;
  readonly feeAssetHandlerAddress?: string;
  readonly stakingAssetHandlerAddress?: string;
  readonly slashFactoryAddress?: string;
  readonly zkPassportVerifierAddress?: string;
  readonly dateGatedRelayerAddress?: string;
}

export type DeployedL1ContractAddresses = L1ContractAddresses & OptionalL1ContractAddresses;

/** An Aztec L1 deployment the node settles on: its addresses and the rollup's constants. */
export interface L1Deployment {
  readonly chainId: number;
  readonly addresses: DeployedL1ContractAddresses;
  /** The rollup's version (`getVersion()`): txs and L1-L2 messages carry it. */
  readonly rollupVersion: number;
  /** The L1 block the rollup was deployed in: reading L1 events starts there. */
  readonly l1BlockAtGenesis: bigint;
  /** Unix time of the rollup's slot 0. */
  readonly genesisTime: number;
  readonly slotDuration: number;
  readonly epochDuration: number;
  /** True when this node deployed the contracts (`--l1 anvil` or an L1 without `--registry-address`). */
  readonly deployedByNode: boolean;
}

/** Addresses as the node reports them: 0x and 40 lowercase hex digits. */
function lower(address: string): string {
  return getAddress(address).toLowerCase();
}

/** The addresses of the forge script's `JSON DEPLOY RESULT` (its fee asset is 4.1.2's `feeJuiceAddress`). */
export function addressesOfDeployResult(result: Record<string, unknown>): DeployedL1ContractAddresses {
  const pick = (key: string): string => {
    const v = result[key];
    if (typeof v !== 'string') throw new Error(`the deployment result has no ${key}`);
    return lower(v);
  };
  const optional = (key: keyof OptionalL1ContractAddresses) =>
    typeof result[key] === 'string' && !/^0x0{40}$/i.test(result[key] as string)
      ? { [key]: lower(result[key] as string) }
      : {};
  return {
    rollupAddress: pick('rollupAddress'),
    registryAddress: pick('registryAddress'),
    inboxAddress: pick('inboxAddress'),
    outboxAddress: pick('outboxAddress'),
    feeJuiceAddress: pick('feeAssetAddress'),
    stakingAssetAddress: pick('stakingAssetAddress'),
    feeJuicePortalAddress: pick('feeJuicePortalAddress'),
    coinIssuerAddress: pick('coinIssuerAddress'),
    rewardDistributorAddress: pick('rewardDistributorAddress'),
    governanceProposerAddress: pick('governanceProposerAddress'),
    governanceAddress: pick('governanceAddress'),
    ...optional('gseAddress'),
    ...optional('feeAssetHandlerAddress'),
    ...optional('stakingAssetHandlerAddress'),
    ...optional('slashFactoryAddress'),
    ...optional('zkPassportVerifierAddress'),
    ...optional('dateGatedRelayerAddress'),
  };
}

/**
 * Every address reachable from a registry, as a node that attaches with `--registry-address` finds them:
 * the canonical rollup and, through its getters, the Inbox, Outbox, portal, assets and GSE; the governance and
 * reward distributor from the registry; the governance proposer from the governance; the coin issuer as the fee
 * asset's owner.
 */
export async function addressesFromRegistry(
  client: PublicClient,
  registryAddress: `0x${string}`,
): Promise<DeployedL1ContractAddresses> {
  const code = await client.getCode({ address: registryAddress });
  if (!code || code === '0x') throw new Error(`there is no contract at registry address ${registryAddress}`);
  const registry = { address: registryAddress, abi: RegistryAbi } as const;
  const rollupAddress = await client.readContract({ ...registry, functionName: 'getCanonicalRollup' });
  const rollup = { address: rollupAddress, abi: RollupAbi } as const;
  const [inbox, outbox, portal, feeAsset, stakingAsset, gse, governance, rewardDistributor] = await Promise.all([
    client.readContract({ ...rollup, functionName: 'getInbox' }),
    client.readContract({ ...rollup, functionName: 'getOutbox' }),
    client.readContract({ ...rollup, functionName: 'getFeeAssetPortal' }),
    client.readContract({ ...rollup, functionName: 'getFeeAsset' }),
    client.readContract({ ...rollup, functionName: 'getStakingAsset' }),
    client.readContract({ ...rollup, functionName: 'getGSE' }),
    client.readContract({ ...registry, functionName: 'getGovernance' }),
    client.readContract({ ...registry, functionName: 'getRewardDistributor' }),
  ]);
  const [governanceProposer, coinIssuer] = await Promise.all([
    client.readContract({ address: governance, abi: GovernanceAbi, functionName: 'governanceProposer' }),
    client.readContract({ address: feeAsset, abi: TestERC20Abi, functionName: 'owner' }),
  ]);
  return {
    rollupAddress: lower(rollupAddress),
    registryAddress: lower(registryAddress),
    inboxAddress: lower(inbox),
    outboxAddress: lower(outbox),
    feeJuiceAddress: lower(feeAsset),
    stakingAssetAddress: lower(stakingAsset),
    feeJuicePortalAddress: lower(portal),
    coinIssuerAddress: lower(coinIssuer),
    rewardDistributorAddress: lower(rewardDistributor),
    governanceProposerAddress: lower(governanceProposer),
    governanceAddress: lower(governance),
    gseAddress: lower(gse),
  };
}

/** Reads the rollup's constants and completes a deployment from its addresses. */
export async function readL1Deployment(
  client: PublicClient,
  chainId: number,
  addresses: DeployedL1ContractAddresses,
  deployedByNode: boolean,
): Promise<L1Deployment> {
  const rollup = { address: addresses.rollupAddress as `0x${string}`, abi: RollupAbi } as const;
  const [version, l1BlockAtGenesis, genesisTime, slotDuration, epochDuration] = await Promise.all([
    client.readContract({ ...rollup, functionName: 'getVersion' }),
    client.readContract({ ...rollup, functionName: 'L1_BLOCK_AT_GENESIS' }),
    client.readContract({ ...rollup, functionName: 'getGenesisTime' }),
    client.readContract({ ...rollup, functionName: 'getSlotDuration' }),
    client.readContract({ ...rollup, functionName: 'getEpochDuration' }),
  ]);
  return {
    chainId,
    addresses,
    rollupVersion: Number(version),
    l1BlockAtGenesis: BigInt(l1BlockAtGenesis),
    genesisTime: Number(genesisTime),
    slotDuration: Number(slotDuration),
    epochDuration: Number(epochDuration),
    deployedByNode,
  };
}
