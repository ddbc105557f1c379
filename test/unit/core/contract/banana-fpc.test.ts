import { beforeAll, describe, expect, it } from 'vitest';
import { BANANA_COIN_ADDRESS, BANANA_FPC_ADDRESS } from '../../../../src/core/contract/banana-fpc.js';
import {
  TOKEN_ALLOWED_SETUP_FUNCTIONS,
  TOKEN_CLASS_ID,
} from '../../../../src/daemon/mempool/tx-checks/token-allowed-setup.js';
import { type LocalNetworkGenesis, localNetworkGenesis } from '../../../helpers/local-network-oracle.js';

let oracle: LocalNetworkGenesis;
beforeAll(async () => {
  oracle = await localNetworkGenesis();
}, 120_000);

describe("4.1.2's local network BananaFPC", () => {
  it('the BananaCoin and BananaFPC addresses are those the published packages compute', () => {
    expect(BANANA_COIN_ADDRESS.toString()).toBe(oracle.bananaCoin);
    expect(BANANA_FPC_ADDRESS.toString()).toBe(oracle.bananaFpc);
    expect(oracle.bananaFpc).toMatch(/^0x099602ed.*d2b71a$/);
  });

  it("the Token allow-list entries are 4.1.2's getTokenAllowedSetupFunctions", async () => {
    const { TokenContractArtifact } = await import('@aztec/noir-contracts.js/Token');
    const { getContractClassFromArtifact } = await import('@aztec/stdlib/contract');
    const { FunctionSelector, getAllFunctionAbis } = await import('@aztec/stdlib/abi');
    expect(TOKEN_CLASS_ID.toString()).toBe((await getContractClassFromArtifact(TokenContractArtifact)).id.toString());
    const expected = await Promise.all(
      [
        ['_increase_public_balance', true],
        ['transfer_in_public', false],
      ].map(async ([name, onlySelf]) => {
        const fn = getAllFunctionAbis(TokenContractArtifact).find((f) => f.name === name)!;
        const size = fn.parameters.reduce((n, p) => n + (p.type.kind === 'struct' ? p.type.fields.length : 1), 0);
        return {
          selector: (await FunctionSelector.fromNameAndParameters(fn.name, fn.parameters)).toString(),
          calldataLength: 1 + size,
          onlySelf: onlySelf ? true : undefined,
        };
      }),
    );
    expect(
      TOKEN_ALLOWED_SETUP_FUNCTIONS.map((e) => ({
        selector: e.selector.toString(),
        calldataLength: e.calldataLength,
        onlySelf: e.onlySelf,
      })),
    ).toEqual(expected);
  });
});
