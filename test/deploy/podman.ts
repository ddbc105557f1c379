/**
 * Podman for the container test, as these machines allow it (docs/deployment.md, "Building and testing the image
 * here"): `podman --runtime runc`, a containers.conf whose `default_ulimits = []` (setting rlimits is refused
 * here), builds with `--isolation chroot --network host`, and a Debian base image made locally with debootstrap,
 * since no container registry is reachable.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CommandRun, runCommand } from '../helpers/run-command.js';

export type Run = CommandRun;

/** Runs a command to completion with `env`. Never throws on a non-zero exit. */
function run(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return runCommand(cmd, args, { env });
}

/** Why containers cannot run on this machine, or undefined when podman, runc and debootstrap are all there. */
export async function containerToolsMissing(): Promise<string | undefined> {
  for (const [tool, arg] of [
    ['podman', '--version'],
    ['runc', '--version'],
    ['debootstrap', '--version'],
  ] as const) {
    const found = await run(tool, [arg]).then(
      (r) => r.code === 0,
      () => false,
    );
    if (!found) return `${tool} is not installed (.ci/run installs podman, runc and debootstrap with apt-get as root)`;
  }
  if (process.getuid?.() !== 0) return 'the container test runs podman as root (rootful storage and networks)';
  return undefined;
}

export class Podman {
  readonly env: NodeJS.ProcessEnv;

  /** `confDir` receives the containers.conf the calls use. */
  constructor(confDir: string) {
    const conf = join(confDir, 'containers.conf');
    writeFileSync(conf, '[containers]\ndefault_ulimits = []\n');
    this.env = { ...process.env, CONTAINERS_CONF: conf };
  }

  run(args: readonly string[]): Promise<Run> {
    return run('podman', ['--runtime', 'runc', ...args], this.env);
  }

  /** A call that must succeed: its stdout, trimmed. */
  async ok(args: readonly string[]): Promise<string> {
    const r = await this.run(args);
    if (r.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${r.code}\n${r.stderr}${r.stdout}`);
    return r.stdout.trim();
  }

  async imageExists(name: string): Promise<boolean> {
    return (await this.run(['image', 'exists', name])).code === 0;
  }

  /**
   * A Debian bookworm base image made with debootstrap from the mirror apt uses, imported as `name`. Podman's
   * storage keeps it, so later runs on the machine reuse it; the first run takes about 30 s and 200 MB.
   */
  async ensureDebianBase(name: string, workDir: string): Promise<'cached' | 'made'> {
    if (await this.imageExists(name)) return 'cached';
    const dir = mkdtempSync(join(workDir, 'l2node-debootstrap-'));
    try {
      const rootfs = join(dir, 'rootfs');
      const boot = await run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, aptMirror()]);
      if (boot.code !== 0) throw new Error(`debootstrap failed (${boot.code})\n${boot.stderr.slice(-2000)}`);
      const imported = await run(
        'bash',
        ['-o', 'pipefail', '-c', 'tar -C "$1" -c . | podman --runtime runc import - "$2"', 'import', rootfs, name],
        this.env,
      );
      if (imported.code !== 0) throw new Error(`podman import failed (${imported.code})\n${imported.stderr}`);
      return 'made';
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** The Debian mirror apt uses here (deb822 `.sources` or a sources.list `deb` line); deb.debian.org otherwise. */
export function aptMirror(): string {
  const texts: string[] = [];
  const list = '/etc/apt/sources.list';
  if (existsSync(list)) texts.push(readFileSync(list, 'utf8'));
  const dir = '/etc/apt/sources.list.d';
  if (existsSync(dir)) {
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.sources') || f.endsWith('.list'))) {
      texts.push(readFileSync(join(dir, f), 'utf8'));
    }
  }
  for (const text of texts) {
    const line = text.match(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/m);
    if (line) return line[1] as string;
    for (const stanza of text.split(/\n\s*\n/)) {
      const uri = stanza.match(/^URIs:\s*(\S+)/m);
      if (uri && /^Suites:.*\bbookworm\b(?!-)/m.test(stanza) && /^Types:.*\bdeb\b/m.test(stanza))
        return uri[1] as string;
    }
  }
  return 'http://deb.debian.org/debian';
}

/** The host's CA bundle, for npm inside the build behind a proxy that re-signs TLS (the build's CA secret). */
export function hostCaBundle(): string | undefined {
  for (const f of [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt']) {
    if (f && existsSync(f)) return f;
  }
  return undefined;
}
