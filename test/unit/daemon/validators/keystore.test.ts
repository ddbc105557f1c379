import { inspect } from 'node:util';
import { mnemonicToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { KeystoreError } from '../../../../src/daemon/validators/keystore-error.js';
import { loadKeystore } from '../../../../src/daemon/validators/load-keystore.js';
import { feeRecipient, keystoreDir, keystoreV1, testAddress, testKey } from './validator-fixtures.js';

const MNEMONIC = 'test test test test test test test test test test test junk';
let ks: ReturnType<typeof keystoreDir>;
afterEach(() => ks?.cleanup());

describe('loadKeystore: what a keystore resolves to', () => {
  it('schema 1: each validator with its attester key, coinbase, fee recipient and publisher', () => {
    ks = keystoreDir();
    ks.write('validators.json', keystoreV1([0, 1], 0));
    const keystore = loadKeystore(ks.dir);
    expect(keystore.validators.map((v) => v.toJSON())).toEqual([
      {
        address: testAddress(0),
        coinbase: testAddress(0),
        feeRecipient: feeRecipient(1),
        publishers: [testAddress(0)],
        source: 'validators.json validators[0]',
      },
      {
        address: testAddress(1),
        coinbase: testAddress(1),
        feeRecipient: feeRecipient(2),
        publishers: [testAddress(0)],
        source: 'validators.json validators[1]',
      },
    ]);
    expect(keystore.publisherAddresses()).toEqual(new Set([testAddress(0)]));
  });

  it('schema 2: keystore-level publisher, coinbase and fee recipient; without them the attester itself', () => {
    ks = keystoreDir();
    const file = ks.write('v2.json', {
      schemaVersion: 2,
      publisher: [testKey(9), testAddress(8)],
      feeRecipient: feeRecipient(7),
      validators: [
        { attester: testKey(0) },
        { attester: testKey(1), coinbase: testAddress(5), feeRecipient: feeRecipient(6) },
      ],
    });
    const [a, b] = loadKeystore(file).validators.map((v) => v.toJSON());
    expect(a).toMatchObject({ coinbase: testAddress(0), feeRecipient: feeRecipient(7) });
    expect(a?.publishers).toEqual([testAddress(9), testAddress(8)]);
    expect(b).toMatchObject({ coinbase: testAddress(5), feeRecipient: feeRecipient(6) });
    ks.write('v2.json', { schemaVersion: 2, feeRecipient: feeRecipient(7), validators: [{ attester: testKey(3) }] });
    expect(loadKeystore(file).validators[0]?.publishers.map(String)).toEqual([testAddress(3)]);
  });

  it('merges every *.json file of a directory, in name order, and ignores other files', () => {
    ks = keystoreDir();
    ks.write('b.json', keystoreV1([1]));
    ks.write('a.json', keystoreV1([0]));
    ks.write('notes.txt', 'not a keystore');
    expect(loadKeystore(ks.dir).addresses.map(String)).toEqual([testAddress(0), testAddress(1)]);
  });

  it('derives attesters from a mnemonic block and takes {eth, bls} attesters', () => {
    ks = keystoreDir();
    ks.write('m.json', {
      schemaVersion: 1,
      validators: [
        { attester: { mnemonic: MNEMONIC, addressIndex: 1, addressCount: 2 }, feeRecipient: feeRecipient(1) },
        { attester: [{ eth: testKey(4), bls: testKey(5) }], feeRecipient: feeRecipient(2) },
      ],
    });
    const expected = [1, 2].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }).address.toLowerCase());
    expect(loadKeystore(ks.dir).addresses.map(String)).toEqual([...expected, testAddress(4)]);
  });

  it('never shows a key: not in toJSON, not in inspect', () => {
    ks = keystoreDir();
    ks.write('k.json', keystoreV1([0]));
    const [v] = loadKeystore(ks.dir).validators;
    const shown = `${JSON.stringify(v)} ${inspect(v)} ${inspect(loadKeystore(ks.dir), { depth: 10 })}`;
    expect(shown).toContain(testAddress(0));
    expect(shown).not.toContain(testKey(0).slice(2));
  });
});

/** A refused keystore: the files to write and what the error must say (file and field). */
const REFUSALS: readonly [string, Record<string, unknown>, RegExp][] = [
  ['an empty directory', {}, /Failed to load keystore from .*: No valid keystore files found$/],
  [
    'malformed JSON',
    { 'bad.json': `{"schemaVersion": 1, "validators": [{"attester": "${testKey(0)}",}]}` },
    /bad\.json: Invalid JSON format \(/,
  ],
  [
    'an unknown schema version',
    { 'k.json': { schemaVersion: 3 } },
    /k\.json: Schema validation failed: schemaVersion: expected 1 or 2/,
  ],
  [
    'an unknown key',
    { 'k.json': { ...keystoreV1([0]), extra: 1 } },
    /k\.json: Schema validation failed: \(top level\): Unrecognized key: "extra"/,
  ],
  [
    'a short private key',
    {
      'k.json': {
        schemaVersion: 1,
        validators: [{ attester: testKey(0).slice(0, 60), feeRecipient: feeRecipient(1) }],
      },
    },
    /k\.json: Schema validation failed: validators\[0\]\.attester: expected a private key \(0x \+ 64 hex digits\)/,
  ],
  [
    'a schema-1 validator without fee recipient',
    { 'k.json': { schemaVersion: 1, validators: [{ attester: testKey(0) }] } },
    /validators\[0\]\.feeRecipient: Invalid input/,
  ],
  [
    'a schema-2 validator without any fee recipient',
    { 'k.json': { schemaVersion: 2, validators: [{ attester: testKey(0) }] } },
    /k\.json: validators\[0\]\.feeRecipient: no fee recipient here nor at the keystore's top level/,
  ],
  [
    'a keystore with neither validators nor prover',
    { 'k.json': { schemaVersion: 1 } },
    /at least validators or a prover/,
  ],
  [
    'the same attester in two files',
    { 'a.json': keystoreV1([0, 1]), 'b.json': keystoreV1([2, 1]) },
    new RegExp(
      `b\\.json: Duplicate attester address ${testAddress(1)} found across keystore files \\(a\\.json validators\\[1\\] and b\\.json validators\\[1\\]\\)`,
    ),
  ],
  [
    'files of two schema versions',
    {
      'a.json': keystoreV1([0]),
      'b.json': { schemaVersion: 2, feeRecipient: feeRecipient(1), validators: [{ attester: testKey(1) }] },
    },
    /All keystore files must use the same schemaVersion: a\.json is version 1, b\.json is version 2/,
  ],
  [
    'two provers',
    { 'a.json': { ...keystoreV1([0]), prover: testKey(5) }, 'b.json': { ...keystoreV1([1]), prover: testKey(6) } },
    /b\.json: Multiple prover configurations found across keystore files/,
  ],
  [
    'a remote signer attester',
    { 'k.json': { schemaVersion: 1, validators: [{ attester: testAddress(0), feeRecipient: feeRecipient(1) }] } },
    /k\.json: validators\[0\]\.attester\[0\]: remote signer accounts are not supported/,
  ],
  [
    'an encrypted key file attester',
    {
      'k.json': {
        schemaVersion: 1,
        validators: [{ attester: { path: '/keys/a.json' }, feeRecipient: feeRecipient(1) }],
      },
    },
    /validators\[0\]\.attester\[0\]: encrypted key files are not supported/,
  ],
  [
    'a zero private key',
    {
      'k.json': { schemaVersion: 1, validators: [{ attester: `0x${'0'.repeat(64)}`, feeRecipient: feeRecipient(1) }] },
    },
    /validators\[0\]\.attester\[0\]: not a valid secp256k1 private key/,
  ],
  [
    'a mnemonic that is not BIP-39',
    {
      'k.json': {
        schemaVersion: 1,
        validators: [{ attester: { mnemonic: 'not twelve words' }, feeRecipient: feeRecipient(1) }],
      },
    },
    /validators\[0\]\.attester\[0\]\.mnemonic: not a BIP-39 English mnemonic/,
  ],
];

describe('loadKeystore: refusals name the file and the field, and never a key', () => {
  it.each(REFUSALS)('refuses %s', (_name, files, message) => {
    ks = keystoreDir();
    for (const [name, content] of Object.entries(files)) ks.write(name, content);
    let error: unknown;
    try {
      loadKeystore(ks.dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(KeystoreError);
    const text = (error as Error).message;
    expect(text).toMatch(message);
    for (let i = 0; i < 10; i++) expect(text).not.toContain(testKey(i).slice(2, 40));
  });

  it('refuses a path that does not exist', () => {
    expect(() => loadKeystore('/nonexistent/l2node-keystore')).toThrow(
      'Failed to load keystore from /nonexistent/l2node-keystore: File or directory not found',
    );
  });
});
