import { parseEnum, parseHttpUrl, parseInteger } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';

/** A dev chain forked from a running network (docs/dev-chain.md, "Forking a network"). */
export const FORK_SETTINGS = {
  forkUrl: setting<string | undefined>({
    key: 'forkUrl',
    flag: 'fork-url',
    env: 'NODE_FORK_URL',
    defaultValue: undefined,
    parse: parseHttpUrl,
    kind: 'string',
    group: 'Dev chain',
    description:
      "Dev mode: fork this node's chain (its public JSON-RPC URL), as anvil --fork-url: blocks up to --fork-block " +
      "are the upstream's (same chain id, version, genesis and archive, each checked), later ones are built here.",
  }),
  forkBlock: setting<number | undefined>({
    key: 'forkBlock',
    flag: 'fork-block',
    env: 'NODE_FORK_BLOCK',
    defaultValue: undefined,
    parse: parseInteger(0, 2 ** 32 - 1),
    kind: 'string',
    group: 'Dev chain',
    description: "With --fork-url: the upstream's block the fork starts from (default: its latest block).",
  }),
  forkMode: setting<'replay' | 'lazy'>({
    key: 'forkMode',
    flag: 'fork-mode',
    env: 'NODE_FORK_MODE',
    defaultValue: 'lazy',
    parse: parseEnum(['lazy', 'replay'] as const),
    kind: 'string',
    group: 'Dev chain',
    description:
      "With --fork-url: 'lazy' starts at block N at once and fetches the upstream's state and contracts when " +
      "first used (any 4.1.2-compatible upstream keeping the world state of N and N-1); 'replay' re-executes the " +
      "upstream's blocks 1 to N at start and then serves the whole chain itself. docs/dev-chain.md.",
  }),
} as const;

export type ForkConfig = SettingValues<typeof FORK_SETTINGS>;
