/**
 * deploy/: the Kubernetes manifest is valid against the Kubernetes schemas (unknown fields
 * refused), and it, the Dockerfile and `toolhost mcp` agree: the image's command and the
 * container's arguments are flags the installed command accepts, run for real they serve
 * /healthz on the port the probes and the Service use, the token comes from the Secret's
 * variable and is never printed, the Ingress's host is allowed, and the pod's grace period
 * covers --shutdown-grace.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { waitUntil } from '../../core/test/helpers/processes.js';
import { makeTempDirs } from '../../core/test/helpers/temp-workspace.js';
import { kubernetesProblems } from './helpers/kubernetes-schema.js';
import { INITIALIZE } from './helpers/mcp-service.js';
import { runCli, startCli } from './run-cli.js';

const DEPLOY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../deploy');
// biome-ignore lint/suspicious/noExplicitAny: manifests are free-form; the schema test checks them
type Json = Record<string, any>;

const documents = (): Json[] =>
  parseAllDocuments(readFileSync(path.join(DEPLOY, 'kubernetes.yaml'), 'utf8')).map(
    (document) => document.toJS() as Json,
  );
const byKind = (kind: string) => {
  const found = documents().find((document) => document.kind === kind);
  if (!found) throw new Error(`deploy/kubernetes.yaml has no ${kind}`);
  return found;
};
const container = () => byKind('Deployment').spec.template.spec.containers[0] as Json;
/** The value after `flag` in a list of arguments. */
const flagValue = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

function dockerfile(): { from: string; lines: string[]; json(instruction: string): string[] } {
  const text = readFileSync(path.join(DEPLOY, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const lines = text.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
  return {
    from: lines.find((line) => line.startsWith('FROM '))?.slice(5) ?? '',
    lines,
    json(instruction) {
      const line = lines.find((candidate) => candidate.startsWith(`${instruction} `));
      return line ? (JSON.parse(line.slice(instruction.length + 1)) as string[]) : [];
    },
  };
}

describe('deploy/kubernetes.yaml', () => {
  it('is valid against the Kubernetes schema of each kind', () => {
    const kinds = documents().map((document) => document.kind);
    expect(kinds).toEqual(['PersistentVolumeClaim', 'Deployment', 'Service', 'Ingress']);
    for (const document of documents())
      expect(kubernetesProblems(document), `${document.kind} ${document.metadata.name}`).toEqual(
        [],
      );
  });

  it('would be refused with a misspelt field or a wrong type', () => {
    const deployment = byKind('Deployment');
    const pod = deployment.spec.template.spec;
    pod.containers[0].readinesProbe = pod.containers[0].readinessProbe;
    pod.terminationGracePeriodSeconds = '30';
    expect(kubernetesProblems(deployment)).toEqual([
      '/spec/template/spec/containers/0 must NOT have additional properties (readinesProbe)',
      '/spec/template/spec/terminationGracePeriodSeconds must be integer',
    ]);
  });

  it('runs one toolhost per workspace volume, probed on /healthz, its token from a Secret', () => {
    const deployment = byKind('Deployment');
    const claim = byKind('PersistentVolumeClaim');
    const service = byKind('Service');
    const pod = deployment.spec.template.spec;
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy.type).toBe('Recreate');
    expect(claim.spec.accessModes).toEqual(['ReadWriteOnce']);
    const volume = pod.volumes.find((v: Json) => v.persistentVolumeClaim);
    expect(volume.persistentVolumeClaim.claimName).toBe(claim.metadata.name);
    const args = container().args as string[];
    const mount = container().volumeMounts.find((m: Json) => m.name === volume.name);
    expect(mount.mountPath).toBe(flagValue(args, '--root'));

    const port = container().ports.find((p: Json) => p.name === 'http');
    expect(String(port.containerPort)).toBe(flagValue(args, '--http'));
    for (const probe of [container().readinessProbe, container().livenessProbe])
      expect(probe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(service.spec.ports[0].targetPort).toBe('http');

    const token = container().env.find((e: Json) => e.name === 'TOOLHOST_MCP_TOKEN');
    expect(token.valueFrom.secretKeyRef).toMatchObject({ key: 'token' });
    expect(args).not.toContain('--token');
    // The kubelet's SIGKILL comes after the grace period: toolhost's own must fit inside.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      Number(flagValue(args, '--shutdown-grace')) + 5,
    );
  });

  it('routes a workspace path to its Service, each session by its Mcp-Session-Id', () => {
    const ingress = byKind('Ingress');
    expect(ingress.metadata.annotations['nginx.ingress.kubernetes.io/upstream-hash-by']).toBe(
      '$http_mcp_session_id',
    );
    const rule = ingress.spec.rules[0];
    expect(rule.http.paths[0].backend.service).toEqual({
      name: byKind('Service').metadata.name,
      port: { name: 'http' },
    });
    expect(flagValue(container().args, '--allowed-hosts')?.split(',')).toContain(rule.host);
  });
});

describe('deploy/Dockerfile', () => {
  it('installs the packed toolhost on Node 20 slim with bubblewrap, as a user who is not root', () => {
    const file = dockerfile();
    expect(file.from).toMatch(/^node:20(\.\d+)*-[a-z]+-slim$/);
    const run = file.lines.filter((line) => line.startsWith('RUN ')).join('\n');
    expect(run).toMatch(/apt-get install [^\n]*\bbubblewrap\b/);
    expect(run).toMatch(/npm install --global [^\n]*\.tgz/);
    const user = file.lines.find((line) => line.startsWith('USER '))?.slice(5) ?? 'root';
    expect(user.split(':')[0]).not.toMatch(/^(root|0)$/);
    expect(file.json('ENTRYPOINT')).toEqual(['toolhost']);
  });

  it('runs a toolhost mcp --http whose flags the installed command accepts, on the port it exposes', () => {
    const file = dockerfile();
    const dirs = makeTempDirs();
    try {
      const help = runCli(['mcp', '--help'], { cwd: dirs.root, home: dirs.home });
      expect(help.code).toBe(0);
      for (const args of [file.json('CMD'), container().args as string[]]) {
        expect(args.slice(0, 1)).toEqual(['mcp']);
        const flags = args.filter((arg) => arg.startsWith('--'));
        expect(flags).toContain('--http');
        for (const flag of flags) expect(help.stdout).toContain(`${flag} `);
      }
      const exposed = file.lines.find((line) => line.startsWith('EXPOSE '))?.slice(7);
      expect(exposed).toBe(flagValue(file.json('CMD'), '--http'));
      const healthcheck = file.lines.find((line) => line.startsWith('HEALTHCHECK '));
      expect(healthcheck).toContain(`http://127.0.0.1:${exposed}/healthz`);
    } finally {
      dirs.cleanup();
    }
  });
});

/** A raw request to 127.0.0.1 naming `host` in its Host header. */
function request(
  port: number,
  pathname: string,
  host: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = http.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: body ? 'POST' : 'GET',
        headers: {
          host,
          ...(body
            ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
            : {}),
          ...headers,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on('error', reject);
    sent.end(body ? JSON.stringify(body) : undefined);
  });
}

describe("the container's command, run", () => {
  it('serves /healthz and the ingress host with the Secret’s token, never printed, and stops in time', {
    timeout: 60_000,
  }, async () => {
    const dirs = makeTempDirs();
    const token = 'from-the-secret-4f1c';
    // The manifest's arguments as they are, but for where it listens: a free port on loopback.
    const args = (container().args as string[]).map((arg, index, all) => {
      if (all[index - 1] === '--root') return dirs.root;
      if (all[index - 1] === '--http') return '0';
      if (all[index - 1] === '--host') return '127.0.0.1';
      return arg;
    });
    const running = startCli(args, {
      cwd: dirs.root,
      home: dirs.home,
      env: { TOOLHOST_MCP_TOKEN: token },
    });
    try {
      expect(await waitUntil(() => /serving on/.test(running.stderr()), 20_000)).toBe(true);
      const port = Number(/serving on http:\/\/127\.0\.0\.1:(\d+)\//.exec(running.stderr())?.[1]);
      const ingressHost = byKind('Ingress').spec.rules[0].host as string;
      const auth = { authorization: `Bearer ${token}` };
      expect(await request(port, '/healthz', `pod-ip:${port}`)).toBe(200);
      expect(await request(port, '/mcp', ingressHost, INITIALIZE, auth)).toBe(200);
      expect(await request(port, '/mcp', 'rebound.example', INITIALIZE, auth)).toBe(403);
      const started = Date.now();
      running.child.kill('SIGTERM');
      const exited = await running.exited;
      expect(exited.code).toBe(0);
      expect(Date.now() - started).toBeLessThan(
        byKind('Deployment').spec.template.spec.terminationGracePeriodSeconds * 1000,
      );
      expect(exited.stderr).not.toContain(token);
    } finally {
      running.child.kill('SIGKILL');
      dirs.cleanup();
    }
  });

  it('refuses to listen beyond loopback with a token it would have to print', () => {
    const dirs = makeTempDirs();
    try {
      const result = runCli(['mcp', '--root', dirs.root, '--http', '0', '--host', '0.0.0.0'], {
        cwd: dirs.root,
        home: dirs.home,
      });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('--host 0.0.0.0 serves beyond this machine');
      expect(result.stderr).toContain('TOOLHOST_MCP_TOKEN');
      expect(result.stderr).not.toContain('serving on');
    } finally {
      dirs.cleanup();
    }
  });
});
