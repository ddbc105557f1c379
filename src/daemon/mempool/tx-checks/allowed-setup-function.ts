import { AztecAddress } from '../../../core/aztec-address.js';
import { FunctionSelector } from '../../../core/contract/function-selector.js';
import { Fr } from '../../../core/fr.js';

/** Restrictions an allow-list entry puts on a matching setup call (docs/aztec-facts.md section 2.8). */
export interface AllowedSetupRestrictions {
  /** The call must come from the contract itself (msgSender = contract address). */
  readonly onlySelf?: boolean;
  /** The call must not come from the null msg sender (p - 1). */
  readonly rejectNullMsgSender?: boolean;
  /** Exact calldata length, the selector included. */
  readonly calldataLength?: number;
}

/**
 * A public function allowed in a tx's setup phase, matched by contract address or by contract class
 * (4.1.2 AllowedElement).
 */
export type AllowedSetupFunction =
  | ({ readonly address: AztecAddress; readonly selector: FunctionSelector } & AllowedSetupRestrictions)
  | ({ readonly classId: Fr; readonly selector: FunctionSelector } & AllowedSetupRestrictions);

/** The wire form of node_getAllowedPublicSetup entries: optional keys left out when unset. */
export interface AllowedSetupFunctionJson {
  address?: string;
  classId?: string;
  selector: string;
  onlySelf?: boolean;
  rejectNullMsgSender?: boolean;
  calldataLength?: number;
}

export function allowedSetupFunctionToJson(e: AllowedSetupFunction): AllowedSetupFunctionJson {
  const out: AllowedSetupFunctionJson =
    'address' in e
      ? { address: e.address.toString(), selector: e.selector.toString() }
      : { classId: e.classId.toString(), selector: e.selector.toString() };
  if (e.onlySelf !== undefined) out.onlySelf = e.onlySelf;
  if (e.rejectNullMsgSender !== undefined) out.rejectNullMsgSender = e.rejectNullMsgSender;
  if (e.calldataLength !== undefined) out.calldataLength = e.calldataLength;
  return out;
}

/**
 * Parses the allow-list extension setting, 4.1.2's TX_PUBLIC_SETUP_ALLOWLIST format: comma-separated
 * `I:<address>:<selector>[:<flags>]` (by instance) or `C:<classId>:<selector>[:<flags>]` (by class); flags
 * joined with `+`: `os` (onlySelf), `rn` (rejectNullMsgSender), `cl=N` (calldataLength). Throws an Error
 * naming the entry and what is wrong with it.
 */
export function parseAllowedSetupList(raw: string): AllowedSetupFunction[] {
  const out: AllowedSetupFunction[] = [];
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const entry of entries) {
    const parts = entry.split(':');
    if (parts.length < 3 || parts.length > 4) {
      throw new Error(`"${entry}": expected I:<address>:<selector>[:<flags>] or C:<classId>:<selector>[:<flags>]`);
    }
    const [kind, target, selectorText, flagText] = parts as [string, string, string, string | undefined];
    let selector: FunctionSelector;
    try {
      selector = FunctionSelector.fromString(selectorText);
    } catch {
      throw new Error(`"${entry}": the selector must be 0x + 8 hex digits, got "${selectorText}"`);
    }
    const restrictions = parseFlags(entry, flagText);
    if (kind === 'I') {
      let address: AztecAddress;
      try {
        address = AztecAddress.fromString(target);
      } catch {
        throw new Error(`"${entry}": the address must be 0x + 64 hex digits, got "${target}"`);
      }
      out.push({ address, selector, ...restrictions });
    } else if (kind === 'C') {
      let classId: Fr;
      try {
        classId = Fr.fromHexString(target);
      } catch {
        throw new Error(`"${entry}": the class id must be a field element in hex, got "${target}"`);
      }
      out.push({ classId, selector, ...restrictions });
    } else {
      throw new Error(`"${entry}": an entry starts with I: (instance address) or C: (class id), got "${kind}:"`);
    }
  }
  return out;
}

function parseFlags(entry: string, text: string | undefined): AllowedSetupRestrictions {
  if (text === undefined || text === '') return {};
  const r: { onlySelf?: boolean; rejectNullMsgSender?: boolean; calldataLength?: number } = {};
  for (const flag of text.split('+')) {
    if (flag === 'os') r.onlySelf = true;
    else if (flag === 'rn') r.rejectNullMsgSender = true;
    else if (/^cl=[0-9]{1,6}$/.test(flag)) r.calldataLength = Number(flag.slice(3));
    else throw new Error(`"${entry}": unknown flag "${flag}" (flags: os, rn, cl=N, joined with +)`);
  }
  return r;
}

/** Renders a list back in the setting's format (for `l2node config`). */
export function formatAllowedSetupList(list: readonly AllowedSetupFunction[]): string {
  return list
    .map((e) => {
      const head = 'address' in e ? `I:${e.address.toString()}` : `C:${e.classId.toString()}`;
      const flags = [
        ...(e.onlySelf ? ['os'] : []),
        ...(e.rejectNullMsgSender ? ['rn'] : []),
        ...(e.calldataLength !== undefined ? [`cl=${e.calldataLength}`] : []),
      ];
      return `${head}:${e.selector.toString()}${flags.length ? `:${flags.join('+')}` : ''}`;
    })
    .join(',');
}
