import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Logger } from '../logging/logger.js';
import { foundryBinary } from './foundry-binary.js';
import { addressesOfDeployResult, type DeployedL1ContractAddresses } from './l1-deployment.js';

/** The rollup configuration the node deploys with; everything else is the 4.1.2 local network's. */
export interface L1DeployConfig {
  readonly rpcUrl: string;
  /** Reads from that L1: the deployer's nonce tells whether the deployment moves. */
  readonly client: PublicClient;
  /** 0x-prefixed 32-byte key of the account that sends the deployment txs. */
  readonly deployerPrivateKey: string;
  /** Seconds per L2 slot. */
  readonly slotDuration: number;
  /** Slots per epoch (at most 32). */
  readonly epochDuration: number;
  /** ETH per fee asset, 1e12 fixed point. */
  readonly initialEthPerFeeAsset: bigint;
  /** Fee asset minted to the FeeJuice portal: it backs the FeeJuice the genesis state gives away. */
  readonly feeJuicePortalInitialBalance: bigint;
  readonly vkTreeRoot: bigint;
  readonly protocolContractsHash: bigint;
  /** The archive root of the node's genesis block (it depends on the prefunded accounts). */
  readonly genesisArchiveRoot: bigint;
  /** Aborting it kills forge: the node is stopping. */
  readonly signal?: AbortSignal;
  readonly log: Logger;
}

/** The L1 contracts could not be deployed. */
export class L1DeployError extends Error {
  override name = 'L1DeployError';
}

/** What the forge script's output line starts with. */
const RESULT_PREFIX = 'JSON DEPLOY RESULT:';
/**
 * A deployment whose deployer has confirmed no tx for this long is stuck. Progress, not a total: on an L1 with
 * 12-second blocks the ~33 txs take minutes, on anvil's automine a second or two.
 */
const DEPLOY_STALL_MS = 120_000;
/** How often the deployer's nonce is read to see the deployment move. */
const PROGRESS_POLL_MS = 2_000;
/** The parts of the l1-contracts folder the forge script reads (its built `out/` and `cache/` included). */
const CONTRACT_FILES = ['out', 'lib', 'cache', 'src', 'script', 'generated', 'test', 'foundry.lock', 'foundry.toml'];
/**
 * Answers forge's version probe. The shipped `out/` and `cache/` are current, so forge never compiles; without
 * this, forge would try to download the pinned solc 0.8.30, which an offline machine cannot.
 */
const SOLC_VERSION_PROBE_ANSWER = '#!/bin/sh\necho "Version: 0.8.30+commit.73712a01.Linux.g++"\n';

/** The l1-contracts folder of `@aztec/l1-artifacts` 4.1.2: sources, forge build output and deploy scripts. */
function l1ContractsFolder(): string {
  // The package exports only `dest/*.js`: find its root from one of them.
  const abi = createRequire(import.meta.url).resolve('@aztec/l1-artifacts/RollupAbi');
  return join(dirname(dirname(abi)), 'l1-contracts');
}

/**
 * The environment of the shipped forge script: the network defaults it ships (`generated/default.json`), with
 * the overrides of Aztec's local network (no committee, no slasher, the mock verifier) and the node's own slot
 * and epoch durations, fee asset price and genesis.
 */
export function deployScriptEnv(c: L1DeployConfig, contracts: string): Record<string, string> {
  // Read as text: the thresholds (1e20 and more) do not fit a double exactly, so numbers are kept as written.
  const text = readFileSync(join(contracts, 'generated', 'default.json'), 'utf8');
  const defaults: Record<string, string> = {};
  for (const [, key, value] of text.matchAll(/"([A-Z0-9_]+)"\s*:\s*("[^"]*"|[0-9.eE+-]+)/g)) {
    defaults[key as string] = (value as string).startsWith('"') ? (value as string).slice(1, -1) : (value as string);
  }
  return {
    ...defaults,
    NETWORK: 'local',
    AZTEC_SLOT_DURATION: String(c.slotDuration),
    AZTEC_EPOCH_DURATION: String(c.epochDuration),
    AZTEC_TARGET_COMMITTEE_SIZE: '0',
    AZTEC_SLASHER_FLAVOR: 'none',
    REAL_VERIFIER: 'false',
    INITIAL_VALIDATORS: '[]',
    AZTEC_INITIAL_ETH_PER_FEE_ASSET: c.initialEthPerFeeAsset.toString(),
    FEE_JUICE_PORTAL_INITIAL_BALANCE: c.feeJuicePortalInitialBalance.toString(),
    VK_TREE_ROOT: `0x${c.vkTreeRoot.toString(16).padStart(64, '0')}`,
    PROTOCOL_CONTRACTS_HASH: `0x${c.protocolContractsHash.toString(16).padStart(64, '0')}`,
    GENESIS_ARCHIVE_ROOT: `0x${c.genesisArchiveRoot.toString(16).padStart(64, '0')}`,
  };
}

/**
 * Deploys Aztec 4.1.2's L1 contracts as Aztec does: the shipped forge script
 * `script/deploy/DeployAztecL1Contracts.s.sol` run by forge 1.7.1 (from npm) against the L1, from a scratch
 * copy of the l1-contracts folder (timestamps kept, so forge's cache stays valid and nothing is compiled).
 * Offline: forge is kept from looking up solc. Answers the addresses the script reports.
 */
export async function deployL1Contracts(c: L1DeployConfig): Promise<DeployedL1ContractAddresses> {
  const contracts = l1ContractsFolder();
  const forge = foundryBinary('forge');
  const work = mkdtempSync(join(tmpdir(), 'l2node-l1-deploy-'));
  const t0 = performance.now();
  try {
    for (const entry of CONTRACT_FILES) {
      cpSync(join(contracts, entry), join(work, entry), { recursive: true, preserveTimestamps: true });
    }
    const solc = join(work, 'solc-version-probe-answer');
    writeFileSync(solc, SOLC_VERSION_PROBE_ANSWER);
    chmodSync(solc, 0o755);
    const args = ['script', 'script/deploy/DeployAztecL1Contracts.s.sol', '--sig', 'run()'];
    args.push('--rpc-url', c.rpcUrl, '--broadcast', '--offline', '--private-key', c.deployerPrivateKey);
    // One tx at a time, each after the previous one's receipt. Without it forge sends all ~33 at once; when
    // several land in one block (interval mining; automine too when they arrive faster than anvil mines, as on
    // a loaded machine) the ones past the 30M block gas limit are dropped by anvil, and forge waits for ever.
    args.push('--slow');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      // forge keeps its own files under HOME: the scratch folder, not the user's.
      HOME: work,
      FOUNDRY_SOLC: solc,
      ...deployScriptEnv(c, contracts),
    };
    c.log.info({ rpcUrl: c.rpcUrl, slotDuration: c.slotDuration, epochDuration: c.epochDuration }, 'deploying L1');
    const deployer = privateKeyToAccount(c.deployerPrivateKey as `0x${string}`).address;
    // undefined while the L1 does not answer: a stall, if it lasts.
    const confirmedTxs = () =>
      c.client
        .getTransactionCount({ address: deployer, blockTag: 'latest' })
        .then(BigInt)
        .catch(() => undefined);
    const output = await runForge(forge, args, work, env, confirmedTxs, c.log, c.signal);
    const line = output.split('\n').find((l) => l.trim().startsWith(RESULT_PREFIX));
    if (!line) throw new L1DeployError(`forge did not report the deployment; its output:\n${tail(output)}`);
    const addresses = addressesOfDeployResult(JSON.parse(line.trim().slice(RESULT_PREFIX.length)));
    c.log.info(
      { ms: Math.round(performance.now() - t0), ...addresses },
      `deployed Aztec's L1 contracts: rollup ${addresses.rollupAddress}`,
    );
    return addresses;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Runs forge and answers its output. Killed when the deployment stalls: `confirmedTxs` (the deployer's nonce on
 * L1) has not moved for DEPLOY_STALL_MS.
 */
function runForge(
  forge: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  confirmedTxs: () => Promise<bigint | undefined>,
  log: Logger,
  signal: AbortSignal | undefined,
) {
  return new Promise<string>((resolve, reject) => {
    if (signal?.aborted) return reject(new L1DeployError('the deployment was not started: the node is stopping'));
    const child = spawn(forge, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const onAbort = () => {
      child.kill('SIGKILL');
      reject(new L1DeployError('the deployment was given up: the node is stopping'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      // Bounded: the script prints a few kB; keep the end, where errors are.
      if (output.length > 1_000_000) output = output.slice(-200_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let lastCount: bigint | undefined;
    let lastMove = performance.now();
    const watchdog = setInterval(async () => {
      const count = await confirmedTxs();
      if (count !== undefined && count !== lastCount) {
        if (lastCount !== undefined) log.debug({ confirmedTxs: count.toString() }, 'L1 deployment progressing');
        lastCount = count;
        lastMove = performance.now();
      } else if (performance.now() - lastMove > DEPLOY_STALL_MS && child.exitCode === null) {
        child.kill('SIGKILL');
        reject(
          new L1DeployError(
            `forge's deployment stalled: the deployer confirmed no tx for ${DEPLOY_STALL_MS / 1000} s ` +
              `(nonce ${lastCount ?? 'unknown'}); its output:\n${tail(output)}`,
          ),
        );
      }
    }, PROGRESS_POLL_MS);
    child.once('error', (err) => {
      clearInterval(watchdog);
      signal?.removeEventListener('abort', onAbort);
      reject(new L1DeployError(`forge could not be run (${forge}): ${err.message}`));
    });
    child.once('exit', (code, exitSignal) => {
      clearInterval(watchdog);
      signal?.removeEventListener('abort', onAbort);
      log.debug({ forge: tail(output) }, 'forge output');
      if (code === 0) resolve(output);
      else reject(new L1DeployError(`forge failed (${exitSignal ?? `code ${code}`}):\n${tail(output)}`));
    });
  });
}

/** The last lines of forge's output, without the private key (it is not printed, but stay safe). */
function tail(output: string): string {
  return output
    .split('\n')
    .filter((l) => l.trim())
    .slice(-15)
    .join('\n')
    .replace(/0x[0-9a-fA-F]{64}/g, (m) => `${m.slice(0, 10)}…`);
}
