import type { StartedNode, StartNodeOptions } from './api-types.js';
import { loadStartNode } from './load-start-node.js';

/** The lifecycle hooks of a test framework: vitest's and jest's have these names and this shape. */
export interface TestHooks {
  beforeAll(fn: () => Promise<unknown>, timeout?: number): void;
  afterAll(fn: () => Promise<unknown>, timeout?: number): void;
  beforeEach(fn: () => Promise<unknown>, timeout?: number): void;
  afterEach(fn: () => Promise<unknown>, timeout?: number): void;
}

export interface NodeFixture {
  /** The file's node; read it inside a test or a hook (it starts in beforeAll). */
  readonly node: StartedNode;
}

export interface NodeFixtureOptions extends StartNodeOptions {
  /** What else runs once the node is up (deploying accounts, contracts), before the first snapshot. */
  readonly setup?: (node: StartedNode) => Promise<unknown>;
  /** Milliseconds the start (the local network set-up included) and `setup` may take; default 300 s. */
  readonly timeoutMs?: number;
}

/**
 * A node per test file, put back after every test: the node starts in beforeAll (then `setup` runs), each test
 * starts from a snapshot taken before it and the node reverts to it afterwards (nodeDev_snapshot /
 * nodeDev_revert), and afterAll stops it. Pass the framework's hooks: `nodeFixture({ beforeAll, afterAll,
 * beforeEach, afterEach })` with vitest or jest.
 */
export function nodeFixture(hooks: TestHooks, options: NodeFixtureOptions = {}): NodeFixture {
  let node: StartedNode | undefined;
  let snapshot: number | undefined;
  const timeout = options.timeoutMs ?? 300_000;
  hooks.beforeAll(async () => {
    const startNode = await loadStartNode();
    node = await startNode(options);
    await options.setup?.(node);
  }, timeout);
  hooks.afterAll(async () => {
    await node?.stop();
    node = undefined;
  });
  hooks.beforeEach(async () => {
    if (node) snapshot = await node.cheats.snapshot();
  });
  hooks.afterEach(async () => {
    if (node && snapshot !== undefined) await node.cheats.revert(snapshot);
    snapshot = undefined;
  }, timeout);
  return {
    get node(): StartedNode {
      if (!node) throw new Error('the fixture node is not started: read it inside a test or a hook');
      return node;
    },
  };
}
