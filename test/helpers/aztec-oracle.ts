/**
 * Makes the published Aztec 4.1.2 libraries (`@aztec/stdlib`, `@aztec/foundation`) usable as a test oracle.
 *
 * Their asynchronous hashing goes through bb.js's `Barretenberg` singleton. Left to itself, that singleton
 * tries the native backend first, whose prebuilt binary needs a newer glibc than the reference machines
 * have, and every WebAssembly backend downloads the proving parameters (SRS) on start. Hashing needs
 * neither: the singletons are pinned to WebAssembly without the SRS before any stdlib code runs, as the
 * node's own wallet stack does (src/daemon/dev/official-wallet.ts). Call `await initAztecOracle()` in a
 * `beforeAll` of every test that uses stdlib's hashes, `mockTx`, `Tx.computeTxHash`, `BlockHeader.hash()` and
 * friends.
 */
import { initWasmBackends } from '../../src/daemon/dev/official-wallet.js';

export function initAztecOracle(): Promise<void> {
  return initWasmBackends();
}
