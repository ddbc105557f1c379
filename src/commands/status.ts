import { describeL1Tx, l1TxSubject } from '../rpc/l1-tx-text.js';
import type { StreamL1 } from '../rpc/node-stream-event.js';
import { formatEth } from '../ui/text-format.js';
import { resolveAdminKey } from './_lib/admin-key.js';
import { BaseCommand } from './_lib/base-command.js';
import { CliError } from './_lib/cli-error.js';
import { connectionFlags, fullFlag } from './_lib/connection-flags.js';
import { EXIT_CODES } from './_lib/exit-codes.js';
import { keyValues, shortHex } from './_lib/human-format.js';
import { NodeConnection } from './_lib/node-connection.js';
import { wireOf } from './_lib/wire-json.js';

/** The parts of GET /status this command reads (the body is free-form JSON; a part may be missing). */
interface StatusBody {
  readonly status?: unknown;
  readonly ready?: unknown;
  readonly notReadyReason?: unknown;
  readonly sync?: { readonly state?: string; readonly pausedBy?: readonly string[] };
  readonly follower?: { readonly upstream?: string; readonly behind?: number };
  /** Present when the node runs with an L1 (docs/l1.md); a part may be missing (an older node). */
  readonly l1?: Partial<StreamL1>;
  /** Present when P2P is on (docs/network.md). */
  readonly p2p?: { readonly peerId?: string; readonly peerCount?: number; readonly enr?: string };
  /** A dev chain's local network set-up at first start (docs/dev-chain.md). */
  readonly localNetworkSetup?: {
    readonly state?: string;
    readonly reason?: string;
    readonly accounts?: readonly string[];
    readonly bananaFpc?: string;
    readonly error?: string;
    readonly seconds?: number;
  };
}

/** The `local network` line: whether the test accounts and the BananaFPC are deployed yet. */
function localNetworkLine(s: NonNullable<StatusBody['localNetworkSetup']>, full: boolean): string {
  const accounts = `${s.accounts?.length ?? 0} of 3 test accounts deployed`;
  switch (s.state) {
    case 'running':
      return `setting up: ${accounts}, then the BananaFPC`;
    case 'done':
      return `set up in ${s.seconds} s: test accounts deployed, BananaFPC ${shortHex(s.bananaFpc ?? '-', full)}`;
    case 'failed':
      return `set-up FAILED after ${accounts}: ${s.error ?? 'no reason given'}`;
    default:
      return `set-up ${s.state ?? '-'}${s.reason ? `: ${s.reason}` : ''}`;
  }
}

/** The `l1` line: chain, latest block, rollup, publisher balance; or why the L1 does not answer. */
function l1Line(l1: NonNullable<StatusBody['l1']>, full: boolean): string {
  const where = `chain ${l1.chainId} at ${l1.rpcUrl}`;
  if (l1.reachable === false) return `${where}  UNREACHABLE: ${l1.lastError ?? 'no answer'} (the node keeps retrying)`;
  const balance = l1.publisher?.balanceWei !== undefined ? formatEth(l1.publisher.balanceWei) : '-';
  return (
    `${where}, block ${l1.blockNumber ?? '-'}; rollup ${shortHex(l1.rollupAddress ?? '-', full)}; ` +
    `publisher ${shortHex(l1.publisher?.address ?? '-', full)}${l1.publisher?.lowBalance ? ' LOW' : ''} ${balance}`
  );
}

/** The `l1 contracts` line: where to send L1-to-L2 messages and bridge FeeJuice from. */
function l1ContractsLine(l1: NonNullable<StatusBody['l1']>, full: boolean): string | undefined {
  if (!l1.inboxAddress) return undefined;
  const hex = (v: string | undefined) => shortHex(v ?? '-', full);
  return (
    `registry ${hex(l1.registryAddress)}, inbox ${hex(l1.inboxAddress)}, outbox ${hex(l1.outboxAddress)}, ` +
    `FeeJuice portal ${hex(l1.feeJuicePortalAddress)}`
  );
}

/** The `l1 accounts` line of `--l1 anvil`: its funded test accounts and keys (the first publishes). */
function l1AccountsLine(anvil: NonNullable<NonNullable<StatusBody['l1']>['anvil']>, full: boolean): string {
  const shown = full ? anvil.accounts : anvil.accounts.slice(0, 3);
  const list = shown.map((a, i) => `(${i}) ${a.address} key ${a.privateKey}`).join('; ');
  return `${list}${shown.length < anvil.accounts.length ? `; ${anvil.accounts.length - shown.length} more with --full` : ''} (anvil's test accounts, 10,000 ETH each at genesis; (0) publishes)`;
}

/** The `l1 txs` line: the publisher's last proposal and proof (none yet before the first). */
function l1TxsLine(l1: NonNullable<StatusBody['l1']>, full: boolean): string | undefined {
  if (l1.lastProposal === undefined && l1.lastProof === undefined) return undefined;
  const hex = (h: string) => shortHex(h, full);
  return (
    `last proposal: ${l1.lastProposal ? describeL1Tx(l1.lastProposal, hex) : 'none yet'}, ` +
    `last proof: ${l1.lastProof ? describeL1Tx(l1.lastProof, hex) : 'none yet'}`
  );
}

export default class Status extends BaseCommand {
  static override summary = 'Show whether the node is up, where its chain stands, and whether admin access works.';
  static override description =
    'Reads GET /status and the chain tips, node info, readiness, mempool size and min fees from the public ' +
    'listener, then checks the admin listener: reachable, and whether it accepts the API key (--api-key, ' +
    'NODE_ADMIN_API_KEY or the saved one). Exits 5 when the public listener does not answer; an admin listener ' +
    'that does not answer is a warning. The --json result holds each part.';
  static override examples = [
    '<%= config.bin %> status',
    '<%= config.bin %> status --json | jq .result.tips.proposed.number',
    '<%= config.bin %> status --node-url http://10.0.0.5:8080 --admin-url http://10.0.0.5:8880',
  ];
  static override flags = {
    ...connectionFlags,
    full: fullFlag,
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(Status);
    const node = new NodeConnection({ url: flags['node-url'], listener: 'public', timeoutMs: flags.timeout });
    const health = await node.health();
    if (!health) {
      throw new CliError(`no node answers at ${flags['node-url']}`, {
        exitCode: EXIT_CODES.unreachable,
        code: 'UNREACHABLE',
        actions: ['start one: l2node start', 'or name it: --node-url / NODE_URL'],
      });
    }
    const serving = health.status === 200;
    const chain = serving
      ? await Promise.all([
          node.call('node_getNodeInfo'),
          node.call('node_getL2Tips'),
          node.call('node_isReady'),
          node.call('node_getPendingTxCount'),
          node.call('node_getCurrentMinFees'),
        ])
      : undefined;
    const [info, tips, ready, pending, minFees] = chain ?? [undefined, undefined, false, undefined, undefined];
    const admin = await this.checkAdmin(flags);
    // Why the node is not ready when the node itself is the reason (a full disk): GET /status says it.
    // GET /status's readiness: `ready` there means it also produces or follows blocks (not paused, not behind).
    const body: StatusBody = typeof health.body === 'object' && health.body !== null ? health.body : {};
    const followingChain = serving && body.ready === true;
    const notReadyReason = serving && (!ready || !followingChain) ? body.notReadyReason : undefined;
    const { sync, follower, l1 } = body;
    const syncLine = sync?.state
      ? `${sync.state}${sync.pausedBy?.length ? ` (paused by ${sync.pausedBy.join(', ')})` : ''}` +
        (follower ? `; following ${follower.upstream}, ${follower.behind ?? 0} blocks behind` : '')
      : undefined;
    const readyText = !ready
      ? `, not ready for txs${notReadyReason ? `: ${String(notReadyReason)}` : ''}`
      : followingChain
        ? ', ready for txs'
        : `, ready for txs, not following the chain${notReadyReason ? `: ${String(notReadyReason)}` : ''}`;

    this.log(
      keyValues([
        ['node', `${flags['node-url']}  ${String(body.status ?? '-')}${serving ? readyText : ''}`],
        ['sync', serving ? syncLine : undefined],
        [
          'version',
          info
            ? `l2node ${info.nodeVersion}, rollup version ${info.rollupVersion}, L1 chain id ${info.l1ChainId}`
            : undefined,
        ],
        [
          'chain',
          tips
            ? `proposed ${tips.proposed.number} (${shortHex(tips.proposed.hash, flags.full)}), checkpointed ${tips.checkpointed.block.number}, proven ${tips.proven.block.number}, finalized ${tips.finalized.block.number}`
            : undefined,
        ],
        [
          'mempool',
          minFees
            ? `${pending} pending; min fee ${minFees.feePerL2Gas} per L2 gas, ${minFees.feePerDaGas} per DA gas`
            : undefined,
        ],
        ['p2p', body.p2p ? `${body.p2p.peerCount ?? 0} peers; peer id ${body.p2p.peerId}` : undefined],
        ['enr', body.p2p?.enr],
        ['local network', body.localNetworkSetup ? localNetworkLine(body.localNetworkSetup, flags.full) : undefined],
        ['l1', l1 ? l1Line(l1, flags.full) : undefined],
        ['l1 contracts', l1 ? l1ContractsLine(l1, flags.full) : undefined],
        ['l1 accounts', l1?.anvil ? l1AccountsLine(l1.anvil, flags.full) : undefined],
        ['l1 txs', l1 ? l1TxsLine(l1, flags.full) : undefined],
        ['admin', `${flags['admin-url']}  ${admin.summary}`],
      ]),
    );
    if (l1?.reachable === false) this.warning(`the node's L1 ${l1.rpcUrl} does not answer: ${l1.lastError}`);
    if (l1?.publisher?.lowBalance && l1.publisher.balanceWei !== undefined) {
      this.warning(
        `the L1 publisher ${l1.publisher.address} holds ${formatEth(l1.publisher.balanceWei)}, less than one ` +
          'proposal may cost: send it ETH, or proposals and proofs fail (docs/l1.md, Monitoring)',
      );
    }
    for (const tx of [l1?.lastProposal, l1?.lastProof]) {
      if (tx && !tx.ok) {
        this.warning(
          `the last L1 ${tx.kind === 'propose' ? 'proposal' : 'proof'} (${l1TxSubject(tx)}) failed: ` +
            `${tx.error ?? 'no reason given'}; the node retries`,
        );
      }
    }
    if (!admin.reachable) this.warning(`the admin listener ${flags['admin-url']} does not answer`);
    else if (admin.keyAccepted === false) {
      this.warning(
        admin.keySource === 'none'
          ? 'the admin listener needs an API key and none is given or saved: run `l2node admin login`'
          : `the admin listener refuses the ${admin.keySource} API key: run \`l2node admin login\``,
      );
    }
    return {
      node: {
        url: flags['node-url'],
        status: body.status ?? null,
        httpStatus: health.status,
        // The same readiness as GET /status and GET /ready (serving and following the chain); node_isReady's
        // narrower "accepts txs" is `acceptingTxs`, as in the /status body.
        ready: followingChain,
        acceptingTxs: ready,
        ...(notReadyReason ? { notReadyReason } : {}),
        sync: sync ?? null,
        follower: follower ?? null,
      },
      l1: l1 ?? null,
      localNetworkSetup: body.localNetworkSetup ?? null,
      info: info ? wireOf('node_getNodeInfo', info) : null,
      tips: tips ? wireOf('node_getL2Tips', tips) : null,
      mempool: minFees ? { pending, minFees: wireOf('node_getCurrentMinFees', minFees) } : null,
      admin: {
        url: flags['admin-url'],
        reachable: admin.reachable,
        keySource: admin.keySource,
        keyAccepted: admin.keyAccepted,
      },
    };
  }

  /** Reachable through GET /status (no key needed), then a read-only admin call to see whether the key passes. */
  private async checkAdmin(flags: { 'admin-url': string; 'api-key'?: string; timeout: number }): Promise<{
    reachable: boolean;
    keySource: string;
    keyAccepted: boolean | null;
    summary: string;
  }> {
    const { apiKey, source } = resolveAdminKey(flags['api-key'], flags['admin-url']);
    const admin = new NodeConnection({ url: flags['admin-url'], listener: 'admin', apiKey, timeoutMs: flags.timeout });
    if (!(await admin.health())) {
      return { reachable: false, keySource: source, keyAccepted: null, summary: 'not answering' };
    }
    let accepted = true;
    try {
      await admin.call('nodeAdmin_getConfig');
    } catch (err) {
      // Past authentication any answer (even "not available yet") proves the key.
      if (err instanceof CliError && err.code === 'UNAUTHORIZED') accepted = false;
      else if (!(err instanceof CliError)) throw err;
    }
    let summary: string;
    if (source === 'none') {
      summary = accepted ? 'reachable, no API key needed' : 'reachable, needs an API key (l2node admin login)';
    } else {
      summary = accepted
        ? `reachable, ${source} API key accepted`
        : `reachable, ${source} API key refused (l2node admin login)`;
    }
    return { reachable: true, keySource: source, keyAccepted: accepted, summary };
  }
}
