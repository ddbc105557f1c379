import { readFileSync } from 'node:fs';
import { selectorFromSignature } from '../../core/contract/selector-from-signature.js';
import { CliError } from './cli-error.js';
import { PublicDebugInfo } from './public-debug-info.js';

/** The parts of an aztec-nargo / noir-contracts.js artifact (NoirCompiledContract) that name and decode calls. */
interface AbiType {
  kind: string;
  length?: number;
  width?: number;
  sign?: string;
  type?: AbiType;
  fields?: { name: string; type: AbiType }[];
}

interface ArtifactFunction {
  name: string;
  custom_attributes?: string[];
  is_unconstrained?: boolean;
  abi: {
    parameters: { name: string; type: AbiType }[];
    return_type?: { abi_type: AbiType } | null;
    error_types?: Record<string, { error_kind: string; string?: string; length?: number; item_types?: AbiType[] }>;
  };
}

export interface PublicFunction {
  readonly name: string;
  readonly selector: number;
  readonly parameters: readonly { name: string; type: AbiType }[];
  readonly returnType: AbiType | undefined;
}

/** How the official client spells a parameter type in a function signature (4.1.2 FunctionSignatureDecoder). */
function signatureType(t: AbiType): string {
  switch (t.kind) {
    case 'field':
      return 'Field';
    case 'boolean':
      return 'bool';
    case 'integer':
      return `${t.sign === 'signed' ? 'i' : 'u'}${t.width}`;
    case 'string':
      return `str<${t.length}>`;
    case 'array':
      return `[${signatureType(t.type as AbiType)};${t.length}]`;
    case 'struct':
      return `(${(t.fields ?? []).map((f) => signatureType(f.type)).join(',')})`;
    case 'tuple':
      return `(${(t.fields ?? []).map((f) => signatureType(f.type)).join(',')})`;
    default:
      return t.kind;
  }
}

/** Field elements a value of this type takes in calldata. */
function fieldCount(t: AbiType): number {
  switch (t.kind) {
    case 'array':
      return (t.length ?? 0) * fieldCount(t.type as AbiType);
    case 'string':
      return t.length ?? 0;
    case 'struct':
    case 'tuple':
      return (t.fields ?? []).reduce((n, f) => n + fieldCount(f.type), 0);
    default:
      return 1;
  }
}

/** A value read from fields as the official client shows it: integers as decimals, structs as objects. */
function decodeValue(t: AbiType, fields: readonly bigint[], at: { i: number }): unknown {
  switch (t.kind) {
    case 'field':
      return `0x${(fields[at.i++] ?? 0n).toString(16).padStart(64, '0')}`;
    case 'boolean':
      return (fields[at.i++] ?? 0n) !== 0n;
    case 'integer': {
      let v = fields[at.i++] ?? 0n;
      if (t.sign === 'signed' && t.width !== undefined && v >= 1n << BigInt(t.width - 1)) v -= 1n << BigInt(t.width);
      return v.toString();
    }
    case 'string': {
      const chars = fields.slice(at.i, at.i + (t.length ?? 0));
      at.i += t.length ?? 0;
      return String.fromCharCode(...chars.map(Number));
    }
    case 'array':
      return Array.from({ length: t.length ?? 0 }, () => decodeValue(t.type as AbiType, fields, at));
    case 'struct': {
      const fs = t.fields ?? [];
      // An address-like struct of one field shows as that field.
      if (fs.length === 1 && (fs[0] as { type: AbiType }).type.kind === 'field')
        return decodeValue({ kind: 'field' }, fields, at);
      return Object.fromEntries(fs.map((f) => [f.name, decodeValue(f.type, fields, at)]));
    }
    case 'tuple':
      return (t.fields ?? []).map((f) => decodeValue(f.type, fields, at));
    default:
      return `0x${(fields[at.i++] ?? 0n).toString(16)}`;
  }
}

/**
 * A contract artifact loaded for the CLI: its public functions by selector (computed from their signatures, as
 * the official client does), their argument and return decoders, and the error types of its revert data.
 */
export class ContractArtifact {
  private readonly bySelector = new Map<number, PublicFunction>();
  private readonly errors = new Map<bigint, { error_kind: string; string?: string }>();

  constructor(
    readonly name: string,
    functions: readonly ArtifactFunction[],
    /** Maps the pcs of its public bytecode to Noir source, when the artifact carries debug information. */
    readonly debugInfo?: PublicDebugInfo,
  ) {
    for (const f of functions) {
      for (const [selector, type] of Object.entries(f.abi.error_types ?? {})) this.errors.set(BigInt(selector), type);
      const isPublic = f.custom_attributes?.includes('abi_public') ?? false;
      if (!isPublic || f.name === 'public_dispatch') continue;
      const signature = `${f.name}(${f.abi.parameters.map((p) => signatureType(p.type)).join(',')})`;
      const selector = selectorFromSignature(signature).value;
      this.bySelector.set(selector, {
        name: f.name,
        selector,
        parameters: f.abi.parameters,
        returnType: f.abi.return_type?.abi_type,
      });
    }
  }

  static load(path: string): ContractArtifact {
    let json: { name?: unknown; functions?: unknown };
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw CliError.usage(`--artifact ${path}: ${(err as Error).message}`);
    }
    if (!Array.isArray(json.functions) || typeof json.name !== 'string') {
      throw CliError.usage(`--artifact ${path} is not a contract artifact (no name and functions)`);
    }
    const functions = json.functions as ArtifactFunction[];
    const debugInfo = PublicDebugInfo.fromArtifact({ functions, file_map: (json as { file_map?: unknown }).file_map });
    return new ContractArtifact(json.name, functions, debugInfo);
  }

  functionAt(selector: number): PublicFunction | undefined {
    return this.bySelector.get(selector);
  }

  /** The arguments of a call (calldata without its selector), by parameter name. */
  decodeArgs(fn: PublicFunction, args: readonly bigint[]): Record<string, unknown> {
    const at = { i: 0 };
    return Object.fromEntries(fn.parameters.map((p) => [p.name, decodeValue(p.type, args, at)]));
  }

  decodeReturn(fn: PublicFunction, values: readonly bigint[]): unknown {
    if (!fn.returnType || values.length < fieldCount(fn.returnType)) return undefined;
    return decodeValue(fn.returnType, values, { i: 0 });
  }

  /**
   * The message of revert data: its first field is an error selector of the artifact; a string error is its
   * text, a formatted one its template followed by the values.
   */
  decodeRevert(revertData: readonly bigint[]): string | undefined {
    const [selector, ...rest] = revertData;
    if (selector === undefined) return undefined;
    const type = this.errors.get(selector);
    if (!type) return undefined;
    if (type.error_kind === 'string') return type.string;
    if (type.error_kind === 'fmtstring') {
      const text = String.fromCharCode(...rest.slice(0, rest.length).map((v) => Number(v & 0xffn)));
      return text;
    }
    return `${type.error_kind} error ${rest.map((v) => `0x${v.toString(16)}`).join(', ')}`;
  }
}
