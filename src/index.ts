/**
 * l2node as a library: start a dev node from test code (docs/dev-chain.md, "From test code"). Importing this
 * entry loads nothing of the daemon until startNode is called.
 */
import type { StartedNode, StartNodeOptions } from './api/api-types.js';
import { loadStartNode } from './api/load-start-node.js';

export type { FundedAccount, StartedNode, StartNodeOptions } from './api/api-types.js';
export { type DevCheats, devCheats } from './api/dev-cheats.js';
export { type NodeFixture, type NodeFixtureOptions, nodeFixture, type TestHooks } from './api/node-fixture.js';

/**
 * Starts an in-memory dev node in this process, as `l2node start` does, on free ports of 127.0.0.1; resolves
 * once it serves, with its URLs, admin key, funded accounts, typed cheat codes and stop().
 */
export async function startNode(options: StartNodeOptions = {}): Promise<StartedNode> {
  return (await loadStartNode())(options);
}
