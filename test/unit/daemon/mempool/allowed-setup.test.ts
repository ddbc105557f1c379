import { FunctionSelector as StdFunctionSelector } from '@aztec/stdlib/abi';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectorFromSignature } from '../../../../src/core/contract/selector-from-signature.js';
import { resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import {
  allowedSetupFunctionToJson,
  formatAllowedSetupList,
  parseAllowedSetupList,
} from '../../../../src/daemon/mempool/tx-checks/allowed-setup-function.js';
import { DEFAULT_ALLOWED_SETUP_FUNCTIONS } from '../../../../src/daemon/mempool/tx-checks/default-allowed-setup.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

beforeAll(initAztecOracle);

describe('function selectors', () => {
  it.each([
    '_set_authorized((Field),Field,bool)',
    'set_authorized(Field,bool)',
    '_increase_public_balance((Field),u128)',
    'a_signature_longer_than_thirty_one_bytes_in_two_chunks(Field,Field,Field)',
  ])('%s: the same as 4.1.2 FunctionSelector.fromSignature', async (signature) => {
    const std = await StdFunctionSelector.fromSignature(signature);
    expect(selectorFromSignature(signature).toString()).toBe(std.toString());
  });
});

describe('the setup allow list', () => {
  it("has 4.1.2's three defaults, by address, with calldata lengths", () => {
    expect(DEFAULT_ALLOWED_SETUP_FUNCTIONS.map(allowedSetupFunctionToJson)).toEqual([
      expect.objectContaining({ address: `0x${'00'.repeat(31)}01`, calldataLength: 4, onlySelf: true }),
      expect.objectContaining({ address: `0x${'00'.repeat(31)}01`, calldataLength: 3, rejectNullMsgSender: true }),
      expect.objectContaining({ address: `0x${'00'.repeat(31)}05`, calldataLength: 3, onlySelf: true }),
    ]);
  });

  it('parses the extension setting (I:/C: entries, os/rn/cl flags) and renders it back', () => {
    const raw = `I:0x${'00'.repeat(31)}07:0x01020304:os+rn+cl=3, C:0x${'0a'.repeat(32)}:0xaabbccdd`;
    const list = parseAllowedSetupList(raw);
    expect(list.map(allowedSetupFunctionToJson)).toEqual([
      {
        address: `0x${'00'.repeat(31)}07`,
        selector: '0x01020304',
        onlySelf: true,
        rejectNullMsgSender: true,
        calldataLength: 3,
      },
      { classId: `0x${'0a'.repeat(32)}`, selector: '0xaabbccdd' },
    ]);
    expect(parseAllowedSetupList(formatAllowedSetupList(list)).map(allowedSetupFunctionToJson)).toEqual(
      list.map(allowedSetupFunctionToJson),
    );
  });

  it.each([
    ['X:0x01:0x01020304', /starts with I: .* or C:/],
    ['I:0x01:0x01020304', /address must be 0x \+ 64 hex digits/],
    [`I:0x${'00'.repeat(32)}:0x0102`, /selector must be 0x \+ 8 hex digits/],
    [`I:0x${'00'.repeat(32)}:0x01020304:zz`, /unknown flag "zz"/],
    ['I:0x01', /expected I:<address>:<selector>/],
  ])('refuses %s, saying what is wrong', (raw, message) => {
    expect(() => parseAllowedSetupList(raw)).toThrow(message);
  });

  it('is a settings row (--tx-public-setup-allow-list-extend / NODE_TX_PUBLIC_SETUP_ALLOWLIST)', () => {
    const { config } = resolveConfig({}, { NODE_TX_PUBLIC_SETUP_ALLOWLIST: `C:0x${'0a'.repeat(32)}:0xaabbccdd` });
    expect(config.txPublicSetupAllowListExtend).toHaveLength(1);
    expect(() => resolveConfig({ 'tx-public-setup-allow-list-extend': 'nope' }, {})).toThrow(
      /--tx-public-setup-allow-list-extend: "nope"/,
    );
    expect(resolveConfig({}, {}).config.maxPendingTxCount).toBe(1000);
    expect(() => resolveConfig({ 'protocol-contracts-hash': '0x12g' }, {})).toThrow(/--protocol-contracts-hash/);
  });
});
