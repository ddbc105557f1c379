import {
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  fallback,
  http,
  type PublicClient,
  type Transport,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** The L1 the node talks to: its JSON-RPC URLs (tried in order) and its chain id. */
export interface L1Endpoint {
  readonly rpcUrls: readonly string[];
  readonly chainId: number;
}

/** Seconds a single L1 request may take before it counts as failed (and the next URL is tried). */
const REQUEST_TIMEOUT_MS = 10_000;

export function l1Chain(endpoint: L1Endpoint): Chain {
  return defineChain({
    id: endpoint.chainId,
    name: `L1 ${endpoint.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [...endpoint.rpcUrls] } },
  });
}

function transport(endpoint: L1Endpoint): Transport {
  const each = endpoint.rpcUrls.map((url) => http(url, { timeout: REQUEST_TIMEOUT_MS, retryCount: 0 }));
  return each.length === 1 ? (each[0] as Transport) : fallback(each);
}

/** Reads from L1 (calls, logs, blocks). */
export function l1PublicClient(endpoint: L1Endpoint): PublicClient {
  // No caching: the node polls L1 tips itself and must see each new block.
  return createPublicClient({ chain: l1Chain(endpoint), transport: transport(endpoint), cacheTime: 0 }) as PublicClient;
}

/** Sends L1 txs from the account of `privateKey`. */
export function l1WalletClient(endpoint: L1Endpoint, privateKey: `0x${string}`) {
  return createWalletClient({
    chain: l1Chain(endpoint),
    transport: transport(endpoint),
    account: privateKeyToAccount(privateKey),
  });
}

/** anvil's first default account (mnemonic "test test … junk"): Aztec's local network deploys and proposes with it. */
export const ANVIL_FIRST_ACCOUNT_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
