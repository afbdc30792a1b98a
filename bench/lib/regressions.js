// What got slower since the committed figures: bench/baseline.json keeps every op's p50 (and each
// value where lower is better, such as bytes) per section and size, with the date, commit and machine
// it was measured on. A run compares its figures with it and flags any op more than 20% slower; it
// reports and never fails the run (machines are shared and noisy). A figure from another machine is
// compared too, but marked, since the ratio then says more about the machine than the code.
// Each record also keeps the machine probe's figures (machine-probe.js) from its run, and a flagged
// figure shows how much slower the machine itself ran (CPU, pipe round trip, spawn) beside it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const THRESHOLD = 0.2;

/** A rate (calls/s, req/s) is better higher; a count with no better side (ops) is not compared; the rest (ms, MB, KiB, tokens, ×) is better lower. */
const higherIsBetter = (unit) => /\/s$/.test(unit);
const comparable = (unit) => unit !== '' && unit !== 'ops';

/** The figures of one section at one size: op key → { label, p50 } (metrics) and value key → { label, value, unit }. */
function figures(result) {
  const out = {};
  for (const m of result.metrics ?? []) if (Number.isFinite(m.p50)) out[m.key] = { label: m.label, p50: m.p50 };
  for (const v of result.values ?? []) if (Number.isFinite(v.value) && comparable(v.unit ?? '')) out[v.key] = { label: v.label, value: v.value, unit: v.unit };
  return out;
}

/**
 * Results keyed as the docs' blocks are: a section that names its block (the CLI's, one per Node
 * major) is compared with and recorded under that name, so Node 24's run meets Node 24's figures.
 */
export function byBlock(results) {
  return Object.fromEntries(Object.entries(results).map(([name, bySize]) => [Object.values(bySize)[0]?.block ?? name, bySize]));
}

export function readBaseline(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { sections: {} };
}

function commit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** now ÷ then for each probe figure both runs have (above 1: the machine ran slower now); undefined without both. */
function drift(then, now) {
  if (!then || !now) return undefined;
  const out = {};
  for (const k of ['cpu', 'pipe', 'spawn']) if (then[k] > 0 && now[k] > 0) out[k] = now[k] / then[k];
  return Object.keys(out).length ? out : undefined;
}

/**
 * Rows comparing `results` (section → size → section result) with the baseline: every figure both
 * have, with its ratio (now ÷ then) and whether it is a regression (ratio above 1 + THRESHOLD).
 */
export function compare(baseline, results, machine, probe) {
  const rows = [];
  for (const [section, bySize] of Object.entries(results)) {
    for (const [size, result] of Object.entries(bySize)) {
      const then = baseline.sections?.[section]?.[size];
      if (!then) continue;
      for (const [key, now] of Object.entries(figures(result))) {
        const before = then.figures[key];
        if (!before) continue;
        const a = before.p50 ?? before.value;
        const b = now.p50 ?? now.value;
        if (!(a > 0)) continue;
        if (!(b > 0) && higherIsBetter(now.unit ?? '')) continue;
        // Above 1 is worse, whichever way the figure runs.
        const ratio = higherIsBetter(now.unit ?? '') ? a / b : b / a;
        rows.push({
          section,
          size: Number(size),
          key,
          label: now.label,
          before: a,
          after: b,
          unit: now.unit ?? 'ms',
          ratio,
          slower: ratio > 1 + THRESHOLD,
          otherMachine: then.machine !== machine,
          then: { date: then.date, commit: then.commit },
          machineDrift: drift(then.probe, probe),
        });
      }
    }
  }
  return rows;
}

/** The report printed after a run: the regressions first, then how many figures held. */
export function regressionText(rows, sizeName) {
  if (rows.length === 0) return 'No committed figures to compare with yet (bench/baseline.json): this run becomes the baseline when written.';
  const slower = rows.filter((r) => r.slower);
  const fmt = (n) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(3));
  const lines = [`Compared ${rows.length} figures with bench/baseline.json: ${slower.length} more than ${THRESHOLD * 100}% worse (slower, larger, or a lower rate).`];
  if (slower.length) {
    lines.push('', '| section | size | operation | then | now | worse by | the machine now ÷ then: CPU / pipe / spawn | baseline |', '|---|---|---|---|---|---|---|---|');
    for (const r of slower.sort((x, y) => y.ratio - x.ratio)) {
      lines.push(
        `| ${r.section} | ${sizeName(r.size)} | ${r.label} | ${fmt(r.before)} ${r.unit} | ${fmt(r.after)} ${r.unit} | ×${r.ratio.toFixed(2)} | ${driftText(r.machineDrift)} | ${r.then.date}, ${r.then.commit}${r.otherMachine ? ', another machine' : ''} |`,
      );
    }
    if (slower.some((r) => r.machineDrift && Math.max(...Object.values(r.machineDrift)) > 1 + THRESHOLD / 2)) {
      lines.push('', 'Where the machine itself ran more than 10% slower than for the baseline, rerun in a quieter spell before reading a flag as the code.');
    }
  }
  const elsewhere = rows.filter((r) => r.otherMachine).length;
  if (elsewhere) lines.push('', `${elsewhere} of the figures were measured on another machine: their ratios compare machines as much as code.`);
  return lines.join('\n');
}

/** "×1.02 / ×1.19 / ×1.10", or "not probed" for a baseline recorded before the probe. */
function driftText(d) {
  if (!d) return 'not probed';
  return ['cpu', 'pipe', 'spawn'].map((k) => (d[k] ? `×${d[k].toFixed(2)}` : '–')).join(' / ');
}

/** Records this run's figures in the baseline, section by section and size by size (a partial run replaces only what it ran). */
export function recordBaseline(file, baseline, results, { date, machine, probe }) {
  const at = commit();
  for (const [section, bySize] of Object.entries(results)) {
    for (const [size, result] of Object.entries(bySize)) {
      baseline.sections[section] ??= {};
      baseline.sections[section][size] = { date, commit: at, machine, ...(probe ? { probe } : {}), figures: figures(result) };
    }
  }
  writeFileSync(file, `${JSON.stringify(baseline, null, 1)}\n`);
}
