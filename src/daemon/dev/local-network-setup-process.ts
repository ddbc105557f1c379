/**
 * The child process of the local network set-up (local-network-setup.ts): with the official 4.1.2 wallet on
 * the node at argv[2], does what `aztec start --local-network` does once its node runs: deploys the three test
 * accounts (serially, the first one publishing the Schnorr account class, as `deployFundedSchnorrAccounts`),
 * then the BananaCoin token and its BananaFPC from test account 0 (as `setupBananaFPC`: salt 0, universal
 * deployment, both at once). Each step is one JSON line on stdout for the parent; exit code 0 when all done.
 */
import { BANANA_COIN_ADDRESS, BANANA_COIN_ARGS, BANANA_FPC_ADDRESS } from '../../core/contract/banana-fpc.js';
import { openOfficialWallet } from './official-wallet.js';

/** What the child tells its parent, one JSON object a line. */
export type SetupReport =
  | { readonly event: 'account'; readonly address: string }
  | { readonly event: 'contract'; readonly name: 'BananaCoin' | 'BananaFPC'; readonly address: string }
  | { readonly event: 'done' }
  | { readonly event: 'failed'; readonly error: string };

function report(r: SetupReport): void {
  process.stdout.write(`${JSON.stringify(r)}\n`);
}

async function setUp(nodeUrl: string): Promise<void> {
  const { wallet } = await openOfficialWallet(nodeUrl);
  try {
    const { AztecAddress } = await import('@aztec/aztec.js/addresses');
    const { Fr } = await import('@aztec/aztec.js/fields');
    const { getInitialTestAccountsData } = await import('@aztec/accounts/testing');
    const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
    const { FPCContract } = await import('@aztec/noir-contracts.js/FPC');
    const accounts = await getInitialTestAccountsData();
    for (const [i, a] of accounts.entries()) {
      const manager = await wallet.createSchnorrAccount(a.secret, a.salt, a.signingKey);
      const deploy = await manager.getDeployMethod();
      await deploy.send({ from: AztecAddress.ZERO, skipClassPublication: i !== 0 });
      report({ event: 'account', address: manager.address.toString() });
    }
    const admin = accounts[0]!.address;
    const { name, symbol, decimals } = BANANA_COIN_ARGS;
    const salt = new Fr(0);
    const [{ contract: coin }, { contract: fpc }] = await Promise.all([
      TokenContract.deploy(wallet, admin, name, symbol, decimals).send({
        from: admin,
        contractAddressSalt: salt,
        universalDeploy: true,
      }),
      FPCContract.deploy(wallet, AztecAddress.fromString(BANANA_COIN_ADDRESS.toString()), admin).send({
        from: admin,
        contractAddressSalt: salt,
        universalDeploy: true,
      }),
    ]);
    // The addresses are fixed (banana-fpc.ts): a difference means another package version, not this network's.
    for (const [label, got, want] of [
      ['BananaCoin', coin.address.toString(), BANANA_COIN_ADDRESS.toString()],
      ['BananaFPC', fpc.address.toString(), BANANA_FPC_ADDRESS.toString()],
    ] as const) {
      if (got !== want) throw new Error(`${label} deployed at ${got}, expected ${want}`);
      report({ event: 'contract', name: label, address: got });
    }
  } finally {
    await wallet.stop();
  }
}

// The node that started this process is gone (the IPC channel closed): nothing is left to set up.
process.on('disconnect', () => process.exit(1));

const nodeUrl = process.argv[2];
if (!nodeUrl) {
  report({ event: 'failed', error: 'usage: local-network-setup-process <node url>' });
  process.exit(2);
}
setUp(nodeUrl).then(
  () => {
    report({ event: 'done' });
    process.exit(0);
  },
  (err: unknown) => {
    report({ event: 'failed', error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);
