/**
 * Makes the published Aztec 4.1.2 libraries (`@aztec/stdlib`, `@aztec/foundation`) usable as a test oracle.
 *
 * Their asynchronous hashing goes through bb.js's `Barretenberg` singleton. Left to itself, that singleton
 * tries the native backend first, whose prebuilt binary needs a newer glibc than the reference machines
 * have, and every WebAssembly backend downloads the proving parameters (SRS) on start. Hashing needs
 * neither, so the SRS load is replaced with a no-op and the singleton is pinned to WebAssembly before any
 * stdlib code runs. Call `await initAztecOracle()` in a `beforeAll` of every test that uses stdlib's
 * hashes, `mockTx`, `Tx.computeTxHash`, `BlockHeader.hash()` and friends.
 */
import { BackendType, Barretenberg } from '@aztec/bb.js';

let ready: Promise<void> | undefined;

export function initAztecOracle(): Promise<void> {
  ready ??= (async () => {
    Barretenberg.prototype.initSRSChonk = async () => {};
    await Barretenberg.initSingleton({ backend: BackendType.Wasm });
  })();
  return ready;
}
