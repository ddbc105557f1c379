/**
 * Differential test on application flows: 4.1.2's `Token` and `AMM` contracts deployed with their real
 * initialization hashes, driven through their public functions tx after tx (constructor, minting, public
 * transfers without authwit, reverting transfers, balances, burning; the AMM's constructor, add liquidity,
 * swap and remove liquidity as the private parts would enqueue them, with the partial notes' validity
 * commitments already nullified), on Aztec's TypeScript simulator and on ours. Every step's revert status,
 * output, gas, revert reason and effects must be equal.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  encodeCall,
  type LoadedContract,
  loadContract,
  partialNoteValidity,
  protocolContract,
  withConstructor,
} from '../../../helpers/avm/contracts.js';
import { runBoth, type Step } from '../../../helpers/avm/differential.js';
import { renderOutcome } from '../../../helpers/avm/outcome.js';
import { type ResolvedWorld, resolveWorld } from '../../../helpers/avm/world-description.js';

const ADMIN = 42n;
const ALICE = 111n;
const BOB = 222n;
const SUPPLY = 1_000_000_000n;

let token: LoadedContract;
let amm: LoadedContract;
let world: ResolvedWorld;
const addr = { token0: 0n, token1: 0n, liquidity: 0n, amm: 0n };

const tokenArgs = () => [ADMIN, 'Token', 'TOK', 18];

const PARTIAL = { refund0: 42n, refund1: 66n, liquidity: 99n, swapOut: 166n, remove0: 111n, remove1: 222n };

beforeAll(async () => {
  token = await loadContract('@aztec/noir-contracts.js', 'token_contract-Token');
  amm = await loadContract('@aztec/noir-contracts.js', 'amm_contract-AMM');
  const t0 = await withConstructor(token, tokenArgs(), ADMIN, 0);
  const t1 = await withConstructor(token, tokenArgs(), ADMIN, 1);
  const lq = await withConstructor(token, tokenArgs(), ADMIN, 2);
  addr.token0 = t0.address;
  addr.token1 = t1.address;
  addr.liquidity = lq.address;
  const a = await withConstructor(amm, [addr.token0, addr.token1, addr.liquidity], ADMIN, 3);
  addr.amm = a.address;
  world = await resolveWorld({
    contracts: [t0, t1, lq, a, await protocolContract('AuthRegistry')],
    nullifiers: [
      await partialNoteValidity(addr.token0, PARTIAL.refund0, addr.amm),
      await partialNoteValidity(addr.token1, PARTIAL.refund1, addr.amm),
      await partialNoteValidity(addr.liquidity, PARTIAL.liquidity, addr.amm),
      await partialNoteValidity(addr.token1, PARTIAL.swapOut, addr.amm),
      await partialNoteValidity(addr.token0, PARTIAL.remove0, addr.amm),
      await partialNoteValidity(addr.token1, PARTIAL.remove1, addr.amm),
    ],
  });
});

function on(
  contract: () => LoadedContract,
  address: () => bigint,
  sender: bigint,
  fn: string,
  args: unknown[],
  extra: Partial<Step> = {},
  isStaticCall = false,
): () => Step {
  return () => ({
    label: `${fn}(${args.map((x) => (typeof x === 'function' ? x() : x)).join(', ')}) from ${sender}`,
    request: {
      address: address(),
      sender,
      isStaticCall,
      calldata: encodeCall(
        contract(),
        fn,
        args.map((x) => (typeof x === 'function' ? x() : x)),
      ),
    },
    ...extra,
  });
}

const tx = { newTx: true };
const t0 = (sender: bigint, fn: string, args: unknown[], extra: Partial<Step> = tx, isStatic = false) =>
  on(
    () => token,
    () => addr.token0,
    sender,
    fn,
    args,
    extra,
    isStatic,
  );
const constructTokens = [
  t0(ADMIN, 'constructor', tokenArgs()),
  on(
    () => token,
    () => addr.token1,
    ADMIN,
    'constructor',
    tokenArgs(),
    tx,
  ),
  on(
    () => token,
    () => addr.liquidity,
    ADMIN,
    'constructor',
    tokenArgs(),
    tx,
  ),
];

const TOKEN_FLOW: (() => Step)[] = [
  ...constructTokens,
  t0(ADMIN, 'constructor', tokenArgs()),
  t0(ADMIN, 'mint_to_public', [ALICE, 1000n]),
  t0(ALICE, 'balance_of_public', [ALICE], tx, true),
  t0(ALICE, 'transfer_in_public', [ALICE, BOB, 100n, 0n]),
  t0(ALICE, 'transfer_in_public', [ALICE, BOB, 10n ** 12n, 0n]),
  t0(ALICE, 'transfer_in_public', [BOB, ALICE, 1n, 0n]),
  t0(ALICE, 'transfer_in_public', [BOB, ALICE, 1n, 7n]),
  t0(BOB, 'mint_to_public', [BOB, 5n]),
  t0(BOB, 'burn_public', [BOB, 40n, 0n]),
  t0(BOB, 'balance_of_public', [BOB], tx, true),
  t0(BOB, 'total_supply', [], tx, true),
  t0(ALICE, 'transfer_in_public', [ALICE, BOB, 1n, 0n], tx, true),
  t0(ADMIN, 'set_minter', [BOB, true]),
  t0(BOB, 'mint_to_public', [BOB, 5n]),
  t0(ADMIN, 'set_admin', [BOB]),
  t0(ADMIN, 'set_admin', [ALICE]),
];

const tenth = (n: bigint) => n / 10n;
/** A call a contract enqueues to itself (`#[only_self]` functions, called from its private part). */
function selfCall(
  contract: () => LoadedContract,
  address: () => bigint,
  fn: string,
  args: unknown[],
  extra: Partial<Step> = {},
) {
  return () => {
    const step = on(contract, address, 0n, fn, args, extra)();
    return { ...step, request: { ...step.request, sender: address() } };
  };
}

const AMM_FLOW: (() => Step)[] = [
  ...constructTokens,
  on(
    () => amm,
    () => addr.amm,
    ADMIN,
    'constructor',
    [() => addr.token0, () => addr.token1, () => addr.liquidity],
    tx,
  ),
  on(
    () => token,
    () => addr.liquidity,
    ADMIN,
    'set_minter',
    [() => addr.amm, true],
    tx,
  ),
  selfCall(
    () => token,
    () => addr.token0,
    '_increase_public_balance',
    [() => addr.amm, (SUPPLY * 6n) / 10n],
    tx,
  ),
  selfCall(
    () => token,
    () => addr.token1,
    '_increase_public_balance',
    [() => addr.amm, (SUPPLY * 5n) / 10n],
  ),
  selfCall(
    () => amm,
    () => addr.amm,
    '_add_liquidity',
    [
      () => ({ token0: addr.token0, token1: addr.token1, liquidity_token: addr.liquidity }),
      { commitment: PARTIAL.refund0 },
      { commitment: PARTIAL.refund1 },
      { commitment: PARTIAL.liquidity },
      (SUPPLY * 6n) / 10n,
      (SUPPLY * 5n) / 10n,
      (SUPPLY * 4n) / 10n,
      (SUPPLY * 4n) / 10n,
    ],
  ),
  selfCall(
    () => token,
    () => addr.token0,
    '_increase_public_balance',
    [() => addr.amm, tenth((SUPPLY * 4n) / 10n)],
    tx,
  ),
  selfCall(
    () => amm,
    () => addr.amm,
    '_swap_exact_tokens_for_tokens',
    [
      () => addr.token0,
      () => addr.token1,
      tenth((SUPPLY * 4n) / 10n),
      (SUPPLY * 4n) / 1000n,
      { commitment: PARTIAL.swapOut },
    ],
  ),
  selfCall(
    () => token,
    () => addr.liquidity,
    '_increase_public_balance',
    [() => addr.amm, 1000n],
    tx,
  ),
  selfCall(
    () => amm,
    () => addr.amm,
    '_remove_liquidity',
    [
      () => ({ token0: addr.token0, token1: addr.token1, liquidity_token: addr.liquidity }),
      1000n,
      { commitment: PARTIAL.remove0 },
      { commitment: PARTIAL.remove1 },
      0n,
      0n,
    ],
  ),
  // A swap asking for more than the pool gives: reverts in the AMM's own assertion.
  selfCall(
    () => token,
    () => addr.token0,
    '_increase_public_balance',
    [() => addr.amm, 10n],
    tx,
  ),
  selfCall(
    () => amm,
    () => addr.amm,
    '_swap_exact_tokens_for_tokens',
    [() => addr.token0, () => addr.token1, 10n, SUPPLY, { commitment: PARTIAL.swapOut }],
  ),
];

async function compareFlow(flow: (() => Step)[]) {
  const steps = flow.map((s) => s());
  const results = await runBoth(world, steps);
  expect(results.length, 'every step ran').toBe(steps.length);
  for (const r of results) {
    expect(r.oracle.aborted, `the oracle could not simulate ${r.step.label ?? ''}`).toBeUndefined();
    expect(r.diffs, `${r.step.label}\nours: ${renderOutcome(r.ours)}\noracle: ${renderOutcome(r.oracle)}`).toEqual([]);
  }
  return results;
}

describe('Token and AMM flows: our AVM against Aztec 4.1.2', () => {
  test('Token: constructor, mint, public transfers, reverts, burn, balances, admin', { timeout: 120_000 }, async () => {
    const results = await compareFlow(TOKEN_FLOW);
    // The flow means something: the transfer went through, the overdraft and the second constructor reverted.
    const byLabel = (prefix: string) => results.filter((r) => r.step.label?.startsWith(prefix)).map((r) => r.oracle);
    expect(byLabel('constructor')[0].reverted).toBe(false);
    expect(byLabel('constructor')[3].reverted).toBe(true);
    expect(byLabel('transfer_in_public').map((o) => o.reverted)).toEqual([false, true, true, true, true]);
    expect(byLabel('balance_of_public')[0].output).toEqual([1000n]);
  });

  test('AMM: constructor, add liquidity, swap, remove liquidity, a swap that reverts', {
    timeout: 120_000,
  }, async () => {
    const results = await compareFlow(AMM_FLOW);
    const reverted = results.map((r) => r.oracle.reverted);
    expect(reverted.slice(0, -1).every((x) => !x)).toBe(true);
    expect(reverted.at(-1)).toBe(true);
  });
});
