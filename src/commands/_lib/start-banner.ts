import type { AztecAddress } from '../../core/aztec-address.js';
import { TEST_ACCOUNTS } from '../../core/test-accounts.js';
import type { PrefundedAccount } from '../../daemon/sequencer/prefunded-accounts.js';
import { prefundedAccountsBanner } from '../../daemon/sequencer/prefunded-accounts.js';
import type { StreamL1 } from '../../rpc/node-stream-event.js';
import type { AdminApiKey } from '../../rpc/server/admin-api-key.js';
import { adminKeyBanner } from '../../rpc/server/admin-api-key.js';
import { keyValues } from './human-format.js';

/** Whether `start` saved a newly generated admin key for the CLI. */
export type KeySaveOutcome =
  | { readonly saved: true; readonly file: string }
  | { readonly saved: false; readonly reason: string; readonly byFlag: boolean };

/** What the start banner shows: every fact is read from the started node, none restated. */
export interface StartBannerFacts {
  readonly version: string;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  readonly publicUrl: string;
  readonly adminUrl: string;
  readonly dataDirectory: string | undefined;
  /** `interval sequencer, 4 s slots, 2 blocks per slot`. */
  readonly sequencer: string;
  readonly prefunded: readonly PrefundedAccount[];
  /** The sponsored FPC at genesis, if the chain has it. */
  readonly sponsoredFpc: AztecAddress | undefined;
  readonly bananaFpc: AztecAddress | undefined;
  readonly adminKey: AdminApiKey;
  readonly keySave: KeySaveOutcome | undefined;
  /** Set when the tx bot runs beside the node. */
  readonly bot?: string;
  /** With an L1 (`--l1 anvil`, `--l1-rpc-urls`): where it is, the contracts, and anvil's funded accounts. */
  readonly l1?: StreamL1;
}

const LOGO = [
  ' _ ___               _     ',
  '| |_  )_ _  ___  __| |___ ',
  "| |/ /| ' \\/ _ \\/ _` / -_)",
  '|_/___|_||_\\___/\\__,_\\___|',
];

/**
 * The start-up banner (issue 10, after anvil's): version, chain, listeners, storage, prefunded accounts, and
 * the admin key box when this start generated a key, with where the CLI saved it. Printed once on stdout.
 */
export function renderStartBanner(f: StartBannerFacts): string {
  const auth = f.adminKey.enabled ? 'API key' : 'NO AUTHENTICATION (--disable-admin-api-key)';
  const lines = [
    '',
    ...LOGO,
    '',
    keyValues([
      ['Version', `l2node ${f.version}`],
      ['L1 chain id', f.l1ChainId],
      ['Rollup version', f.rollupVersion],
      ['Public RPC', `${f.publicUrl}  (node_ methods, GET /status)`],
      ['Admin RPC', `${f.adminUrl}  (nodeAdmin_ methods, ${auth})`],
      ['Data directory', f.dataDirectory ?? 'in memory: nothing is kept after the node stops (--data-directory)'],
      ['Sequencer', f.sequencer],
      ['Tx bot', f.bot],
    ]),
    ...(f.l1 ? [l1Banner(f.l1)] : []),
    prefundedAccountsBanner(f.prefunded, f.sponsoredFpc, f.bananaFpc).trimEnd(),
  ];
  if (f.adminKey.enabled && f.adminKey.newKey) {
    lines.push(adminKeyBanner(f.adminKey.newKey, f.adminUrl, f.adminKey.file).trimEnd());
    if (f.keySave?.saved) {
      lines.push(
        `  Saved for the l2node CLI in ${f.keySave.file} (for ${f.adminUrl}):`,
        '  admin commands on this machine use it, e.g. `l2node admin pause-sync`.',
      );
    } else if (f.keySave) {
      lines.push(
        f.keySave.byFlag
          ? '  Not saved for the CLI (--no-save-api-key).'
          : `  Could not save it for the CLI: ${f.keySave.reason}.`,
        '  Give it to admin commands with --api-key or NODE_ADMIN_API_KEY, or save it: `l2node admin login`.',
      );
    }
  } else if (f.adminKey.enabled) {
    lines.push(
      '',
      `Admin API key: unchanged (${f.adminKey.source === 'flag' ? '--admin-api-key-hash' : 'its hash is kept in the data directory'}).`,
      'Admin commands use the key saved by `l2node admin login` (or --api-key / NODE_ADMIN_API_KEY).',
    );
  }
  return `${lines.join('\n')}\n\n`;
}

/** The L1 part of the banner: where it is, the contracts a developer sends to, anvil's accounts with keys. */
function l1Banner(l1: StreamL1): string {
  const lines = [
    '',
    keyValues([
      ['L1', `${l1.anvil ? 'anvil' : 'L1'} at ${l1.rpcUrl} (chain id ${l1.chainId})`],
      ['Rollup', l1.rollupAddress],
      ['Registry', l1.registryAddress],
      ['Inbox', l1.inboxAddress],
      ['Outbox', l1.outboxAddress],
      ['FeeJuice portal', l1.feeJuicePortalAddress],
    ]),
  ];
  if (l1.anvil) {
    lines.push('', "L1 accounts (anvil's test accounts, 10,000 ETH each at genesis; (0) deploys and publishes):");
    for (const [i, a] of l1.anvil.accounts.entries()) lines.push(`  (${i}) ${a.address}  key ${a.privateKey}`);
  }
  return lines.join('\n');
}

/**
 * The banner as the --json envelope of `start` (one line): the same facts, the new admin key included when this
 * start generated one (it is shown once, here as in the human banner).
 */
export function startEnvelope(f: StartBannerFacts): { status: 0; result: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  if (!f.adminKey.enabled) warnings.push('admin authentication is disabled (--disable-admin-api-key)');
  if (f.keySave && !f.keySave.saved && !f.keySave.byFlag)
    warnings.push(`the admin API key was not saved: ${f.keySave.reason}`);
  return {
    status: 0,
    result: {
      version: f.version,
      l1ChainId: f.l1ChainId,
      rollupVersion: f.rollupVersion,
      publicUrl: f.publicUrl,
      adminUrl: f.adminUrl,
      dataDirectory: f.dataDirectory ?? null,
      sequencer: f.sequencer,
      prefundedAccounts: f.prefunded.map((a) => {
        const keys = TEST_ACCOUNTS.find((t) => t.address.value === a.address.value);
        const known = keys ? { secret: keys.secret, salt: keys.salt, signingKey: keys.signingKey } : {};
        return { address: a.address.toString(), amount: a.amount.toString(), ...known };
      }),
      sponsoredFPC: f.sponsoredFpc?.toString() ?? null,
      bananaFPC: f.bananaFpc?.toString() ?? null,
      adminAuth: f.adminKey.enabled ? 'api-key' : 'disabled',
      adminApiKey: f.adminKey.enabled && f.adminKey.newKey ? f.adminKey.newKey : null,
      credentialsFile: f.keySave?.saved ? f.keySave.file : null,
      bot: f.bot ?? null,
      l1: f.l1
        ? {
            rpcUrl: f.l1.rpcUrl,
            chainId: f.l1.chainId,
            rollupAddress: f.l1.rollupAddress,
            registryAddress: f.l1.registryAddress,
            inboxAddress: f.l1.inboxAddress,
            outboxAddress: f.l1.outboxAddress,
            feeJuicePortalAddress: f.l1.feeJuicePortalAddress,
            accounts: f.l1.anvil?.accounts ?? [],
          }
        : null,
    },
    warnings,
  };
}
