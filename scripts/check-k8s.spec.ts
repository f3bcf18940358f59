import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const FIXTURES = join(__dirname, 'fixtures', 'k8s');
const run = (...dirs: string[]) => spawnSync(process.execPath, [join(__dirname, 'check-k8s.mjs'), ...dirs], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

// The check needs kubectl (with kustomize), as CI's machines have it; without it these fail rather than skip.

describe('node scripts/check-k8s.mjs through kubectl kustomize (ADR 0052)', () => {
  jest.setTimeout(60_000);

  it('passes a good overlay with one summary line', () => {
    const result = run(join(FIXTURES, 'good'));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(
      /^scripts\/fixtures\/k8s\/good: 19 objects \(schema skipped for Certificate\/market-tls\), 14 rules in \d+ checks, budget 80\/90 connections: ok$/,
    );
  });

  it('fails an overlay with planted violations, naming each object and rule', () => {
    const result = run(join(FIXTURES, 'good'), join(FIXTURES, 'bad'));
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toContain('scripts/fixtures/k8s/bad: Deployment/gateway: [hpa-replicas] sets replicas although HorizontalPodAutoscaler/gateway owns the count (every apply would reset it)');
    expect(lines).toContain('scripts/fixtures/k8s/bad: Deployment/bidding-service: [image-tag] container bidding-service image "registry.example.com/site-market:latest" has the tag latest: pin a version or digest');
    expect(lines).toHaveLength(5); // four containers on latest, one replicas field
    expect(result.stdout).toMatch(/^scripts\/fixtures\/k8s\/good: .*: ok$/m);
    expect(result.stdout).toMatch(/^scripts\/fixtures\/k8s\/bad: .*: 5 violation\(s\)$/m);
  });

  it('fails when an overlay does not render', () => {
    const dir = mkdtempSync(join(tmpdir(), 'check-k8s-'));
    try {
      writeFileSync(join(dir, 'kustomization.yaml'), 'resources:\n  - missing.yaml\n');
      const result = run(dir, join(dir, 'nowhere'));
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`${dir}: kubectl kustomize failed:`);
      expect(result.stderr).toContain(`${join(dir, 'nowhere')}: does not exist`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
