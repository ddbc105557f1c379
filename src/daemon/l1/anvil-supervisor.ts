import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * A POSIX shell that runs anvil and kills it as soon as the node is gone. Linux offers no parent-death signal
 * to a Node process, and a node killed with SIGKILL runs no exit handler: what it cannot avoid is the kernel
 * closing its pipes. So the shell keeps the read end of a pipe from the node (its stdin) open in a watcher that
 * kills anvil with SIGKILL when the pipe closes; the shell itself waits for anvil and exits with its status, so
 * the node sees anvil end. anvil's stdin is /dev/null; its output goes to the node.
 */
const SUPERVISOR = [
  'exec 3<&0',
  '"$@" </dev/null &',
  'anvil=$!',
  // The node reports anvil's own pid (an operator or a test may want to signal anvil alone).
  'echo "supervised anvil pid $anvil"',
  '{ cat <&3; kill -KILL "$anvil"; } >/dev/null 2>&1 &',
  'exec 3<&-',
  'wait "$anvil"',
  'exit $?',
].join('\n');

/**
 * Starts `binary args` (anvil) under the supervisor, in a process group of its own: a Ctrl-C at the terminal
 * reaches the node only (which stops anvil after saving its state), and `signalGroup` reaches anvil, the shell
 * and the watcher at once.
 */
export function spawnSupervised(binary: string, args: readonly string[]): ChildProcess {
  return spawn('/bin/sh', ['-c', SUPERVISOR, 'anvil-supervisor', binary, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
}

/** anvil's pid, from the supervisor's line that announces it; undefined for any other line. */
export function supervisedPid(line: string): number | undefined {
  const m = /^supervised anvil pid (\d+)$/.exec(line.trim());
  return m ? Number(m[1]) : undefined;
}

/** Sends `signal` to every process of the supervised group (anvil, its shell, the watcher); gone ones are skipped. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** How a supervised anvil ended: the shell exits with 128 + n when anvil died of signal n. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return signal;
  if (code !== null && code > 128) {
    const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
    return name ?? `signal ${code - 128}`;
  }
  return `code ${code}`;
}
