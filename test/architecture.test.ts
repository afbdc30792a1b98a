/** The dependency rule of docs/architecture.md, checked over every source file's imports. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/**
 * Every literal import specifier (static, re-export or dynamic) of a file, relative ones resolved to
 * src-relative paths. Type-only imports are left out: a type may cross layers (the CLI states the
 * signature of the servers it loads lazily by the servers' own types), a running import may not.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/import\s+type\s+[^;]*?from\s+'[^']+';?/g, '')
    .replace(/typeof\s+import\s*\(\s*'[^']+'\s*\)/g, '');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => (s.startsWith('.') ? relative(SRC, resolve(dirname(file), s)) : `pkg:${s}`));
}

const layer = (path: string) => path.split('/')[0]!.replace(/\.(ts|js)$/, '');

/** What each layer may import besides itself. */
const ALLOWED: Record<string, (target: string) => boolean> = {
  // js-yaml reads the front matter of other tools' markdown tasks (import/front-matter.ts), loaded on first use.
  core: (t) => t === 'pkg:zod' || t === 'pkg:ulid' || t === 'pkg:js-yaml' || t.startsWith('pkg:node:'),
  ops: (t) => layer(t) === 'core' || t === 'pkg:zod',
  // Profiles reshape ops for the seeds' surfaces: they see ops and core's model and errors, never a
  // service, a store or an adapter, so every profile runs wherever ops do (remote mode included).
  profiles: (t) => (['core', 'ops'].includes(layer(t)) && !t.startsWith('core/services/') && t !== 'core/ports.js') || t === 'pkg:zod' || t.startsWith('pkg:node:'),
  store: (t) => layer(t) === 'core' || (!t.startsWith('src') && !['ops', 'profiles', 'cli', 'mcp', 'http'].includes(layer(t))),
  // In-process agent tools are an adapter like MCP: ops and profiles, opened through workspace.ts.
  agent: (t) => !['cli', 'mcp', 'http', 'store'].includes(layer(t)),
  cli: (t) => !['mcp', 'http', 'store'].includes(layer(t)),
  mcp: (t) => !['cli', 'http', 'store'].includes(layer(t)),
  http: (t) => !['cli', 'store'].includes(layer(t)),
  // The remote runner and outbox (a client of cairn serve): core and ops, used by the CLI and MCP entries.
  remote: (t) => !['cli', 'mcp', 'http', 'store', 'profiles'].includes(layer(t)),
  // The repository registry (a file per user): core and workspace.ts, used by the entry points.
  registry: (t) => !['cli', 'mcp', 'http', 'store', 'profiles', 'ops'].includes(layer(t)),
  // Linked sources wrap a store (links/linked-store.ts): core only; the entry points give them SQLite access.
  links: (t) => layer(t) === 'core' || t.startsWith('pkg:'),
};

describe('dependency rule', () => {
  it('core imports only zod, ulid and node builtins; ops only core; adapters never each other (http may mount mcp) nor the store', () => {
    const violations: string[] = [];
    for (const file of files(SRC)) {
      const from = layer(relative(SRC, file));
      const allowed = ALLOWED[from];
      if (!allowed) continue;
      for (const target of importsOf(file)) {
        if (!target.startsWith('pkg:') && layer(target) === from) continue;
        if (from === 'core' && !target.startsWith('pkg:')) {
          violations.push(`${relative(SRC, file)} → ${target}`);
          continue;
        }
        if (!allowed(target)) violations.push(`${relative(SRC, file)} → ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });
});

/**
 * Every surface goes through ops: that is what keeps remote mode, the write gate and the error
 * mapping right. Outside ops/, only the persistence side (the store, linked sources wrapping it, the
 * repository registry that describes workspaces) and the composition roots (which open the store and
 * start its change feed and lease watch) may touch a service or the store.
 */
const THROUGH_OPS_EXEMPT = (path: string) =>
  ['core', 'ops', 'store', 'links', 'registry'].includes(layer(path)) || ['workspace.ts', 'foreign-sqlite.ts', 'mcp/main.ts', 'http/app.ts', 'http/main.ts'].includes(path);

describe('everything through ops', () => {
  it('no surface imports a service or the store', () => {
    const violations: string[] = [];
    for (const file of files(SRC)) {
      const from = relative(SRC, file);
      if (THROUGH_OPS_EXEMPT(from)) continue;
      for (const target of importsOf(file)) if (target.startsWith('core/services/') || layer(target) === 'store') violations.push(`${from} → ${target}`);
    }
    expect(violations).toEqual([]);
  });

  it('no surface reads or writes the store itself', () => {
    const violations: string[] = [];
    for (const file of [...files(SRC), ...tsx(SRC)]) {
      const from = relative(SRC, file);
      if (THROUGH_OPS_EXEMPT(from)) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\.(read|write)\(\s*(async\s*)?\(?tx\b/g)) violations.push(`${from}: ${m[0]}`);
    }
    expect(violations).toEqual([]);
  });
});

function tsx(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsx(join(dir, e.name)) : e.name.endsWith('.tsx') ? [join(dir, e.name)] : []));
}

/** Every relative import of a file, type-only ones too, as src-relative source paths. */
function sourceImportsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map((m) => relative(SRC, resolve(dirname(file), m[1]!)));
  return specs.flatMap((s) => [s.replace(/\.js$/, '.ts'), s.replace(/\.js$/, '.tsx')].filter((p) => known.has(p)).slice(0, 1));
}

describe('no import cycles', () => {
  // A cycle, even of types, means two files are one idea split in two, or one holds what both need:
  // the fix is a third file, or an interface the importer declares for what it uses.
  it('no two source files import each other, directly or round about', () => {
    const all = [...files(SRC), ...tsx(SRC)].map((f) => relative(SRC, f));
    const known = new Set(all);
    const edges = new Map(all.map((f) => [f, sourceImportsOf(join(SRC, f), known)]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (f: string) => {
      state.set(f, 'open');
      path.push(f);
      for (const t of edges.get(f) ?? []) {
        if (state.get(t) === 'open') cycles.push([...path.slice(path.indexOf(t)), t].join(' → '));
        else if (!state.has(t)) visit(t);
      }
      path.pop();
      state.set(f, 'done');
    };
    for (const f of all) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });
});
