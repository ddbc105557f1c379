import type { DevCheats } from './dev-cheats.js';

/** The options and the answer of startNode (the package entry, src/index.ts). */

export interface StartNodeOptions {
  /**
   * `l2node start` flags by name, without the dashes, as the command line gives them (`{ 'sequencer-mode':
   * 'interval', 'slot-duration': '2' }`); every other setting keeps its default. The listeners always bind
   * 127.0.0.1 on free ports and the node runs in memory unless `data-directory` is given. The environment's
   * NODE_* variables are not read: a test gets the same node on every machine.
   */
  readonly flags?: Readonly<Record<string, string | boolean>>;
  /** The log level spec (as --log-level); default `error`. The log goes to stderr as JSON lines. */
  readonly logLevel?: string;
}

/** A funded account of the node's genesis, with the keys the official wallet takes when it is a test account. */
export interface FundedAccount {
  /** 0x + 64 hex digits. */
  readonly address: string;
  /** FeeJuice at genesis, base units. */
  readonly feeJuice: bigint;
  /** For Aztec 4.1.2's test accounts: `wallet.createSchnorrAccount(secret, salt, signingKey)`. */
  readonly secret?: string;
  readonly salt?: string;
  readonly signingKey?: string;
}

/** A running node started by startNode. */
export interface StartedNode {
  /** The public listener (node_ methods): give it to `createAztecNodeClient`. */
  readonly publicUrl: string;
  /** The admin listener (nodeAdmin_ and nodeDev_ methods). */
  readonly adminUrl: string;
  /** The admin API key this start generated (sent as x-api-key); undefined with `disable-admin-api-key`. */
  readonly adminApiKey: string | undefined;
  readonly accounts: readonly FundedAccount[];
  /** The canonical sponsored FPC's address, funded at genesis, unless `sponsored-fpc` is false. */
  readonly sponsoredFpc: string | undefined;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  /** The cheat codes, typed. */
  readonly cheats: DevCheats;
  /** Stops the node; its in-memory chain is gone. */
  stop(): Promise<void>;
}

/** startNode's signature: the package entry loads it on first use. */
export type StartNode = (options?: StartNodeOptions) => Promise<StartedNode>;
