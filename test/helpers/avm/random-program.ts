/**
 * Seeded random AVM programs for differential testing: valid encodings over a small memory region with mixed
 * tags, exercising arithmetic, bitwise, comparison, casts, forward jumps and bounded loops, internal calls,
 * calldata and return data, the gadgets, world-state opcodes, nested calls and debug logs, each program ending in
 * RETURN or REVERT. Operands mostly match the tags an opcode wants (so programs run deep), sometimes not (so tag
 * errors and other exceptional halts are exercised too). A program is a list of units (an instruction with the
 * SETs it needs, a jump over units, a loop, ...), which is what the shrinker drops when minimising a mismatch.
 *
 * Memory: cell 0 holds the relative-addressing base (U32); 1..3 hold U32 pointers to data cells (indirect
 * addressing); 4..7 the loop counter and its constants; 8..15 operands set just before use (sizes, gas, ...);
 * 16..111 data cells; 200..299 gadget inputs and outputs.
 */
import { type AsmInstruction, type AsmItem, assemble } from './avm-assembler.js';

export const FR_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** xorshift128: fast, seedable, plenty for test programs. */
export class Rng {
  private s: Uint32Array;
  constructor(seed: number) {
    this.s = new Uint32Array([seed ^ 0x9e3779b9, 0x243f6a88 ^ seed, 0xb7e15162, 0x85a308d3 + seed]);
    for (let i = 0; i < 16; i++) this.next();
  }
  next(): number {
    const s = this.s;
    let t = s[3];
    t ^= t << 11;
    t ^= t >>> 8;
    s[3] = s[2];
    s[2] = s[1];
    s[1] = s[0];
    t ^= s[0] ^ (s[0] >>> 19);
    s[0] = t;
    return t >>> 0;
  }
  int(n: number): number {
    return this.next() % n;
  }
  chance(p: number): boolean {
    return this.next() / 2 ** 32 < p;
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)];
  }
  bits(n: number): bigint {
    let v = 0n;
    for (let i = 0; i < n; i += 32) v = (v << 32n) | BigInt(this.next());
    return v & ((1n << BigInt(n)) - 1n);
  }
}

export const TAG = { FF: 0, U1: 1, U8: 2, U16: 3, U32: 4, U64: 5, U128: 6 } as const;
const BITS = [254, 1, 8, 16, 32, 64, 128];
const INTEGRAL = [1, 2, 3, 4, 5, 6];

/** A unit of a program: instructions (and labels) that only make sense together. */
export interface Unit {
  kind: string;
  items: AsmItem[];
  /** Units nested inside (a jump's or loop's body), kept separately so the shrinker can drop them one by one. */
  body?: Unit[];
  /** Items after the body (loop back-edge, jump label). */
  tail?: AsmItem[];
}

export interface RandomProgram {
  seed: number;
  prologue: Unit[];
  main: Unit[];
  terminator: Unit;
  subroutines: Unit[][];
}

/** Addresses the generated programs know about (set in the world by the test). */
export interface ProgramContext {
  /** Where the program itself is deployed (nested calls to it re-enter it). */
  self: bigint;
  /** A real contract (AvmTest) and one of its function selectors, for nested calls into real code. */
  other: bigint;
  otherSelector: bigint;
  /** An address with no contract. */
  missing: bigint;
  /** Leaves already in the note hash and L1-to-L2 trees, and nullifiers already in the tree (unsiloed values
   *  the program may look for). */
  noteHashes: bigint[];
  l1ToL2Messages: bigint[];
  siloedNullifiers: bigint[];
  storageSlots: bigint[];
}

const DATA = { from: 16, to: 112 };
const GADGET = 200;
const AUX = 8;
const LOOP = { counter: 4, one: 5, zero: 6, cond: 7 };

/** Grumpkin (y^2 = x^3 - 17 over the BN254 scalar field): the generator and its double. */
const G = { x: 1n, y: 17631683881184975370165255887551781615748388533673675138860n };
const G2 = doublePoint(G);

function modPow(b: bigint, e: bigint): bigint {
  let r = 1n;
  let x = b % FR_MODULUS;
  for (let k = e; k > 0n; k >>= 1n) {
    if (k & 1n) r = (r * x) % FR_MODULUS;
    x = (x * x) % FR_MODULUS;
  }
  return r;
}

function doublePoint(p: { x: bigint; y: bigint }): { x: bigint; y: bigint } {
  const m = FR_MODULUS;
  const lambda = (3n * p.x * p.x * modPow(2n * p.y, m - 2n)) % m;
  const x = (((lambda * lambda - 2n * p.x) % m) + m) % m;
  const y = (((lambda * (p.x - x) - p.y) % m) + m) % m;
  return { x, y };
}

class ProgramGenerator {
  private tags: number[] = [];
  private base = 0;
  private pointers: number[] = [];
  private labelCount = 0;
  private subroutines: Unit[][] = [];
  private inLoop = false;
  private depth = 0;

  private readonly rng: Rng;
  private readonly ctx: ProgramContext;

  constructor(rng: Rng, ctx: ProgramContext) {
    this.rng = rng;
    this.ctx = ctx;
  }

  private label(): string {
    return `L${this.labelCount++}`;
  }

  // --- operand choice ---

  /** A data cell, in 9 cases out of 10 one believed to hold `tag` (one of `tag`s) when there is such a cell. */
  private dataCell(tag?: number | readonly number[]): number {
    const r = this.rng;
    if (tag !== undefined && r.chance(0.9)) {
      const wanted = typeof tag === 'number' ? [tag] : tag;
      const candidates = [];
      for (let a = DATA.from; a < DATA.to; a++) if (wanted.includes(this.tagAt(a))) candidates.push(a);
      if (candidates.length > 0) return r.pick(candidates);
    }
    return DATA.from + r.int(DATA.to - DATA.from);
  }

  private tagAt(addr: number): number {
    return this.tags[addr] ?? TAG.FF;
  }

  /** Encodes an effective address as an operand: direct, relative, indirect through a pointer cell, or both. */
  private operand(addr: number, index: number, modes: { mode: number }, wide: boolean): bigint {
    const r = this.rng;
    const ptr = this.pointers.indexOf(addr);
    if (ptr >= 0 && r.chance(0.35)) {
      modes.mode |= 1 << (2 * index);
      const cell = 1 + ptr;
      if (this.base <= cell && r.chance(0.3)) {
        modes.mode |= 1 << (2 * index + 1);
        return BigInt(cell - this.base);
      }
      return BigInt(cell);
    }
    if (addr >= this.base && r.chance(0.12)) {
      modes.mode |= 1 << (2 * index + 1);
      return BigInt(addr - this.base);
    }
    if (!wide && addr > 255) throw new Error('8-bit operand out of range');
    return BigInt(addr);
  }

  /** An instruction over effective addresses (memory operands first, then immediates). */
  private instr(
    op8: string | undefined,
    op16: string,
    addrs: number[],
    imms: (bigint | string)[] = [],
  ): AsmInstruction {
    const narrow = op8 !== undefined && addrs.every((a) => a < 200) && this.rng.chance(0.5);
    const modes = { mode: 0 };
    const operands = addrs.map((a, i) => this.operand(a, i, modes, !narrow));
    // Now and then, mode bits on operand slots the instruction does not have: they are still charged.
    if (this.rng.chance(0.03)) modes.mode |= 1 << (2 * addrs.length + this.rng.int(2));
    return {
      op: narrow ? op8 : op16,
      mode:
        modes.mode &
        (op16 === 'CALL' || op16 === 'STATICCALL' || op16 === 'ECADD' || op16 === 'TORADIXBE' ? 0x3fff : 0xff),
      operands: [...operands, ...imms],
    };
  }

  private set(addr: number, tag: number, value: bigint): AsmInstruction {
    this.tags[addr] = tag;
    const masked = tag === TAG.FF ? value : value & ((1n << BigInt(BITS[tag])) - 1n);
    const op = addr < 256 && masked < 256n && this.rng.chance(0.5) ? 'SET_8' : this.setOpFor(masked);
    const modes = { mode: 0 };
    const operand = this.operand(addr, 0, modes, op !== 'SET_8');
    return { op, mode: modes.mode, operands: [operand, BigInt(tag), op === 'SET_8' ? masked & 0xffn : masked] };
  }

  private setOpFor(v: bigint): string {
    if (v < 1n << 16n) return 'SET_16';
    if (v < 1n << 32n) return 'SET_32';
    if (v < 1n << 64n) return 'SET_64';
    if (v < 1n << 128n) return 'SET_128';
    return 'SET_FF';
  }

  private randomValue(tag: number): bigint {
    const r = this.rng;
    const bits = BITS[tag];
    switch (r.int(5)) {
      case 0:
        return BigInt(r.int(4));
      case 1:
        return tag === TAG.FF ? FR_MODULUS - 1n - BigInt(r.int(3)) : (1n << BigInt(bits)) - 1n - BigInt(r.int(3));
      case 2:
        return BigInt(r.int(300));
      default:
        return tag === TAG.FF ? r.bits(256) % FR_MODULUS : r.bits(bits);
    }
  }

  private randomTag(): number {
    return this.rng.int(7);
  }

  // --- units ---

  prologue(): Unit[] {
    const r = this.rng;
    const units: Unit[] = [];
    this.base = r.pick([0, 0, 1, 3]);
    this.tags[0] = TAG.U32;
    units.push({ kind: 'base', items: [{ op: 'SET_8', mode: 0, operands: [0n, BigInt(TAG.U32), BigInt(this.base)] }] });
    const items: AsmItem[] = [];
    for (let p = 1; p <= 3; p++) {
      const target = DATA.from + r.int(DATA.to - DATA.from);
      this.pointers.push(target);
      this.tags[p] = TAG.U32;
      items.push({ op: 'SET_8', mode: 0, operands: [BigInt(p), BigInt(TAG.U32), BigInt(target)] });
    }
    units.push({ kind: 'pointers', items });
    const seeds: AsmItem[] = [];
    for (let i = 0; i < 6; i++) {
      const tag = this.randomTag();
      seeds.push(this.set(this.dataCell(), tag, this.randomValue(tag)));
    }
    units.push({ kind: 'seed', items: seeds });
    return units;
  }

  unit(): Unit {
    const r = this.rng;
    const roll = r.int(100);
    if (roll < 16) return this.setUnit();
    if (roll < 40) return this.binary();
    if (roll < 45) return this.unaryOrCast();
    if (roll < 48) return this.mov();
    if (roll < 51) return this.envVar();
    if (roll < 54) return this.calldataCopy();
    if (roll < 58) return this.jumpOver();
    if (roll < 61 && !this.inLoop && this.depth === 0) return this.loop();
    if (roll < 64 && this.depth < 2) return this.internalCall();
    if (roll < 72) return this.gadget();
    if (roll < 88) return this.worldState();
    if (roll < 94) return this.externalCall();
    if (roll < 97) return this.returnData();
    return this.debugLog();
  }

  private setUnit(): Unit {
    const tag = this.randomTag();
    return { kind: 'set', items: [this.set(this.dataCell(), tag, this.randomValue(tag))] };
  }

  private binary(): Unit {
    const r = this.rng;
    const op = r.pick(['ADD', 'SUB', 'MUL', 'DIV', 'FDIV', 'EQ', 'LT', 'LTE', 'AND', 'OR', 'XOR', 'SHL', 'SHR']);
    const integral = ['DIV', 'AND', 'OR', 'XOR', 'SHL', 'SHR'].includes(op);
    const wanted = op === 'FDIV' ? TAG.FF : integral ? INTEGRAL : undefined;
    const a = this.dataCell(wanted);
    const b = this.dataCell(this.tagAt(a));
    const dst = this.dataCell();
    const instr = this.instr(`${op}_8`, `${op}_16`, [a, b, dst]);
    this.tags[dst] = ['EQ', 'LT', 'LTE'].includes(op) ? TAG.U1 : this.tagAt(a);
    return { kind: op, items: [instr] };
  }

  private unaryOrCast(): Unit {
    const r = this.rng;
    const src = this.dataCell(r.chance(0.7) ? INTEGRAL : undefined);
    const dst = this.dataCell();
    if (r.chance(0.5)) {
      const instr = this.instr('NOT_8', 'NOT_16', [src, dst]);
      this.tags[dst] = this.tagAt(src);
      return { kind: 'NOT', items: [instr] };
    }
    const tag = this.randomTag();
    const instr = this.instr('CAST_8', 'CAST_16', [src, dst], [BigInt(tag)]);
    this.tags[dst] = tag;
    return { kind: 'CAST', items: [instr] };
  }

  private mov(): Unit {
    const src = this.dataCell();
    const dst = this.dataCell();
    const instr = this.instr('MOV_8', 'MOV_16', [src, dst]);
    this.tags[dst] = this.tagAt(src);
    return { kind: 'MOV', items: [instr] };
  }

  private envVar(): Unit {
    const r = this.rng;
    const which = r.chance(0.95) ? r.int(12) : 12 + r.int(3);
    const dst = this.dataCell();
    const instr = this.instr(undefined, 'GETENVVAR_16', [dst], [BigInt(which)]);
    this.tags[dst] = [0, 0, 0, 0, 0, 4, 5, 6, 6, 1, 4, 4][which] ?? TAG.FF;
    return { kind: 'GETENVVAR', items: [instr] };
  }

  private u32(addr: number, value: number | bigint): AsmInstruction {
    return this.set(addr, this.rng.chance(0.99) ? TAG.U32 : this.randomTag(), BigInt(value));
  }

  private calldataCopy(): Unit {
    const r = this.rng;
    const size = r.int(6);
    const dst = DATA.from + r.int(DATA.to - DATA.from - size);
    const items = [this.u32(AUX, size), this.u32(AUX + 1, r.int(6))];
    items.push(this.instr(undefined, 'CALLDATACOPY', [AUX, AUX + 1, dst]));
    for (let i = 0; i < size; i++) this.tags[dst + i] = TAG.FF;
    return { kind: 'CALLDATACOPY', items };
  }

  private returnData(): Unit {
    const r = this.rng;
    const dst = this.dataCell();
    const k = r.int(3);
    if (k === 0) {
      this.tags[dst] = TAG.U1;
      return { kind: 'SUCCESSCOPY', items: [this.instr(undefined, 'SUCCESSCOPY', [dst])] };
    }
    if (k === 1) {
      this.tags[dst] = TAG.U32;
      return { kind: 'RETURNDATASIZE', items: [this.instr(undefined, 'RETURNDATASIZE', [dst])] };
    }
    const size = r.int(4);
    const to = DATA.from + r.int(DATA.to - DATA.from - size);
    const items = [this.u32(AUX, size), this.u32(AUX + 1, r.int(3))];
    items.push(this.instr(undefined, 'RETURNDATACOPY', [AUX, AUX + 1, to]));
    for (let i = 0; i < size; i++) this.tags[to + i] = TAG.FF;
    return { kind: 'RETURNDATACOPY', items };
  }

  private body(n: number): Unit[] {
    this.depth++;
    const units = [];
    for (let i = 0; i < n; i++) units.push(this.unit());
    this.depth--;
    return units;
  }

  private jumpOver(): Unit {
    const r = this.rng;
    const end = this.label();
    if (r.chance(0.4)) {
      return {
        kind: 'JUMP',
        items: [{ op: 'JUMP_32', operands: [end] }],
        body: this.body(1 + r.int(2)),
        tail: [{ label: end }],
      };
    }
    // JUMPI on a condition computed here (U1), or on whatever a data cell holds (a tag error unless U1).
    const items: AsmItem[] = [];
    let cond: number;
    if (r.chance(0.8)) {
      cond = AUX + 2;
      items.push(this.set(cond, TAG.U1, BigInt(r.int(2))));
    } else cond = this.dataCell(TAG.U1);
    items.push(this.instr(undefined, 'JUMPI_32', [cond], [end]));
    return { kind: 'JUMPI', items, body: this.body(1 + r.int(2)), tail: [{ label: end }] };
  }

  private loop(): Unit {
    const r = this.rng;
    const start = this.label();
    const end = this.label();
    const items: AsmItem[] = [
      this.set(LOOP.counter, TAG.U32, BigInt(1 + r.int(3))),
      this.set(LOOP.one, TAG.U32, 1n),
      this.set(LOOP.zero, TAG.U32, 0n),
      { label: start },
    ];
    this.inLoop = true;
    const body = this.body(1 + r.int(3));
    this.inLoop = false;
    const tail: AsmItem[] = [
      { op: 'SUB_8', mode: 0, operands: [BigInt(LOOP.counter), BigInt(LOOP.one), BigInt(LOOP.counter)] },
      { op: 'EQ_8', mode: 0, operands: [BigInt(LOOP.counter), BigInt(LOOP.zero), BigInt(LOOP.cond)] },
      { op: 'JUMPI_32', mode: 0, operands: [BigInt(LOOP.cond), end] },
      { op: 'JUMP_32', operands: [start] },
      { label: end },
    ];
    return { kind: 'LOOP', items, body, tail };
  }

  private internalCall(): Unit {
    const r = this.rng;
    if (r.chance(0.05)) return { kind: 'INTERNALRETURN', items: [{ op: 'INTERNALRETURN', operands: [] }] };
    const name = `S${this.subroutines.length}`;
    const sub: Unit[] = [];
    this.subroutines.push(sub);
    sub.push({ kind: 'entry', items: [{ label: name }] });
    sub.push(...this.body(1 + r.int(3)));
    sub.push({ kind: 'INTERNALRETURN', items: [{ op: 'INTERNALRETURN', operands: [] }] });
    return { kind: 'INTERNALCALL', items: [{ op: 'INTERNALCALL', operands: [name] }] };
  }

  private fill(from: number, n: number, tag: number, value: () => bigint): AsmItem[] {
    const items: AsmItem[] = [];
    for (let i = 0; i < n; i++)
      items.push(this.set(from + i, this.rng.chance(0.997) ? tag : this.randomTag(), value()));
    return items;
  }

  private gadget(): Unit {
    const r = this.rng;
    switch (r.int(5)) {
      case 0: {
        const items = this.fill(GADGET, 4, TAG.FF, () => this.randomValue(TAG.FF));
        items.push(this.instr(undefined, 'POSEIDON2', [GADGET, GADGET + 4]));
        for (let i = 0; i < 4; i++) this.tags[GADGET + 4 + i] = TAG.FF;
        return { kind: 'POSEIDON2', items };
      }
      case 1: {
        const items = [
          ...this.fill(GADGET, 8, TAG.U32, () => r.bits(32)),
          ...this.fill(GADGET + 8, 16, TAG.U32, () => r.bits(32)),
        ];
        items.push(this.instr(undefined, 'SHA256COMPRESSION', [GADGET + 24, GADGET, GADGET + 8]));
        return { kind: 'SHA256COMPRESSION', items };
      }
      case 2: {
        const items = this.fill(GADGET, 25, TAG.U64, () => r.bits(64));
        items.push(this.instr(undefined, 'KECCAKF1600', [GADGET + 25, GADGET]));
        return { kind: 'KECCAKF1600', items };
      }
      case 3: {
        const point = () =>
          r.pick([
            { ...G, inf: 0n },
            { ...G2, inf: 0n },
            { x: 0n, y: 0n, inf: 1n },
            { x: G.x, y: FR_MODULUS - G.y, inf: 0n },
            { x: this.randomValue(TAG.FF), y: this.randomValue(TAG.FF), inf: BigInt(r.int(2)) },
          ]);
        const p1 = point();
        const p2 = r.chance(0.2) ? p1 : point();
        const items = [
          this.set(GADGET, TAG.FF, p1.x),
          this.set(GADGET + 1, TAG.FF, p1.y),
          this.set(GADGET + 2, r.chance(0.97) ? TAG.U1 : TAG.U8, p1.inf),
          this.set(GADGET + 3, TAG.FF, p2.x),
          this.set(GADGET + 4, TAG.FF, p2.y),
          this.set(GADGET + 5, TAG.U1, p2.inf),
        ];
        items.push(
          this.instr(undefined, 'ECADD', [
            GADGET,
            GADGET + 1,
            GADGET + 2,
            GADGET + 3,
            GADGET + 4,
            GADGET + 5,
            GADGET + 10,
          ]),
        );
        return { kind: 'ECADD', items };
      }
      default: {
        const radix = r.chance(0.8) ? r.pick([2, 2, 10, 16, 256, 3, 7]) : r.int(300);
        const limbs = r.chance(0.1) ? 0 : 1 + r.int(40);
        const value = r.chance(0.5) ? BigInt(r.int(1000)) : this.randomValue(TAG.FF);
        const items = [
          this.set(AUX + 3, TAG.FF, value),
          this.u32(AUX + 4, radix),
          this.u32(AUX + 5, limbs),
          this.set(AUX + 6, TAG.U1, radix === 2 && r.chance(0.5) ? 1n : r.chance(0.05) ? 1n : 0n),
        ];
        items.push(this.instr(undefined, 'TORADIXBE', [AUX + 3, AUX + 4, AUX + 5, AUX + 6, GADGET + 50]));
        return { kind: 'TORADIXBE', items };
      }
    }
  }

  private ff(addr: number, value: bigint): AsmInstruction {
    return this.set(addr, this.rng.chance(0.99) ? TAG.FF : this.randomTag(), value);
  }

  private worldState(): Unit {
    const r = this.rng;
    const c = this.ctx;
    const dst = this.dataCell();
    const slot = () => (r.chance(0.7) ? r.pick(c.storageSlots) : this.randomValue(TAG.FF));
    switch (r.int(11)) {
      case 0: {
        const items = [this.ff(AUX, slot()), this.ff(AUX + 1, r.pick([c.self, c.self, c.other, 0n]))];
        items.push(this.instr(undefined, 'SLOAD', [AUX, AUX + 1, dst]));
        this.tags[dst] = TAG.FF;
        return { kind: 'SLOAD', items };
      }
      case 1:
      case 2: {
        const items = [this.ff(AUX, slot())];
        const src = r.chance(0.8) ? this.dataCell(TAG.FF) : this.dataCell();
        items.push(this.instr(undefined, 'SSTORE', [src, AUX]));
        return { kind: 'SSTORE', items };
      }
      case 3: {
        // Indices inside the tree, or beyond the tree's capacity (both handled the same by every simulator).
        const index = r.chance(0.85) ? BigInt(r.int(c.noteHashes.length)) : (1n << 42n) + 1n + BigInt(r.int(5));
        const value = r.chance(0.5) ? c.noteHashes[Number(index % BigInt(c.noteHashes.length))] : BigInt(r.int(9));
        const items = [this.ff(AUX, value), this.set(AUX + 1, r.chance(0.97) ? TAG.U64 : TAG.U32, index)];
        items.push(this.instr(undefined, 'NOTEHASHEXISTS', [AUX, AUX + 1, dst]));
        this.tags[dst] = TAG.U1;
        return { kind: 'NOTEHASHEXISTS', items };
      }
      case 4: {
        const items = [this.ff(AUX, BigInt(r.int(5)))];
        items.push(this.instr(undefined, 'EMITNOTEHASH', [AUX]));
        return { kind: 'EMITNOTEHASH', items };
      }
      case 5: {
        const value = r.chance(0.5) ? r.pick(c.siloedNullifiers) : BigInt(r.int(5));
        const items = [this.ff(AUX, value)];
        items.push(this.instr(undefined, 'NULLIFIEREXISTS', [AUX, dst]));
        this.tags[dst] = TAG.U1;
        return { kind: 'NULLIFIEREXISTS', items };
      }
      case 6: {
        const items = [this.ff(AUX, BigInt(r.int(4)))];
        items.push(this.instr(undefined, 'EMITNULLIFIER', [AUX]));
        return { kind: 'EMITNULLIFIER', items };
      }
      case 7: {
        const index = r.chance(0.85) ? BigInt(r.int(c.l1ToL2Messages.length)) : (1n << 36n) + 1n + BigInt(r.int(5));
        const value = r.chance(0.5) ? c.l1ToL2Messages[Number(index % BigInt(c.l1ToL2Messages.length))] : 7n;
        const items = [this.ff(AUX, value), this.set(AUX + 1, r.chance(0.97) ? TAG.U64 : TAG.FF, index)];
        items.push(this.instr(undefined, 'L1TOL2MSGEXISTS', [AUX, AUX + 1, dst]));
        this.tags[dst] = TAG.U1;
        return { kind: 'L1TOL2MSGEXISTS', items };
      }
      case 8: {
        const member = r.chance(0.95) ? r.int(3) : 3 + r.int(3);
        const items = [this.ff(AUX, r.pick([c.self, c.other, c.missing, 1n, 5n]))];
        const to = DATA.from + r.int(DATA.to - DATA.from - 1);
        items.push(this.instr(undefined, 'GETCONTRACTINSTANCE', [AUX, to], [BigInt(member)]));
        this.tags[to] = TAG.U1;
        this.tags[to + 1] = TAG.FF;
        return { kind: 'GETCONTRACTINSTANCE', items };
      }
      case 9: {
        const size = r.int(4);
        const from = DATA.from + r.int(DATA.to - DATA.from - size);
        const items = [this.u32(AUX, size), ...this.fill(from, size, TAG.FF, () => this.randomValue(TAG.FF))];
        items.push(this.instr(undefined, 'EMITPUBLICLOG', [AUX, from]));
        return { kind: 'EMITPUBLICLOG', items };
      }
      default: {
        const recipient = r.chance(0.9) ? r.bits(160) : (1n << 160n) + BigInt(r.int(9));
        const items = [this.ff(AUX, recipient), this.ff(AUX + 1, this.randomValue(TAG.FF))];
        items.push(this.instr(undefined, 'SENDL2TOL1MSG', [AUX, AUX + 1]));
        return { kind: 'SENDL2TOL1MSG', items };
      }
    }
  }

  private externalCall(): Unit {
    const r = this.rng;
    const c = this.ctx;
    const target = r.pick([c.self, c.other, c.other, c.missing]);
    // Re-entering the program gets little gas, so the recursion stays shallow.
    const l2 = target === c.self ? 2_000 + r.int(30_000) : r.chance(0.7) ? 1_000_000 : r.int(40_000);
    const argsSize = r.int(4);
    const args = DATA.from + r.int(DATA.to - DATA.from - argsSize);
    const items: AsmItem[] = [
      this.u32(AUX, l2),
      this.u32(AUX + 1, r.chance(0.8) ? 100_000 : r.int(100)),
      this.ff(AUX + 2, target),
      this.u32(AUX + 3, argsSize),
    ];
    if (target === c.other && argsSize > 0 && r.chance(0.7)) items.push(this.set(args, TAG.FF, c.otherSelector));
    const op = r.chance(0.7) ? 'CALL' : 'STATICCALL';
    items.push(this.instr(undefined, op, [AUX, AUX + 1, AUX + 2, AUX + 3, args]));
    return { kind: op, items };
  }

  private debugLog(): Unit {
    const r = this.rng;
    const items = [this.set(AUX, TAG.U8, BigInt(r.int(8))), this.u32(AUX + 1, r.int(3))];
    items.push(this.instr(undefined, 'DEBUGLOG', [AUX, this.dataCell(), this.dataCell(), AUX + 1], [BigInt(r.int(4))]));
    return { kind: 'DEBUGLOG', items };
  }

  terminator(): Unit {
    const r = this.rng;
    const size = r.int(5);
    const from = DATA.from + r.int(DATA.to - DATA.from - size);
    const items = [this.u32(AUX + 7, size)];
    const op = r.chance(0.8) ? 'RETURN' : r.chance(0.5) ? 'REVERT_8' : 'REVERT_16';
    items.push(
      this.instr(op === 'REVERT_8' ? 'REVERT_8' : undefined, op === 'REVERT_8' ? 'REVERT_16' : op, [AUX + 7, from]),
    );
    return { kind: op, items };
  }

  takeSubroutines(): Unit[][] {
    return this.subroutines;
  }
}

/** A program of about `length` top-level units from `seed`. */
export function randomProgram(seed: number, ctx: ProgramContext, length = 4 + (seed % 12)): RandomProgram {
  const rng = new Rng(seed);
  const g = new ProgramGenerator(rng, ctx);
  const prologue = g.prologue();
  const main: Unit[] = [];
  for (let i = 0; i < length; i++) main.push(g.unit());
  const terminator = g.terminator();
  return { seed, prologue, main, terminator, subroutines: g.takeSubroutines() };
}

function flatten(units: Unit[]): AsmItem[] {
  const out: AsmItem[] = [];
  for (const u of units) {
    out.push(...u.items);
    if (u.body) out.push(...flatten(u.body));
    if (u.tail) out.push(...u.tail);
  }
  return out;
}

export function programBytecode(p: RandomProgram): Uint8Array {
  return assemble([
    ...flatten(p.prologue),
    ...flatten(p.main),
    ...p.terminator.items,
    ...p.subroutines.flatMap((s) => flatten(s)),
  ]);
}

/**
 * Every program one step smaller than `p`: one unit (at any nesting level) removed. Subroutine entry labels and
 * returns stay, so every internal call keeps its target.
 */
export function* smallerPrograms(p: RandomProgram): Generator<RandomProgram> {
  function* without(units: Unit[], keep: (u: Unit) => boolean): Generator<Unit[]> {
    for (let i = 0; i < units.length; i++) {
      if (keep(units[i])) continue;
      yield [...units.slice(0, i), ...units.slice(i + 1)];
    }
    for (let i = 0; i < units.length; i++) {
      const u = units[i];
      if (!u.body) continue;
      for (const body of without(u.body, keep)) yield [...units.slice(0, i), { ...u, body }, ...units.slice(i + 1)];
    }
  }
  const none = () => false;
  for (const main of without(p.main, none)) yield { ...p, main };
  for (const prologue of without(p.prologue, (u) => u.kind === 'base')) yield { ...p, prologue };
  const structural = (u: Unit) => u.kind === 'entry' || u.kind === 'INTERNALRETURN';
  for (let s = 0; s < p.subroutines.length; s++) {
    for (const sub of without(p.subroutines[s], structural)) {
      const subroutines = p.subroutines.slice();
      subroutines[s] = sub;
      yield { ...p, subroutines };
    }
  }
}

/**
 * Drops units while `stillFails` holds; returns a program from which no single unit can be removed without the
 * failure going away.
 */
export async function shrinkProgram(
  p: RandomProgram,
  stillFails: (candidate: RandomProgram) => Promise<boolean>,
): Promise<RandomProgram> {
  let current = p;
  for (;;) {
    let smaller: RandomProgram | undefined;
    for (const candidate of smallerPrograms(current)) {
      if (await stillFails(candidate)) {
        smaller = candidate;
        break;
      }
    }
    if (smaller === undefined) return current;
    current = smaller;
  }
}
