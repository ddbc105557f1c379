import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { LocalAccount } from 'viem';
import { english, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { EthAddress } from '../../core/eth-address.js';
import { KeystoreError } from './keystore-error.js';
import { type EthAccountConfig, type KeystoreFileConfig, parseKeystoreJson } from './keystore-schema.js';
import { ValidatorIdentity } from './validator-identity.js';
import { ValidatorKeystore } from './validator-keystore.js';

/**
 * Reads a keystore (docs/aztec-facts.md section 7.3): one JSON file, or every `*.json` file of a directory, merged.
 * Everything is checked before anything is returned: each file against its schema version, all files on one
 * version, at most one prover, no attester twice, every validator with a coinbase, a fee recipient and a
 * publisher, and every attester a key this node can sign with. Any failure throws a KeystoreError naming the
 * file and the field; nothing half-loaded escapes.
 */
export function loadKeystore(path: string): ValidatorKeystore {
  const files = keystoreFiles(path);
  const parsed = files.map((file) => ({ file, config: readKeystoreFile(file) }));
  const versions = new Set(parsed.map((p) => p.config.schemaVersion));
  if (versions.size > 1) {
    const first = parsed[0] as (typeof parsed)[number];
    const other = parsed.find((p) => p.config.schemaVersion !== first.config.schemaVersion) as (typeof parsed)[number];
    throw new KeystoreError(
      `All keystore files must use the same schemaVersion: ${basename(first.file)} is version ${first.config.schemaVersion}, ` +
        `${basename(other.file)} is version ${other.config.schemaVersion}`,
      path,
    );
  }
  const provers = parsed.filter((p) => p.config.hasProver);
  if (provers.length > 1) {
    throw new KeystoreError(
      'Multiple prover configurations found across keystore files. Only one prover configuration is allowed.',
      (provers[1] as (typeof parsed)[number]).file,
    );
  }
  const validators: ValidatorIdentity[] = [];
  const seen = new Map<string, string>();
  for (const { file, config } of parsed) {
    for (const identity of resolveValidators(file, config)) {
      const key = identity.address.toString();
      const earlier = seen.get(key);
      if (earlier) {
        throw new KeystoreError(
          `Duplicate attester address ${key} found across keystore files (${earlier} and ${identity.source})`,
          file,
        );
      }
      seen.set(key, identity.source);
      validators.push(identity);
    }
  }
  return new ValidatorKeystore(path, validators);
}

function keystoreFiles(path: string): string[] {
  let isDirectory: boolean;
  try {
    const stats = statSync(path);
    if (!stats.isFile() && !stats.isDirectory()) throw new KeystoreError('Path is neither a file nor directory', path);
    isDirectory = stats.isDirectory();
  } catch (err) {
    if (err instanceof KeystoreError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new KeystoreError(code === 'ENOENT' ? 'File or directory not found' : `Failed to access path: ${code}`, path);
  }
  if (!isDirectory) return [path];
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (err) {
    throw new KeystoreError(`Failed to read directory: ${(err as NodeJS.ErrnoException).code}`, path);
  }
  const files = names
    .filter((n) => extname(n).toLowerCase() === '.json')
    .sort()
    .map((n) => join(path, n));
  if (files.length === 0) throw new KeystoreError('No valid keystore files found', path);
  return files;
}

function readKeystoreFile(file: string): KeystoreFileConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new KeystoreError(`Failed to read file: ${(err as NodeJS.ErrnoException).code}`, file);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // V8's message may quote the text around the fault (a key, a mnemonic): keep only where it is.
    const where = /line \d+ column \d+|position \d+/.exec((err as Error).message)?.[0];
    throw new KeystoreError(`Invalid JSON format${where ? ` (${where})` : ''}`, file);
  }
  const result = parseKeystoreJson(json);
  if (!result.ok) throw new KeystoreError(`Schema validation failed: ${result.issues.join('; ')}`, file);
  return result.value;
}

function resolveValidators(file: string, config: KeystoreFileConfig): ValidatorIdentity[] {
  const out: ValidatorIdentity[] = [];
  config.validators.forEach((v, i) => {
    const where = `validators[${i}]`;
    const source = `${basename(file)} ${where}`;
    const feeRecipient = v.feeRecipient ?? config.feeRecipient;
    if (!feeRecipient) {
      throw new KeystoreError(`${where}.feeRecipient: no fee recipient here nor at the keystore's top level`, file);
    }
    const publisherConfig = v.publisher ?? config.publisher;
    const explicitPublishers = publisherConfig
      ? publisherConfig.flatMap((a, j) => publisherAddresses(a, file, `${where}.publisher[${j}]`))
      : undefined;
    const attesters = v.attester.flatMap((a, j) => signingAccounts(a, file, `${where}.attester[${j}]`));
    for (const account of attesters) {
      const address = EthAddress.fromString(account.address);
      // 4.1.2 fallbacks: coinbase to the keystore's, then to the attester; publisher to the keystore's, then the attester key.
      const coinbase = v.coinbase ?? config.coinbase ?? address;
      out.push(
        new ValidatorIdentity(account, address, coinbase, feeRecipient, explicitPublishers ?? [address], source),
      );
    }
  });
  return out;
}

/** The accounts an attester entry signs with; only local keys can sign here. */
function signingAccounts(a: EthAccountConfig, file: string, where: string): LocalAccount[] {
  switch (a.kind) {
    case 'privateKey':
      return [accountFromKey(a.key, file, where)];
    case 'mnemonic':
      return mnemonicAccounts(a, file, where);
    case 'remoteSigner':
      throw new KeystoreError(
        `${where}: remote signer accounts are not supported: l2node signs attestations with local keys (a 0x private key or a mnemonic)`,
        file,
      );
    case 'keyFile':
      throw new KeystoreError(
        `${where}: encrypted key files are not supported: give the attester as a 0x private key or a mnemonic`,
        file,
      );
  }
}

/** A publisher only needs an address here: the dev L1 stand-in takes checkpoints without L1 transactions. */
function publisherAddresses(a: EthAccountConfig, file: string, where: string): EthAddress[] {
  switch (a.kind) {
    case 'privateKey':
      return [EthAddress.fromString(accountFromKey(a.key, file, where).address)];
    case 'mnemonic':
      return mnemonicAccounts(a, file, where).map((acc) => EthAddress.fromString(acc.address));
    case 'remoteSigner':
      return [a.address];
    case 'keyFile':
      throw new KeystoreError(
        `${where}: encrypted key files are not supported: give the publisher as a 0x private key, an address or a mnemonic`,
        file,
      );
  }
}

function accountFromKey(key: `0x${string}`, file: string, where: string): LocalAccount {
  try {
    return privateKeyToAccount(key);
  } catch {
    throw new KeystoreError(`${where}: not a valid secp256k1 private key (zero or above the curve order)`, file);
  }
}

const WORDS = new Set(english);

function mnemonicAccounts(a: Extract<EthAccountConfig, { kind: 'mnemonic' }>, file: string, where: string) {
  const words = a.mnemonic.trim().split(/\s+/);
  if (![12, 15, 18, 21, 24].includes(words.length) || !words.every((w) => WORDS.has(w))) {
    throw new KeystoreError(`${where}.mnemonic: not a BIP-39 English mnemonic of 12 to 24 words`, file);
  }
  const phrase = words.join(' ');
  const accounts: LocalAccount[] = [];
  for (let account = a.accountIndex; account < a.accountIndex + a.accountCount; account++) {
    for (let index = a.addressIndex; index < a.addressIndex + a.addressCount; index++) {
      accounts.push(mnemonicToAccount(phrase, { accountIndex: account, addressIndex: index }));
    }
  }
  return accounts;
}
