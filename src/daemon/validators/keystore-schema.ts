import { z } from 'zod';
import { AztecAddress } from '../../core/aztec-address.js';
import { EthAddress } from '../../core/eth-address.js';

/**
 * The keystore file format of Aztec 4.1.2 (@aztec/node-keystore, docs/aztec-facts.md section 7.3), schema versions 1
 * and 2, as strict zod schemas: unknown keys are refused, and every refusal names the field. Account forms are
 * parsed into tagged values here; which of them this node can sign with is decided when the keystore is resolved.
 */

/** An Ethereum account as a keystore names it. */
export type EthAccountConfig =
  | { readonly kind: 'privateKey'; readonly key: `0x${string}` }
  | { readonly kind: 'remoteSigner'; readonly address: EthAddress; readonly remoteSignerUrl?: string }
  | { readonly kind: 'keyFile'; readonly path: string }
  | {
      readonly kind: 'mnemonic';
      readonly mnemonic: string;
      readonly addressIndex: number;
      readonly accountIndex: number;
      readonly addressCount: number;
      readonly accountCount: number;
    };

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Bounds a mnemonic block's derivations: each costs a seed derivation, and no committee needs more. */
const MAX_MNEMONIC_ACCOUNTS = 256;

const url = z.string().refine((s) => URL.canParse(s), { error: 'expected a URL' });
const ethAddress = z.string().transform((s, ctx) => {
  if (ADDRESS.test(s) && EthAddress.isValid(s)) return EthAddress.fromString(s);
  ctx.addIssue({ code: 'custom', message: 'expected an Ethereum address (0x + 40 hex digits)' });
  return z.NEVER;
});
const aztecAddress = z.string().transform((s, ctx) => {
  if (/^0x[0-9a-fA-F]{64}$/.test(s)) {
    try {
      return AztecAddress.fromString(s);
    } catch {
      // Falls through to the issue below (a value above the field modulus).
    }
  }
  ctx.addIssue({ code: 'custom', message: 'expected an L2 address (0x + 64 hex digits)' });
  return z.NEVER;
});

const remoteSignerObject = z.strictObject({
  address: ethAddress,
  remoteSignerUrl: url,
  certPath: z.string().nullish(),
  certPass: z.string().nullish(),
});
const keyFile = z.strictObject({ path: z.string().min(1), password: z.string().nullish() });
const mnemonic = z
  .strictObject({
    mnemonic: z.string().min(1, { error: 'a mnemonic cannot be empty' }),
    addressIndex: z.number().int().min(0).default(0),
    accountIndex: z.number().int().min(0).default(0),
    addressCount: z.number().int().min(1).default(1),
    accountCount: z.number().int().min(1).default(1),
  })
  .refine((m) => m.addressCount * m.accountCount <= MAX_MNEMONIC_ACCOUNTS, {
    error: `a mnemonic block derives at most ${MAX_MNEMONIC_ACCOUNTS} accounts (addressCount x accountCount)`,
  });

const ACCOUNT_FORMS =
  'a private key (0x + 64 hex digits), a remote signer address (0x + 40 hex digits), ' +
  '{address, remoteSignerUrl} or a key file {path, password}';

/** One account (4.1.2 EthAccount): a private key, a remote signer account, or an encrypted key file. */
const ethAccount = z.unknown().transform((v, ctx): EthAccountConfig => {
  if (typeof v === 'string') {
    if (PRIVATE_KEY.test(v)) return { kind: 'privateKey', key: v.toLowerCase() as `0x${string}` };
    if (ADDRESS.test(v) && EthAddress.isValid(v)) return { kind: 'remoteSigner', address: EthAddress.fromString(v) };
    ctx.addIssue({ code: 'custom', message: `expected ${ACCOUNT_FORMS}` });
    return z.NEVER;
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const schema = 'path' in v ? keyFile : 'address' in v ? remoteSignerObject : undefined;
    if (schema) {
      const parsed = schema.safeParse(v);
      if (parsed.success) {
        return 'path' in parsed.data
          ? { kind: 'keyFile', path: parsed.data.path }
          : { kind: 'remoteSigner', address: parsed.data.address, remoteSignerUrl: parsed.data.remoteSignerUrl };
      }
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom' } as never);
      return z.NEVER;
    }
  }
  ctx.addIssue({ code: 'custom', message: `expected ${ACCOUNT_FORMS}` });
  return z.NEVER;
});

/** A mnemonic block, tagged. */
const mnemonicAccounts = mnemonic.transform((m): EthAccountConfig => ({ kind: 'mnemonic', ...m }));

/** 4.1.2 EthAccounts: one account, a list, or a mnemonic block. */
const ethAccounts = z.unknown().transform((v, ctx): EthAccountConfig[] => {
  const parsed = Array.isArray(v)
    ? z.array(ethAccount).min(1, { error: 'expected at least one account' }).safeParse(v)
    : typeof v === 'object' && v !== null && 'mnemonic' in v
      ? mnemonicAccounts.transform((a) => [a]).safeParse(v)
      : ethAccount.transform((a) => [a]).safeParse(v);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom' } as never);
  return z.NEVER;
});

const blsAccount = z.unknown().transform((v, ctx) => {
  if (typeof v === 'string' && PRIVATE_KEY.test(v)) return true;
  if (keyFile.safeParse(v).success) return true;
  ctx.addIssue({ code: 'custom', message: 'expected a BLS private key (0x + 64 hex digits) or a key file {path}' });
  return z.NEVER;
});

/** 4.1.2 AttesterAccount: an EthAccount, or `{eth, bls?}` (the BLS key is checked, and unused: no BLS here). */
const attesterAccount = z.unknown().transform((v, ctx): EthAccountConfig => {
  const parsed =
    typeof v === 'object' && v !== null && 'eth' in v
      ? z
          .strictObject({ eth: ethAccount, bls: blsAccount.nullish() })
          .transform((a) => a.eth)
          .safeParse(v)
      : ethAccount.safeParse(v);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom' } as never);
  return z.NEVER;
});

/** 4.1.2 AttesterAccounts: one attester, a list, or a mnemonic block. */
const attesterAccounts = z.unknown().transform((v, ctx): EthAccountConfig[] => {
  const parsed = Array.isArray(v)
    ? z.array(attesterAccount).min(1, { error: 'expected at least one attester' }).safeParse(v)
    : typeof v === 'object' && v !== null && 'mnemonic' in v
      ? mnemonicAccounts.transform((a) => [a]).safeParse(v)
      : attesterAccount.transform((a) => [a]).safeParse(v);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom' } as never);
  return z.NEVER;
});

const remoteSignerConfig = z.union(
  [url, z.strictObject({ remoteSignerUrl: url, certPath: z.string().nullish(), certPass: z.string().nullish() })],
  {
    error: 'expected a remote signer URL or {remoteSignerUrl, certPath?, certPass?}',
  },
);

const prover = z.unknown().transform((v, ctx) => {
  const parsed =
    typeof v === 'object' && v !== null && 'id' in v
      ? z.strictObject({ id: ethAddress, publisher: ethAccounts }).safeParse(v)
      : ethAccount.safeParse(v);
  if (parsed.success) return true;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom' } as never);
  return z.NEVER;
});

const validatorFields = {
  attester: attesterAccounts,
  coinbase: ethAddress.nullish(),
  publisher: ethAccounts.nullish(),
  remoteSigner: remoteSignerConfig.nullish(),
  fundingAccount: ethAccount.nullish(),
};

const commonFields = {
  slasher: ethAccounts.nullish(),
  remoteSigner: remoteSignerConfig.nullish(),
  prover: prover.nullish(),
  fundingAccount: ethAccount.nullish(),
};

const atLeastOne = {
  error: 'a keystore needs at least validators or a prover',
};

/** Schema version 1: every validator names its fee recipient. */
const keystoreV1 = z
  .strictObject({
    schemaVersion: z.literal(1),
    validators: z.array(z.strictObject({ ...validatorFields, feeRecipient: aztecAddress })).nullish(),
    ...commonFields,
  })
  .refine((k) => k.validators || k.prover, atLeastOne);

/** Schema version 2: publisher, coinbase and fee recipient may be given once for every validator. */
const keystoreV2 = z
  .strictObject({
    schemaVersion: z.literal(2),
    validators: z.array(z.strictObject({ ...validatorFields, feeRecipient: aztecAddress.nullish() })).nullish(),
    publisher: ethAccounts.nullish(),
    coinbase: ethAddress.nullish(),
    feeRecipient: aztecAddress.nullish(),
    ...commonFields,
  })
  .refine((k) => k.validators || k.prover, atLeastOne);

/** One validator block of a file, whatever its version. */
export interface KeystoreValidatorConfig {
  readonly attester: readonly EthAccountConfig[];
  readonly coinbase?: EthAddress | null;
  readonly publisher?: readonly EthAccountConfig[] | null;
  readonly feeRecipient?: AztecAddress | null;
}

/** One keystore file, parsed. */
export interface KeystoreFileConfig {
  readonly schemaVersion: 1 | 2;
  readonly validators: readonly KeystoreValidatorConfig[];
  /** Version 2 keystore-level defaults. */
  readonly publisher?: readonly EthAccountConfig[] | null;
  readonly coinbase?: EthAddress | null;
  readonly feeRecipient?: AztecAddress | null;
  readonly hasProver: boolean;
}

/** The issues of a refused file, each as `field.path: message`. */
export type KeystoreIssues = readonly string[];

/** Parses one file's JSON; the version field picks the schema, so issues are the ones of the version meant. */
export function parseKeystoreJson(
  json: unknown,
): { ok: true; value: KeystoreFileConfig } | { ok: false; issues: KeystoreIssues } {
  const version =
    typeof json === 'object' && json !== null ? (json as { schemaVersion?: unknown }).schemaVersion : undefined;
  if (version !== 1 && version !== 2) {
    return { ok: false, issues: ['schemaVersion: expected 1 or 2'] };
  }
  const parsed = version === 1 ? keystoreV1.safeParse(json) : keystoreV2.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((i) => `${fieldPath(i.path)}: ${i.message}`),
    };
  }
  const k = parsed.data;
  return {
    ok: true,
    value: {
      schemaVersion: k.schemaVersion,
      validators: k.validators ?? [],
      publisher: 'publisher' in k ? k.publisher : undefined,
      coinbase: 'coinbase' in k ? k.coinbase : undefined,
      feeRecipient: 'feeRecipient' in k ? k.feeRecipient : undefined,
      hasProver: Boolean(k.prover),
    },
  };
}

/** `validators[0].attester[1]`, or `(top level)`. */
function fieldPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}
