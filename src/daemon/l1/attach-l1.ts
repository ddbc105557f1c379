import { BaseError, type PublicClient, TimeoutError } from 'viem';
import type { Logger } from '../logging/logger.js';
import { deployL1Contracts, type L1DeployConfig } from './deploy-l1-contracts.js';
import { addressesFromRegistry, type L1Deployment, readL1Deployment } from './l1-deployment.js';
import type { L1DeploymentRepository } from './l1-deployment-repository.js';

export interface AttachL1Options {
  readonly client: PublicClient;
  readonly rpcUrl: string;
  /** The chain id the node was told (`--l1-chain-id`): the L1 must answer the same. */
  readonly chainId: number;
  /** `--registry-address`: attach to this deployment; absent: deploy one (once, then reuse it). */
  readonly registryAddress: `0x${string}` | undefined;
  /** How to deploy, asked only when the node deploys (its genesis archive root is computed for it). */
  readonly deploy: () => Omit<L1DeployConfig, 'rpcUrl' | 'client' | 'log' | 'signal'>;
  /** Aborted when the node stops during start-up: a deployment in progress is given up. */
  readonly signal?: AbortSignal;
  readonly deployments: L1DeploymentRepository;
  /**
   * Awaited before the node's first tx to the L1 (a deployment): the node's anvil runs no tx while it loads its
   * KZG set-up, and a deployment's requests would time out behind it. Attaching to a stored deployment only reads.
   */
  readonly beforeFirstTx?: () => Promise<void>;
  /** Makes the L1's state survive a crash (the node's anvil saves it): awaited before a new deployment is stored. */
  readonly persist?: () => Promise<void>;
  readonly log: Logger;
}

/** The L1 is not the one the node needs (wrong chain, contracts gone, another deployment). */
export class L1AttachError extends Error {
  override name = 'L1AttachError';
}

/**
 * The deployment the node settles on: the one in its store (checked to still be on L1), else the one the
 * registry of `--registry-address` names, else a fresh deployment of Aztec's contracts. Stored once found.
 */
export async function attachL1(o: AttachL1Options): Promise<L1Deployment> {
  const chainId = await firstChainId(o);
  if (chainId !== o.chainId) {
    throw new L1AttachError(`the L1 at ${o.rpcUrl} has chain id ${chainId}, but --l1-chain-id is ${o.chainId}`);
  }
  const stored = o.deployments.get();
  if (stored) {
    if (stored.chainId !== chainId) {
      throw new L1AttachError(`this node settles on L1 chain ${stored.chainId}, not ${chainId} (data directory)`);
    }
    if (o.registryAddress && o.registryAddress.toLowerCase() !== stored.addresses.registryAddress) {
      throw new L1AttachError(
        `this node settles on the deployment of registry ${stored.addresses.registryAddress}, not ${o.registryAddress}`,
      );
    }
    const code = await o.client.getCode({ address: stored.addresses.rollupAddress as `0x${string}` });
    if (!code || code === '0x') {
      throw new L1AttachError(
        `the rollup ${stored.addresses.rollupAddress} this node settles on is not on the L1 at ${o.rpcUrl} ` +
          '(was the L1 reset?): start with a new data directory to deploy again',
      );
    }
    o.log.info({ rollup: stored.addresses.rollupAddress }, 'settling on the stored L1 deployment');
    return stored;
  }
  if (!o.registryAddress && o.beforeFirstTx && !o.signal?.aborted) {
    // A stop asked for meanwhile does not wait for it: the deployment below then gives up at once.
    const stopping = new Promise<void>((resolve) =>
      o.signal?.addEventListener('abort', () => resolve(), { once: true }),
    );
    await Promise.race([o.beforeFirstTx(), stopping]);
  }
  const addresses = o.registryAddress
    ? await addressesFromRegistry(o.client, o.registryAddress)
    : await deployL1Contracts({ ...o.deploy(), rpcUrl: o.rpcUrl, client: o.client, signal: o.signal, log: o.log });
  const deployment = await readL1Deployment(o.client, chainId, addresses, o.registryAddress === undefined);
  // Saved before it is stored: a node killed right after finds its deployment on the restarted L1.
  await o.persist?.();
  o.deployments.set(deployment);
  return deployment;
}

/** How long start-up waits for an L1 that answers too slowly (a just started anvil on a busy machine). */
const FIRST_ANSWER_WAIT_MS = 120_000;

/**
 * The L1's chain id, its first answer. An L1 that is slow to answer (a request timing out: an anvil still
 * loading on a busy machine, an L1 container starting) is asked again, with one log line, for up to two
 * minutes; any other failure (refused, wrong URL) fails the start at once, as before.
 */
async function firstChainId(o: AttachL1Options): Promise<number> {
  const started = Date.now();
  let logged = false;
  for (;;) {
    try {
      return await o.client.getChainId();
    } catch (err) {
      const timedOut = err instanceof BaseError && err.walk((e) => e instanceof TimeoutError) !== null;
      if (!timedOut || o.signal?.aborted || Date.now() - started > FIRST_ANSWER_WAIT_MS) throw err;
      if (!logged) {
        o.log.warn(`the L1 at ${o.rpcUrl} is slow to answer; waiting for it (up to ${FIRST_ANSWER_WAIT_MS / 1000} s)`);
        logged = true;
      }
    }
  }
}
