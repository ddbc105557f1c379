/**
 * bb.js for the AVM oracle: the shared set-up (WebAssembly backend, no SRS download) for the asynchronous
 * Poseidon2 that stdlib hashes with, plus the synchronous singleton the simulator's Grumpkin ECADD uses. Every
 * helper in this folder awaits it before touching stdlib or the simulator.
 */
import { BackendType, BarretenbergSync } from '@aztec/bb.js';
import { initAztecOracle } from '../aztec-oracle.js';

let ready: Promise<void> | undefined;

export function initOracleCrypto(): Promise<void> {
  ready ??= (async () => {
    await initAztecOracle();
    await BarretenbergSync.initSingleton({ backend: BackendType.Wasm });
  })();
  return ready;
}
