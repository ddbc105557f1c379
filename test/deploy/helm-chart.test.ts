/**
 * deploy/helm/l2node against the spec's deployment rules and the image it deploys: values (admin key
 * authentication off by default and on in production values, with the hash from a Secret), the Service (public
 * port only), probes on /status, persistent data, non-root and read-only root filesystem, metrics. Helm itself is
 * not installable on every machine: the chart is read structurally here, and `helm lint` plus `helm template`
 * run (and their output is checked) only where helm is on PATH.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../helpers/spawn-node.js';

const CHART = join(REPO_ROOT, 'deploy/helm/l2node');
const read = (file: string) => readFileSync(join(CHART, file), 'utf8');

interface ChartValues {
  disableAdminApiKey: boolean;
  syncFrom: string;
  adminApiKeyHash: { existingSecret: string; secretKey: string };
  publicPort: number;
  adminPort: number;
  metrics: { enabled: boolean; port: number; serviceMonitor: { enabled: boolean } };
  resources: { requests: Record<string, unknown>; limits: Record<string, unknown> };
  persistence: Record<string, unknown>;
  podSecurityContext: Record<string, unknown>;
  securityContext: Record<string, unknown>;
  terminationGracePeriodSeconds: number;
}
const values = (file: string) => parse(read(file)) as ChartValues;
const template = (name: string) => read(join('templates', name));
const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');

/** The value of a Dockerfile instruction of the runtime stage (the last one of its kind). */
function instruction(name: string): string {
  const lines = dockerfile.split('\n').filter((l) => l.startsWith(`${name} `));
  return (lines.at(-1) ?? '').slice(name.length + 1).trim();
}

describe('Helm chart: values', () => {
  const dev = values('values.yaml');
  const production = values('values-production.yaml');

  it('is a chart named l2node', () => {
    expect(values('Chart.yaml')).toMatchObject({ apiVersion: 'v2', name: 'l2node', type: 'application' });
  });

  it('defaults to disableAdminApiKey: true and a dev chain; production values turn the key on, hash from a Secret', () => {
    expect(dev.disableAdminApiKey).toBe(true);
    expect(dev.syncFrom).toBe('');
    expect(production.disableAdminApiKey).toBe(false);
    expect(production.adminApiKeyHash.existingSecret).toMatch(/^[a-z0-9-]+$/);
    expect(production.adminApiKeyHash.secretKey).toBe(dev.adminApiKeyHash.secretKey);
    expect(values('values-follower.yaml').syncFrom).toMatch(/^https?:\/\//);
  });

  it('runs as the image user, non-root, with a read-only root filesystem and no capabilities', () => {
    const [uid, gid] = instruction('USER').split(':').map(Number);
    expect(uid).toBeGreaterThan(0);
    expect(dev.podSecurityContext).toMatchObject({ runAsNonRoot: true, runAsUser: uid, runAsGroup: gid, fsGroup: gid });
    expect(dev.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('uses the image ports, resources and a grace period above the node’s own 15 s stop limit', () => {
    expect(instruction('EXPOSE')).toBe(String(dev.publicPort));
    expect(dockerfile).toContain(`NODE_ADMIN_PORT=${dev.adminPort}`);
    expect(dev.metrics).toMatchObject({ enabled: true, serviceMonitor: { enabled: false } });
    expect(production.metrics.serviceMonitor.enabled).toBe(true);
    expect(dev.resources.requests).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
    expect(dev.resources.limits.memory).toBeDefined();
    expect(dev.terminationGracePeriodSeconds).toBeGreaterThan(15);
    expect(dev.persistence).toMatchObject({ size: expect.stringMatching(/Gi$/), accessModes: ['ReadWriteOnce'] });
  });
});

describe('Helm chart: templates', () => {
  const statefulset = template('statefulset.yaml');
  const service = template('service.yaml');

  it('balances every template block with its end', () => {
    for (const name of readdirSync(join(CHART, 'templates'))) {
      const text = template(name);
      const opened = text.match(/\{\{-?\s*(if|with|range|define)\b/g)?.length ?? 0;
      const ended = text.match(/\{\{-?\s*end\s*-?\}\}/g)?.length ?? 0;
      expect(ended, name).toBe(opened);
      expect(text.match(/\{\{/g)?.length ?? 0, name).toBe(text.match(/\}\}/g)?.length ?? 0);
    }
  });

  it('exposes the public port only: one Service port, no admin port on the container or any Service', () => {
    expect(service.match(/^\s+- name: /gm)).toHaveLength(1);
    expect(service).toMatch(/- name: rpc\n\s+port: \{\{ \.Values\.publicPort \}\}\n\s+targetPort: rpc/);
    for (const name of readdirSync(join(CHART, 'templates'))) {
      const uses = template(name).match(/\.Values\.adminPort/g) ?? [];
      // The only use: the NODE_ADMIN_PORT value, beside NODE_ADMIN_HOST on the pod's loopback.
      expect(uses.length, name).toBe(name === 'statefulset.yaml' ? 1 : 0);
    }
    expect(statefulset).toMatch(/- name: NODE_ADMIN_HOST\n\s+value: "127\.0\.0\.1"/);
    expect(statefulset).toMatch(/- name: NODE_ADMIN_PORT\n\s+value: \{\{ \.Values\.adminPort \| quote \}\}/);
    const containerPorts = statefulset.match(/containerPort: .*/g);
    // The P2P ports (TCP for libp2p, UDP for discv5) when P2P is on: peers dial them, they serve no RPC.
    expect(containerPorts).toEqual([
      'containerPort: {{ .Values.publicPort }}',
      'containerPort: {{ .Values.metrics.port }}',
      'containerPort: {{ .Values.p2p.port }}',
      'containerPort: {{ .Values.p2p.port }}',
    ]);
  });

  it('keeps the data directory on a persistent volume claim of a StatefulSet', () => {
    expect(statefulset).toContain('kind: StatefulSet');
    expect(statefulset).toMatch(/volumeClaimTemplates:\n\s+- metadata:\n\s+name: data/);
    expect(statefulset).toMatch(/- name: data\n\s+mountPath: \/data/);
    expect(statefulset).toMatch(/- name: NODE_DATA_DIRECTORY\n\s+value: \/data/);
    expect(dockerfile).toContain('VOLUME ["/data"]');
  });

  it('probes GET /status: startup and liveness on the status code, readiness through the image’s body-reading probe', () => {
    for (const probe of ['startupProbe', 'livenessProbe']) {
      expect(statefulset).toMatch(new RegExp(`${probe}:\\n\\s+httpGet:\\n\\s+path: /status\\n\\s+port: rpc`));
    }
    expect(statefulset).toMatch(
      /readinessProbe:\n(\s+#.*\n)?\s+exec:\n\s+command: \["node", "\/app\/deploy\/status-probe\.mjs", "ready"\]/,
    );
    expect(dockerfile).toContain('COPY deploy/container/status-probe.mjs deploy/status-probe.mjs');
    expect(dockerfile).toMatch(/^WORKDIR \/app$/m);
  });

  it('passes the admin settings: disable flag always, the key hash from the Secret only with authentication on', () => {
    expect(statefulset).toMatch(
      /- name: NODE_DISABLE_ADMIN_API_KEY\n\s+value: \{\{ \.Values\.disableAdminApiKey \| quote \}\}/,
    );
    expect(statefulset).toMatch(
      /\{\{- if and \(not \.Values\.disableAdminApiKey\) \.Values\.adminApiKeyHash\.existingSecret \}\}\n\s+- name: NODE_ADMIN_API_KEY_HASH\n\s+valueFrom:\n\s+secretKeyRef:/,
    );
    expect(statefulset).toMatch(/\{\{- if \.Values\.syncFrom \}\}\n\s+- name: NODE_SYNC_FROM/);
  });

  it('serves metrics on 0.0.0.0 in a Service of their own, with an optional ServiceMonitor', () => {
    expect(statefulset).toMatch(/- name: NODE_METRICS_HOST\n\s+value: "0\.0\.0\.0"/);
    expect(template('service-metrics.yaml')).toMatch(/^\{\{- if \.Values\.metrics\.enabled \}\}/);
    expect(template('servicemonitor.yaml')).toMatch(
      /^\{\{- if and \.Values\.metrics\.enabled \.Values\.metrics\.serviceMonitor\.enabled \}\}/,
    );
    expect(template('servicemonitor.yaml')).toContain('kind: ServiceMonitor');
  });
});

/** The parts of rendered manifests the checks read. */
interface Manifest {
  kind: string;
  spec: {
    ports?: { name: string }[];
    template?: { spec: { containers: { env: { name: string; value?: string; valueFrom?: unknown }[] }[] } };
  };
}

const helm = spawnSync('helm', ['version', '--short'], { encoding: 'utf8' });
const helmMissing = helm.error || helm.status !== 0 ? 'helm is not on PATH' : undefined;
if (helmMissing) console.log(`helm lint and helm template skipped: ${helmMissing}`);

describe.skipIf(helmMissing)(
  `Helm chart: helm lint and template${helmMissing ? ` (skipped: ${helmMissing})` : ''}`,
  () => {
    const helmRun = (args: string[]) => {
      const r = spawnSync('helm', args, { encoding: 'utf8' });
      expect(r.status, r.stderr + r.stdout).toBe(0);
      return r.stdout;
    };
    const render = (...files: string[]) =>
      parseAllDocuments(helmRun(['template', 'l2node', CHART, ...files.flatMap((f) => ['-f', join(CHART, f)])]))
        .map((d) => d.toJS() as Manifest | null)
        .filter((d): d is Manifest => d !== null);
    const env = (docs: Manifest[]) =>
      docs.find((d) => d.kind === 'StatefulSet')?.spec.template?.spec.containers[0]?.env ?? [];

    it('lints with every values file', () => {
      helmRun(['lint', '--strict', CHART]);
      helmRun(['lint', '--strict', CHART, '-f', join(CHART, 'values-production.yaml')]);
      helmRun(['lint', '--strict', CHART, '-f', join(CHART, 'values-follower.yaml')]);
      helmRun(['lint', '--strict', CHART, '-f', join(CHART, 'values-network.yaml')]);
    });

    it('renders the dev defaults: no key, public port only, no ServiceMonitor', () => {
      const docs = render();
      const services = docs.filter((d) => d.kind === 'Service');
      expect(services.map((s) => (s.spec.ports ?? []).map((p) => p.name))).toEqual([['rpc'], ['metrics']]);
      expect(docs.some((d) => d.kind === 'ServiceMonitor')).toBe(false);
      expect(env(docs)).toContainEqual({ name: 'NODE_DISABLE_ADMIN_API_KEY', value: 'true' });
      expect(env(docs).some((e) => e.name === 'NODE_ADMIN_API_KEY_HASH' || e.name === 'NODE_SYNC_FROM')).toBe(false);
    });

    it('renders production: key on, its hash from the Secret, a ServiceMonitor; a follower gets NODE_SYNC_FROM', () => {
      const docs = render('values-production.yaml', 'values-follower.yaml');
      expect(env(docs)).toContainEqual({ name: 'NODE_DISABLE_ADMIN_API_KEY', value: 'false' });
      expect(env(docs)).toContainEqual({
        name: 'NODE_ADMIN_API_KEY_HASH',
        valueFrom: { secretKeyRef: { name: 'l2node-admin-key', key: 'api-key-hash' } },
      });
      expect(env(docs)).toContainEqual({ name: 'NODE_SYNC_FROM', value: 'http://l2node-sequencer:8080' });
      expect(docs.some((d) => d.kind === 'ServiceMonitor')).toBe(true);
    });
  },
);
