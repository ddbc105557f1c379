import { inflateRawSync } from 'node:zlib';

/** One frame of a Noir call stack: where in the contract's source an AVM pc comes from. */
export interface SourceFrame {
  readonly path: string;
  /** 1-based, as editors count. */
  readonly line: number;
  readonly column: number;
  /** The source text the location spans (its first line). */
  readonly text: string;
}

interface LocationNode {
  readonly parent: number | null;
  readonly value: { readonly span: { readonly start: number; readonly end: number }; readonly file: number };
}

interface DebugInfo {
  readonly brillig_locations?: Record<string, Record<string, number>>;
  readonly location_tree?: { readonly locations: readonly LocationNode[] };
}

interface SourceFile {
  readonly path: string;
  readonly source: string;
}

/**
 * The debug information of a contract's public bytecode, as aztec-nargo's transpiler leaves it in the artifact:
 * `public_dispatch` (which holds every public function) carries `debug_symbols` (base64 of raw-deflated JSON) whose
 * `brillig_locations` map AVM pcs to nodes of a location tree (each a span in a file of the artifact's
 * `file_map`, with its caller as parent). Following a failing pc up that tree gives the Noir call stack, as the
 * official client resolves it.
 */
export class PublicDebugInfo {
  private constructor(
    private readonly pcs: ReadonlyMap<number, number>,
    private readonly locations: readonly LocationNode[],
    private readonly files: Readonly<Record<string, SourceFile>>,
  ) {}

  /** Undefined when the artifact has no debug information for its public bytecode. */
  static fromArtifact(json: {
    functions: readonly { name: string; debug_symbols?: unknown }[];
    file_map?: unknown;
  }): PublicDebugInfo | undefined {
    const dispatch = json.functions.find((f) => f.name === 'public_dispatch');
    if (typeof dispatch?.debug_symbols !== 'string' || typeof json.file_map !== 'object' || !json.file_map) {
      return undefined;
    }
    let info: DebugInfo | undefined;
    try {
      const parsed = JSON.parse(inflateRawSync(Buffer.from(dispatch.debug_symbols, 'base64')).toString('utf8'));
      info = (parsed as { debug_infos?: DebugInfo[] }).debug_infos?.[0];
    } catch {
      return undefined;
    }
    const byPc = info?.brillig_locations?.['0'];
    const locations = info?.location_tree?.locations;
    if (!byPc || !locations) return undefined;
    const pcs = new Map(Object.entries(byPc).map(([pc, loc]) => [Number(pc), loc]));
    return new PublicDebugInfo(pcs, locations, json.file_map as Record<string, SourceFile>);
  }

  /**
   * The Noir call stack of a revert, outermost first. `noirCallStack` is the trace's: `0.<pc>` per internal call
   * still open, then the failing pc. A pc the transpiler gave no location of (an instruction it added) takes the
   * nearest located pc before it.
   */
  callStack(noirCallStack: readonly string[]): SourceFrame[] {
    const frames: SourceFrame[] = [];
    for (const entry of noirCallStack) {
      const pc = Number(entry.split('.').at(-1));
      if (!Number.isInteger(pc)) continue;
      frames.push(...this.framesAt(pc));
    }
    return frames;
  }

  private framesAt(pc: number): SourceFrame[] {
    let at = this.pcs.get(pc);
    if (at === undefined) {
      let best = -1;
      for (const known of this.pcs.keys()) if (known <= pc && known > best) best = known;
      at = best < 0 ? undefined : this.pcs.get(best);
    }
    const chain: SourceFrame[] = [];
    for (let id: number | null | undefined = at; id !== undefined && id !== null; ) {
      const node: LocationNode | undefined = this.locations[id];
      if (!node) break;
      const frame = this.frameOf(node);
      if (frame) chain.push(frame);
      id = node.parent;
    }
    return chain.reverse();
  }

  private frameOf(node: LocationNode): SourceFrame | undefined {
    const file = this.files[String(node.value.file)];
    const { start, end } = node.value.span;
    if (!file || (start === 0 && end === 0)) return undefined;
    const before = file.source.slice(0, start);
    const line = before.split('\n').length;
    const column = start - before.lastIndexOf('\n');
    const text = file.source.slice(start, end).split('\n')[0] ?? '';
    return { path: file.path, line, column, text };
  }
}
