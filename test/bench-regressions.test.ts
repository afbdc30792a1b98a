/**
 * `npm run bench` ends by comparing its figures with bench/baseline.json and flags what got more
 * than 20% worse; a baseline records each section and size with its own date and machine.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { byBlock, compare, readBaseline, recordBaseline, regressionText } from '../bench/lib/regressions.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const result = (p50: { get: number; list: number }, rate: number, rss: number) => ({
  title: 'MCP',
  metrics: [
    { key: 'get', label: 'get_task', p50: p50.get },
    { key: 'list', label: 'list_tasks', p50: p50.list },
  ],
  values: [
    { key: 'rate', label: 'calls per second', value: rate, unit: 'calls/s' },
    { key: 'rss', label: 'peak RSS', value: rss, unit: 'MB' },
    { key: 'n', label: 'operations', value: 400, unit: 'ops' },
  ],
});
const sizeName = (n: number) => `${n / 1000}k`;

describe('the benchmark regression check', () => {
  it('flags ops more than 20% worse in either direction of better, notes another machine, and records per section and size', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-baseline-'));
    dirs.push(dir);
    const file = join(dir, 'baseline.json');
    const empty = readBaseline(file);
    expect(regressionText(compare(empty, { mcp: { 1000: result({ get: 1, list: 1 }, 100, 50) } }, 'm1'), sizeName)).toContain('No committed figures');
    recordBaseline(file, empty, { mcp: { 1000: result({ get: 1, list: 2 }, 100, 50) } }, { date: '2026-11-28 10:00 UTC', machine: 'm1' });
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.sections.mcp['1000']).toMatchObject({ date: '2026-11-28 10:00 UTC', machine: 'm1', figures: { get: { p50: 1 }, rate: { value: 100 } } });
    expect(saved.sections.mcp['1000'].figures.n).toBeUndefined();

    // get 1.3× slower (flagged), list 1.1× (within), the rate fell to 70 (flagged), RSS 55 MB (within).
    const rows = compare(readBaseline(file), { mcp: { 1000: result({ get: 1.3, list: 2.2 }, 70, 55) } }, 'm1');
    expect(
      rows
        .filter((r) => r.slower)
        .map((r) => r.key)
        .sort(),
    ).toEqual(['get', 'rate']);
    const text = regressionText(rows, sizeName);
    expect(text).toContain('Compared 4 figures with bench/baseline.json: 2 more than 20% worse');
    expect(text).toContain('| mcp | 1k | get_task | 1.000 ms | 1.300 ms | ×1.30 | not probed | 2026-11-28 10:00 UTC');
    expect(text).not.toContain('another machine');
    expect(regressionText(compare(readBaseline(file), { mcp: { 1000: result({ get: 1, list: 2 }, 100, 50) } }, 'm2'), sizeName)).toContain('measured on another machine');

    // A partial run replaces only what it ran.
    const again = readBaseline(file);
    recordBaseline(file, again, { cli: { 1000: result({ get: 5, list: 5 }, 1, 1) } }, { date: '2026-11-29 10:00 UTC', machine: 'm2' });
    const both = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(both.sections).sort()).toEqual(['cli', 'mcp']);
    expect(both.sections.mcp['1000'].machine).toBe('m1');
  });

  it('shows how much slower the machine itself ran beside each flag, from the probe both runs recorded', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-baseline-'));
    dirs.push(dir);
    const file = join(dir, 'baseline.json');
    recordBaseline(file, readBaseline(file), { mcp: { 1000: result({ get: 1, list: 1 }, 100, 50) } }, { date: 'd1', machine: 'm1', probe: { cpu: 10, pipe: 0.05, spawn: 100 } });
    expect(JSON.parse(readFileSync(file, 'utf8')).sections.mcp['1000'].probe).toEqual({ cpu: 10, pipe: 0.05, spawn: 100 });
    // get 1.5× slower while the pipe round trip took 1.4× as long: flagged, with the machine's share beside it.
    const rows = compare(readBaseline(file), { mcp: { 1000: result({ get: 1.5, list: 1 }, 100, 50) } }, 'm1', { cpu: 10.5, pipe: 0.07, spawn: 100 });
    const get = rows.find((r) => r.key === 'get')!;
    expect(get.slower).toBe(true);
    expect(get.machineDrift!.pipe).toBeCloseTo(1.4);
    const text = regressionText(rows, sizeName);
    expect(text).toContain('| ×1.50 | ×1.05 / ×1.40 / ×1.00 |');
    expect(text).toContain('rerun in a quieter spell');
    // A steady machine: the flag stands alone, and a baseline from before the probe says so.
    const steady = regressionText(compare(readBaseline(file), { mcp: { 1000: result({ get: 1.5, list: 1 }, 100, 50) } }, 'm1', { cpu: 10, pipe: 0.05, spawn: 101 }), sizeName);
    expect(steady).toContain('| ×1.50 | ×1.00 / ×1.00 / ×1.01 |');
    expect(steady).not.toContain('quieter spell');
    expect(regressionText(compare(readBaseline(file), { mcp: { 1000: result({ get: 1.5, list: 1 }, 100, 50) } }, 'm1'), sizeName)).toContain('| not probed |');
  });

  it("compares a section that names its block (the CLI's, per Node) with that block's figures only", () => {
    const baseline = {
      sections: {
        'cli-node20': { 1000: { date: 'd', commit: 'c', machine: 'm', figures: { get: { label: 'ready', p50: 100 } } } },
        'cli-node24': { 1000: { date: 'd', commit: 'c', machine: 'm', figures: { get: { label: 'ready', p50: 200 } } } },
      },
    };
    // Node 24 at 210 ms: 5% slower than Node 24's figure, though 2.1× Node 20's.
    const run = { cli: { 1000: { ...result({ get: 210, list: 1 }, 1, 1), block: 'cli-node24' } } };
    const rows = compare(baseline, byBlock(run), 'm');
    expect(rows.map((r) => [r.section, r.before, r.slower])).toEqual([['cli-node24', 200, false]]);
    expect(Object.keys(byBlock({ mcp: { 1000: result({ get: 1, list: 1 }, 1, 1) } }))).toEqual(['mcp']);
  });
});
