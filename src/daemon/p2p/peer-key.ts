import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where the peer key lives when no path is set: beside the database, in the node's data directory. */
export function defaultPeerKeyPath(dataDirectory: string): string {
  return join(dataDirectory, 'p2p', 'peer-key');
}

/**
 * The node's secp256k1 peer key (32 bytes): its libp2p peer id and the key its ENR is signed with, so it must
 * stay the same across restarts (peers and bootstrap lists know the node by it). Read from `path` (64 hex
 * digits, an optional 0x); made once and written there with mode 0600 when the file is absent. Without a path
 * (a node in memory) a new key lives only as long as the process.
 */
export function loadOrCreatePeerKey(path: string | undefined): { key: Uint8Array; created: boolean } {
  if (path !== undefined && existsSync(path)) {
    const text = readFileSync(path, 'utf8').trim().replace(/^0x/, '');
    if (!/^[0-9a-fA-F]{64}$/.test(text)) {
      throw new Error(`the peer key file ${path} must hold 64 hex digits (a secp256k1 private key)`);
    }
    const key = Uint8Array.from(Buffer.from(text, 'hex'));
    if (!isValidPrivateKey(key)) {
      throw new Error(`the peer key file ${path} does not hold a valid secp256k1 private key`);
    }
    return { key, created: false };
  }
  let key: Uint8Array;
  do key = Uint8Array.from(randomBytes(32));
  while (!isValidPrivateKey(key));
  if (path !== undefined) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${Buffer.from(key).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    // The mode given to writeFileSync is masked by the umask; the key must be readable by its owner alone.
    chmodSync(path, 0o600);
  }
  return { key, created: path !== undefined };
}

/** secp256k1's group order n: a private key is an integer in [1, n-1]. */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * Whether 32 bytes are a valid secp256k1 private key. Checked here rather than through @noble/curves so that a
 * node starts without loading the curve library until its P2P stack needs it.
 */
function isValidPrivateKey(key: Uint8Array): boolean {
  if (key.length !== 32) return false;
  const k = BigInt(`0x${Buffer.from(key).toString('hex')}`);
  return k > 0n && k < SECP256K1_ORDER;
}
