import type { BlockHeader } from '../../core/block/block-header.js';
import type { StateReference } from '../../core/block/state-reference.js';
import {
  CONTRACT_CLASS_REGISTRY_CONTRACT_ADDRESS,
  CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS,
  FEE_JUICE_ADDRESS,
  MULTI_CALL_ENTRYPOINT_ADDRESS,
} from '../../core/constants.js';
import { toHex64 } from '../../core/fr.js';
import type { SettingSource } from '../config/resolve-config.js';
import type { NodeConfig, SettingKey } from '../config/settings.js';
import { SETTINGS } from '../config/settings.js';
import type { UpstreamIdentity } from './upstream.js';

/** The upstream is not a node this follower can follow (another chain, another genesis, other contracts). */
export class UpstreamMismatchError extends Error {
  override name = 'UpstreamMismatchError';
}

/** Whether a setting was given (flag or env) rather than left at its default. */
export type IsExplicitSetting = (key: SettingKey) => boolean;

/** The protocol contracts this node knows (4.1.2's canonical addresses), by the NodeInfo key. */
const OUR_PROTOCOL_CONTRACTS: Readonly<Record<string, bigint>> = {
  classRegistry: CONTRACT_CLASS_REGISTRY_CONTRACT_ADDRESS,
  feeJuice: FEE_JUICE_ADDRESS,
  instanceRegistry: CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS,
  multiCallEntrypoint: MULTI_CALL_ENTRYPOINT_ADDRESS,
};

/**
 * Takes the chain identity from the upstream (docs/architecture.md section 1, follower mode): its chain id, rollup version,
 * protocol contracts hash and vk tree root replace this node's values in `config` (which every service reads
 * live), unless a value was set explicitly and differs: then it throws naming the setting. Protocol contract
 * addresses must be the ones this node knows. Returns one line per adopted value that changed.
 */
export function adoptUpstreamIdentity(
  identity: UpstreamIdentity,
  config: NodeConfig,
  isExplicit: IsExplicitSetting,
  url: string,
): string[] {
  const adopted: string[] = [];
  const take = <K extends 'l1ChainId' | 'rollupVersion' | 'protocolContractsHash' | 'vkTreeRoot'>(
    key: K,
    theirs: NodeConfig[K] | undefined,
    what: string,
  ) => {
    if (theirs === undefined) return;
    const ours = config[key];
    if (String(ours) === String(theirs)) return;
    const s = SETTINGS[key];
    if (isExplicit(key)) {
      throw new UpstreamMismatchError(
        `--${s.flag} (${s.env}) is ${String(ours)} but the upstream ${url} has ${what} ${String(theirs)}: ` +
          `drop --${s.flag} (a follower takes it from its upstream) or follow a node of that chain`,
      );
    }
    config[key] = theirs;
    adopted.push(`${what} ${String(theirs)}`);
  };
  take('l1ChainId', identity.l1ChainId, 'L1 chain id');
  take('rollupVersion', identity.rollupVersion, 'rollup version');
  take('protocolContractsHash', identity.protocolContractsHash, 'protocol contracts hash');
  take('vkTreeRoot', identity.vkTreeRoot, 'vk tree root');
  for (const [key, ours] of Object.entries(OUR_PROTOCOL_CONTRACTS)) {
    const theirs = identity.protocolContractAddresses[key];
    if (theirs === undefined || !/^0x[0-9a-fA-F]{1,64}$/.test(theirs) || BigInt(theirs) !== ours) {
      throw new UpstreamMismatchError(
        `the upstream ${url} has protocol contract ${key} at ${theirs ?? '(none)'}, this node at ${toHex64(ours)}: ` +
          'it runs other protocol contracts than Aztec 4.1.2, which this node cannot follow',
      );
    }
  }
  return adopted;
}

/**
 * The follower's genesis must be the upstream's: block 0's hash commits to the genesis state, which the
 * prefunded accounts change (public data tree). Throws naming what to pass when it differs.
 */
export function checkUpstreamGenesis(
  upstream: BlockHeader,
  ours: { readonly hash: bigint; readonly state: StateReference; readonly hasBlocks: boolean },
  url: string,
): void {
  const theirs = upstream.hash().value;
  if (theirs === ours.hash) return;
  const p = upstream.state.partial;
  const q = ours.state.partial;
  const onlyPublicData =
    upstream.state.l1ToL2MessageTree.equals(ours.state.l1ToL2MessageTree) &&
    p.noteHashTree.equals(q.noteHashTree) &&
    p.nullifierTree.equals(q.nullifierTree) &&
    !p.publicDataTree.equals(q.publicDataTree);
  const why = onlyPublicData
    ? 'their public data trees differ, so the accounts funded at genesis do: start this node with the same ' +
      '--prefunded-accounts as the upstream (unset means the three test accounts, "none" no account) and the ' +
      'same --sponsored-fpc'
    : 'their genesis states differ';
  const where = ours.hasBlocks ? '; this data directory holds another chain: use another --data-directory' : '';
  throw new UpstreamMismatchError(
    `the upstream ${url} has genesis block ${toHex64(theirs)}, this node ${toHex64(ours.hash)}: ${why}${where}`,
  );
}

/** A setting counts as set when it came from a flag or an env var (resolveConfig's sources). */
export function settingGivenBySource(sources: Readonly<Record<SettingKey, SettingSource>>): IsExplicitSetting {
  return (key) => sources[key] === 'flag' || sources[key] === 'env';
}

/**
 * Without the sources of the settings (a node built in code), a value counts as set when it differs from the
 * table's default: a follower then checks it against the upstream's instead of taking the upstream's.
 */
export function settingDiffersFromDefault(config: NodeConfig): IsExplicitSetting {
  return (key) => {
    const d = SETTINGS[key].defaultValue;
    const v = config[key];
    return d === undefined ? v !== undefined : String(v) !== String(d);
  };
}
