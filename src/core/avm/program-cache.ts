/**
 * Decoded programs kept across calls and txs, so each contract class's bytecode is decoded once. Keyed by class
 * id (checked against the bytes); bounded, dropping the least recently used class.
 */
import { AvmProgram } from './decoder.js';

export class AvmProgramCache {
  private readonly byClass = new Map<bigint, AvmProgram>();
  private readonly byBytes = new WeakMap<Uint8Array, AvmProgram>();

  constructor(readonly maxClasses = 256) {}

  /** The program of a class's bytecode. */
  forClass(classId: bigint, bytecode: Uint8Array): AvmProgram {
    const hit = this.byClass.get(classId);
    if (hit !== undefined && sameBytes(hit.bytecode, bytecode)) {
      // Refresh its position for LRU eviction.
      this.byClass.delete(classId);
      this.byClass.set(classId, hit);
      return hit;
    }
    const program = this.forBytecode(bytecode);
    this.byClass.set(classId, program);
    if (this.byClass.size > this.maxClasses) {
      const oldest = this.byClass.keys().next().value as bigint;
      this.byClass.delete(oldest);
    }
    return program;
  }

  /** The program of a raw bytecode buffer (cached while the buffer lives). */
  forBytecode(bytecode: Uint8Array): AvmProgram {
    let program = this.byBytes.get(bytecode);
    if (program === undefined) {
      program = new AvmProgram(bytecode);
      this.byBytes.set(bytecode, program);
    }
    return program;
  }
}

/**
 * A class id commits to its bytecode, but a contract source (a test world, a store mid-reorg) may still hand out
 * different bytes under one id; comparing costs a memcmp, and a stale program would run the wrong code.
 */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/** The process-wide cache used when a caller brings none. */
export const DEFAULT_PROGRAM_CACHE = new AvmProgramCache();
