import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { GlobalVariables } from '../../../../src/core/block/global-variables.js';
import { NULL_MSG_SENDER_CONTRACT_ADDRESS } from '../../../../src/core/constants.js';
import { ContractInstancePublishedEvent } from '../../../../src/core/contract/contract-instance-published-event.js';
import { PublicKeys } from '../../../../src/core/contract/public-keys.js';
import { Fr } from '../../../../src/core/fr.js';
import { Gas } from '../../../../src/core/gas/gas.js';
import { GasFees } from '../../../../src/core/gas/gas-fees.js';
import { ContractClassLogFields } from '../../../../src/core/logs/contract-class-log-fields.js';
import type { PrivateLog } from '../../../../src/core/logs/private-log.js';
import { Tx } from '../../../../src/core/tx/tx.js';
import { TxBuilder } from '../../../../src/core/tx/tx-builder.js';
import { TxHash } from '../../../../src/core/tx-hash.js';
import { parseAllowedSetupList } from '../../../../src/daemon/mempool/tx-checks/allowed-setup-function.js';
import { DEFAULT_ALLOWED_SETUP_FUNCTIONS } from '../../../../src/daemon/mempool/tx-checks/default-allowed-setup.js';
import { TX_ERROR } from '../../../../src/daemon/mempool/tx-checks/tx-error-texts.js';
import { validateTx } from '../../../../src/daemon/mempool/tx-checks/tx-validator.js';
import { TxMeta } from '../../../../src/daemon/mempool/tx-meta.js';
import { withClassLogFields, withClassLogLength, withPublicCalls } from '../../../helpers/mempool-txs.js';
import { MempoolHarness, PAYERS } from './mempool-fixtures.js';

/**
 * One test per validator reason (4.1.2's texts, docs/aztec-facts.md section 5.2), each on a tx that breaks just
 * that rule, against a real world state. The RPC path is checked in test/e2e/mempool-validation.test.ts.
 */
let h: MempoolHarness;
beforeEach(() => {
  h = new MempoolHarness();
});
afterEach(() => h.close());

const payer = PAYERS[0] as AztecAddress;
const reasons = async (tx: Tx) => {
  const r = await h.mempool.isValidTx(tx);
  return r.result === 'valid' ? [] : r.reason;
};
const [SET_AUTHORIZED_INTERNAL, SET_AUTHORIZED, INCREASE_BALANCE] = DEFAULT_ALLOWED_SETUP_FUNCTIONS.map((e) =>
  BigInt(e.selector.value),
) as [bigint, bigint, bigint];

describe('a valid tx', () => {
  it('passes every validator', async () => {
    expect(await h.mempool.isValidTx(h.tx())).toEqual({ result: 'valid' });
  });
});

describe('size', () => {
  it('refuses a tx above 512 KiB', async () => {
    const empty = ContractClassLogFields.fromEmitted([]);
    const tx = withClassLogFields(
      h.tx(),
      Array.from({ length: 6 }, () => empty),
    );
    expect(tx.getSize()).toBeGreaterThan(512 * 1024);
    expect(await reasons(tx)).toContain(TX_ERROR.SIZE_ABOVE_LIMIT);
  });
});

describe('metadata', () => {
  it('reports every field built for another chain', async () => {
    const chain = h.builder().chain;
    const foreign = new TxBuilder({
      ...chain,
      chainId: 1n,
      rollupVersion: 2n,
      vkTreeRoot: new Fr(3n),
      protocolContractsHash: new Fr(4n),
    }).build({ feePayer: payer, maxFeesPerGas: new GasFees(0n, 1000n) });
    expect(await reasons(foreign)).toEqual([
      TX_ERROR.INCORRECT_L1_CHAIN_ID,
      TX_ERROR.INCORRECT_ROLLUP_VERSION,
      TX_ERROR.INCORRECT_VK_TREE_ROOT,
      TX_ERROR.INCORRECT_PROTOCOL_CONTRACTS_HASH,
    ]);
  });
});

describe('expiration timestamp', () => {
  it('refuses an expired tx once past block 1, and not while building block 1', async () => {
    const expired = h.tx({ expiration: h.time - 1n });
    expect(await reasons(expired)).not.toContain(TX_ERROR.INVALID_EXPIRATION_TIMESTAMP);
    h.mine([]);
    expect(await reasons(h.tx({ expiration: h.time - 1n }))).toEqual([TX_ERROR.INVALID_EXPIRATION_TIMESTAMP]);
    expect(await reasons(h.tx({ expiration: h.time }))).toEqual([]);
  });
});

describe('anchor block header', () => {
  it('refuses a tx anchored to a header that is not in the archive', async () => {
    const other = BlockHeader.empty({ globalVariables: GlobalVariables.empty({ blockNumber: 7 }) });
    const tx = h
      .builder()
      .withAnchor(other)
      .build({ feePayer: payer, maxFeesPerGas: new GasFees(0n, 1000n) });
    expect(await reasons(tx)).toEqual([TX_ERROR.BLOCK_HEADER]);
  });
});

describe('double spend', () => {
  it('refuses a nullifier repeated inside the tx', async () => {
    expect(await reasons(h.tx({ nullifiers: [55n, 55n] }))).toEqual([TX_ERROR.DUPLICATE_NULLIFIER_IN_TX]);
  });
  it('refuses a nullifier already in the committed tree', async () => {
    h.mine([h.tx({ nullifiers: [66_666n] })]);
    expect(await reasons(h.tx({ nullifiers: [66_666n] }))).toEqual([TX_ERROR.EXISTING_NULLIFIER]);
  });
});

describe('gas', () => {
  const withGas = (limits: Gas) =>
    h.builder().build({ feePayer: payer, gasLimits: limits, maxFeesPerGas: new GasFees(0n, 1000n) });
  it('refuses limits below the fixed minimum (DA 96, L2 440,000 private / 540,000 public)', async () => {
    expect(await reasons(withGas(new Gas(95, 6_000_000)))).toEqual([TX_ERROR.INSUFFICIENT_GAS_LIMIT]);
    expect(await reasons(withGas(new Gas(96, 439_999)))).toEqual([TX_ERROR.INSUFFICIENT_GAS_LIMIT]);
    expect(await reasons(withGas(new Gas(96, 440_000)))).toEqual([]);
    const pub = withPublicCalls(withGas(new Gas(96, 500_000)), {
      app: [{ contract: 9n, sender: 1n, calldata: [] }],
      keepGas: true,
    });
    expect(await reasons(pub)).toContain(TX_ERROR.INSUFFICIENT_GAS_LIMIT);
  });
  it('refuses more L2 gas than the AVM processes', async () => {
    expect(await reasons(withGas(new Gas(96, 6_540_001)))).toEqual([TX_ERROR.GAS_LIMIT_TOO_HIGH]);
  });
  it('skips a tx whose max fee per gas is below the current min fee', async () => {
    expect(await h.mempool.isValidTx(h.tx({ maxFee: 999n }))).toEqual({
      result: 'skipped',
      reason: [TX_ERROR.INSUFFICIENT_FEE_PER_GAS],
    });
  });
  it('refuses a fee payer whose FeeJuice balance cannot cover the fee limit', async () => {
    expect(await reasons(h.tx({ payer: new AztecAddress(0xdeadn) }))).toEqual([
      TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE,
    ]);
  });
  it('counts a same-tx FeeJuice claim towards the balance', async () => {
    const broke = new AztecAddress(0xdeadn);
    const claim = {
      contract: 5n,
      sender: 5n,
      calldata: [new Fr(INCREASE_BALANCE), broke.toField(), new Fr(10n ** 16n)],
    };
    const tx = withPublicCalls(h.tx({ payer: broke }), { setup: [claim] });
    expect(TxMeta.of(tx).claimAmount).toBe(10n ** 16n);
    expect(await reasons(tx)).toEqual([]);
  });
  it('skipFeeEnforcement leaves gas and fees out', async () => {
    const r = await h.mempool.isValidTx(h.tx({ payer: new AztecAddress(0xdeadn), maxFee: 1n }), {
      skipFeeEnforcement: true,
    });
    expect(r).toEqual({ result: 'valid' });
  });
});

describe('setup allow list (phases)', () => {
  const setupTx = (call: Parameters<typeof withPublicCalls>[1]['setup']) => withPublicCalls(h.tx(), { setup: call });
  it('accepts the defaults', async () => {
    const ok = setupTx([{ contract: 1n, sender: 0x99n, calldata: [SET_AUTHORIZED, 1n, 1n].map((v) => new Fr(v)) }]);
    expect(await reasons(ok)).toEqual([]);
  });
  it('refuses a function not on the list', async () => {
    const tx = setupTx([{ contract: 77n, sender: 0x99n, calldata: [new Fr(0x1234n)] }]);
    expect(await reasons(tx)).toContain(TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED);
  });
  it('refuses the wrong calldata length', async () => {
    const tx = setupTx([{ contract: 1n, sender: 0x99n, calldata: [new Fr(SET_AUTHORIZED), new Fr(1n)] }]);
    expect(await reasons(tx)).toContain(TX_ERROR.SETUP_WRONG_CALLDATA_LENGTH);
  });
  it('refuses an only_self function called by another contract', async () => {
    const calldata = [INCREASE_BALANCE, 1n, 1n].map((v) => new Fr(v));
    expect(await reasons(setupTx([{ contract: 5n, sender: 0x99n, calldata }]))).toContain(
      TX_ERROR.SETUP_ONLY_SELF_WRONG_SENDER,
    );
  });
  it('refuses the null msg sender where the entry says so', async () => {
    const calldata = [SET_AUTHORIZED, 1n, 1n].map((v) => new Fr(v));
    const tx = setupTx([{ contract: 1n, sender: NULL_MSG_SENDER_CONTRACT_ADDRESS, calldata }]);
    expect(await reasons(tx)).toContain(TX_ERROR.SETUP_NULL_MSG_SENDER);
    const internal = [SET_AUTHORIZED_INTERNAL, 1n, 1n, 1n].map((v) => new Fr(v));
    expect(await reasons(setupTx([{ contract: 1n, sender: 1n, calldata: internal }]))).toEqual([]);
  });
  it('refuses a class-based entry for a contract the node does not know', async () => {
    h.settings.txPublicSetupAllowListExtend = parseAllowedSetupList(`C:0x${'0b'.repeat(32)}:0x11223344`);
    const tx = setupTx([{ contract: 77n, sender: 1n, calldata: [new Fr(0x11223344n)] }]);
    expect(await reasons(tx)).toContain(TX_ERROR.SETUP_FUNCTION_UNKNOWN_CONTRACT);
  });
  it('takes instance entries of the settings extension', async () => {
    h.settings.txPublicSetupAllowListExtend = parseAllowedSetupList(`I:0x${'00'.repeat(31)}4d:0x11223344:rn`);
    const tx = setupTx([{ contract: 0x4dn, sender: 1n, calldata: [new Fr(0x11223344n)] }]);
    expect(await reasons(tx)).toEqual([]);
  });
});

describe('public calls', () => {
  it('are valid: the node runs them', async () => {
    const tx = withPublicCalls(h.tx(), { app: [{ contract: 9n, sender: 1n, calldata: [new Fr(1n)] }] });
    expect(await reasons(tx)).toEqual([]);
  });
});

describe('data', () => {
  const app = (
    spec: Partial<Parameters<typeof withPublicCalls>[1]['app'] extends readonly (infer S)[] | undefined ? S : never>,
  ) => withPublicCalls(h.tx(), { app: [{ contract: 9n, sender: 1n, calldata: [new Fr(1n)], ...spec }] });
  it("refuses a claimed tx hash that is not the data's", async () => {
    const good = h.tx();
    const forged = new Tx(good.data, good.chonkProof, [], [], new TxHash(good.txHash.value + 1n));
    const r = validateTx(TxMeta.of(forged, { hashIsClaimed: true }), h.mempool.validationContext());
    expect(r).toEqual({ result: 'invalid', reason: [TX_ERROR.INCORRECT_HASH] });
    const honest = Tx.fromBuffer(good.toBuffer());
    expect(validateTx(TxMeta.of(honest, { hashIsClaimed: true }), h.mempool.validationContext())).toEqual({
      result: 'valid',
    });
  });
  it('refuses calldata missing for a public call', async () => {
    expect(await reasons(app({ omitCalldata: true }))).toContain(TX_ERROR.CALLDATA_COUNT_MISMATCH);
  });
  it("refuses calldata that does not hash to the call request's", async () => {
    expect(await reasons(app({ wrongHash: true }))).toContain(TX_ERROR.INCORRECT_CALLDATA);
  });
  it('refuses more than 16,000 calldata fields in all', async () => {
    expect(await reasons(app({ calldata: Array.from({ length: 16_001 }, () => new Fr(1n)) }))).toContain(
      TX_ERROR.CALLDATA_COUNT_TOO_LARGE,
    );
  });
  const published = () =>
    h.builder().build({
      feePayer: payer,
      maxFeesPerGas: new GasFees(0n, 1000n),
      publishContractClass: {
        artifactHash: new Fr(1n),
        privateFunctionsRoot: new Fr(2n),
        packedBytecode: Buffer.alloc(64, 7),
      },
    });
  it('accepts a published contract class with its log', async () => {
    expect(await reasons(published())).toEqual([]);
  });
  it('refuses a missing contract class log', async () => {
    expect(await reasons(withClassLogFields(published(), []))).toEqual([TX_ERROR.CONTRACT_CLASS_LOG_COUNT]);
  });
  it('refuses a contract class log other than the committed one', async () => {
    const other = ContractClassLogFields.fromEmitted([new Fr(9n)]);
    expect(await reasons(withClassLogFields(published(), [other]))).toEqual([TX_ERROR.CONTRACT_CLASS_LOGS]);
  });
  it('refuses a committed length shorter than the log', async () => {
    expect(await reasons(withClassLogLength(published(), 1))).toEqual([TX_ERROR.CONTRACT_CLASS_LOG_LENGTH]);
  });
});

describe('contract instances', () => {
  const instance = {
    salt: new Fr(1n),
    contractClassId: new Fr(2n),
    initializationHash: new Fr(3n),
    publicKeys: PublicKeys.default(),
    deployer: AztecAddress.ZERO,
  };
  const withLog = (log: PrivateLog) =>
    h.builder().build({ feePayer: payer, maxFeesPerGas: new GasFees(0n, 1000n), privateLogs: [log] });
  it('accepts a published instance at its derived address', async () => {
    const tx = h
      .builder()
      .build({ feePayer: payer, maxFeesPerGas: new GasFees(0n, 1000n), publishContractInstances: [instance] });
    expect(await reasons(tx)).toEqual([]);
  });
  it('refuses an instance announced at another address', async () => {
    const wrong = new ContractInstancePublishedEvent(
      new AztecAddress(12345n),
      1,
      instance.salt,
      instance.contractClassId,
      instance.initializationHash,
      instance.publicKeys,
      instance.deployer,
    );
    expect(await reasons(withLog(wrong.toLog()))).toEqual([TX_ERROR.INCORRECT_CONTRACT_ADDRESS]);
  });
  it('refuses an instance event that does not parse (unknown version)', async () => {
    const v2 = new ContractInstancePublishedEvent(
      new AztecAddress(12345n),
      2,
      instance.salt,
      instance.contractClassId,
      instance.initializationHash,
      instance.publicKeys,
      instance.deployer,
    );
    expect(await reasons(withLog(v2.toLog()))).toEqual([TX_ERROR.MALFORMED_CONTRACT_INSTANCE_LOG]);
  });
});

describe('proof', () => {
  it('accepts any proof with realProofs=false; a node asked for real proofs refuses, unless simulating', async () => {
    const tx = h.tx();
    const ctx = { ...h.mempool.validationContext(), realProofs: true };
    expect(validateTx(TxMeta.of(tx), ctx)).toEqual({ result: 'invalid', reason: [TX_ERROR.INVALID_PROOF] });
    expect(validateTx(TxMeta.of(tx), ctx, { isSimulation: true })).toEqual({ result: 'valid' });
  });
});

describe('failures inside a validator', () => {
  it("give 4.1.2's generic reason instead of an internal error", async () => {
    const ctx = {
      ...h.mempool.validationContext(),
      nullifiersExist: () => {
        throw new Error('disk on fire');
      },
    };
    expect(validateTx(TxMeta.of(h.tx()), ctx)).toEqual({ result: 'invalid', reason: [TX_ERROR.DURING_VALIDATION] });
  });
});
