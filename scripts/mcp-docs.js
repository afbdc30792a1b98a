// Regenerates the tool reference in docs/mcp.md (between the tools markers) from what the built
// server really advertises and answers: names, titles, descriptions, arguments, result keys and a
// live example per tool, run against a throwaway workspace. Usage: npm run build && node scripts/mcp-docs.js
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { OPS, TOOLSETS, DEFAULT_TOOLSETS } = await import(join(root, 'dist/ops/index.js'));

/** Run in this order on an empty workspace; each tool's first example is shown in its section. */
const EXAMPLES = [
  ['list_projects', {}],
  ['create_project', { key: 'API', name: 'API server', root: '/home/me/src/api' }],
  ['get_project', { key: 'API' }],
  ['create_task', { project: 'API', title: 'Add login endpoint', priority: 'high', labels: ['auth'], checklist: ['Route', 'Tests'] }],
  ['create_task', { project: 'API', title: 'Session store', description: 'Redis-backed sessions.', touches: ['src/session/**'] }],
  ['create_task', { project: 'API', title: 'Old spike', kind: 'spike' }],
  ['add_dependency', { taskId: 'API-1', blockedBy: 'API-2' }],
  ['list_tasks', { project: 'API' }],
  ['get_task', { id: 'API-1' }],
  ['search_tasks', { query: 'session' }],
  ['next_tasks', { project: 'API' }],
  ['claim_task', { id: 'API-2' }],
  ['check_paths', { paths: ['src/session/store.ts', 'src/login.ts'] }],
  ['checkpoint_task', { id: 'API-2', summary: 'Store and TTL done.', next: 'Wire logout to delete the session.', head: '3f9c2e1', changedFiles: ['src/session/store.ts'] }],
  ['add_comment', { id: 'API-2', body: 'Using ioredis; TTL 24h.', kind: 'research' }],
  [
    'update_checklist',
    {
      id: 'API-1',
      ops: [
        { op: 'check', index: 0 },
        { op: 'add', text: 'Docs' },
      ],
    },
  ],
  ['update_task', { id: 'API-1', expectedVersion: 3, priority: 'urgent', addLabels: ['backend'] }],
  ['complete_task', { id: 'API-2', comment: 'Sessions stored in Redis.' }],
  ['claim_task', { id: 'API-1' }],
  ['release_task', { id: 'API-1' }],
  ['claim_next', { project: 'API' }],
  ['remove_dependency', { taskId: 'API-1', blockedBy: 'API-2' }],
  ['board_overview', { project: 'API', cardsPerLane: 2 }],
  ['task_history', { id: 'API-1', limit: 3 }],
  ['archive_task', { id: 'API-3' }],
  ['delete_task', { id: 'API-3' }],
  ['restore_task', { id: 'API-3' }],
  ['delete_task', { id: 'API-3' }],
  ['purge_task', { id: 'API-3', confirm: true }],
  ['get_progress', { project: 'API' }],
  ['submit_handoff', { target: 'API', title: 'Expose a retry hook', details: 'Needed by the web client.', anchors: ['src/retry.ts'], idempotencyKey: 'web-12-retry' }],
  ['get_task_document', { id: 'API-4' }],
  ['list_labels', {}],
  ['update_project', { key: 'API', description: 'The backend.' }],
  ['create_project', { key: 'OLD', name: 'Old prototype' }],
  ['archive_project', { key: 'OLD' }],
  ['changes_since', { since: 0, limit: 2 }],
  ['link_source', { path: '@/planner' }],
  ['list_links', {}],
  ['unlink_source', { path: '@/planner' }],
  ['export_tasks', { project: 'API', out: '@/api.jsonl' }],
  ['import_tasks', { path: '@/api.jsonl', dryRun: true }],
  ['create_token', { name: 'ci-bot', scope: 'read' }],
  ['list_tokens', {}],
  ['revoke_token', { token: 'ci-bot' }],
];

const dir = mkdtempSync(join(tmpdir(), 'cairn-docs-'));
// The link examples link a DevPlanner workspace (the import fixture); "@" is the scratch folder, shown as /home/me.
cpSync(join(root, 'test/fixtures/import/devplanner'), join(dir, 'planner'), { recursive: true });
const here = (v) => JSON.parse(JSON.stringify(v).replaceAll('@/', `${dir}/`));
// Secrets are random: shown as a placeholder, so the page changes only when the product does.
const shown = (text) =>
  text
    .replaceAll(realpathSync(dir), '/home/me')
    .replaceAll(dir, '/home/me')
    .replace(/cairn_[A-Za-z0-9_-]{4,}/g, 'cairn_<secret>');
const client = new Client({ name: 'docs', version: '1' });
await client.connect(
  new StdioClientTransport({ command: process.execPath, args: [join(root, 'dist/mcp/stdio-entry.js'), '--db', join(dir, 'cairn.db'), '--toolsets', 'all'], cwd: dir, stderr: 'ignore' }),
);
const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
const examples = new Map();
for (const [name, args] of EXAMPLES) {
  const r = await client.callTool({ name, arguments: here(args) });
  if (r.isError) throw new Error(`example ${name} failed: ${r.content[0].text}`);
  if (!examples.has(name)) examples.set(name, { args: JSON.parse(JSON.stringify(args).replaceAll('@/', '/home/me/')), text: shown(r.content[0].text) });
}
const error = await client.callTool({ name: 'get_task', arguments: { id: 'API-99' } });
await client.close();
rmSync(dir, { recursive: true, force: true });

const typeOf = (s) => {
  if (!s) return 'any';
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf?.length === 2 && s.anyOf[1].type === 'array' && JSON.stringify(s.anyOf[1].items.enum ?? s.anyOf[1].items.type) === JSON.stringify(s.anyOf[0].enum ?? s.anyOf[0].type)) {
    return `${typeOf(s.anyOf[0])} (one, or a list)`;
  }
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  if (s.type === 'array') {
    const inner = typeOf(s.items);
    return inner.includes(' | ') ? `list of ${inner}` : `${inner}[]`;
  }
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'object' && s.properties) return `{${Object.keys(s.properties).join(', ')}}`;
  const max = s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
  const range = max !== undefined ? ` (${s.minimum ?? ''}–${max})` : s.minimum !== undefined ? ` (≥ ${s.minimum})` : '';
  const variants = s.oneOf ?? s.anyOf;
  if (variants?.every((v) => v.properties?.op?.const !== undefined)) {
    return variants
      .map(
        (v) =>
          `{${Object.keys(v.properties)
            .map((k) => (k === 'op' ? `op: ${JSON.stringify(v.properties.op.const)}` : (v.required ?? []).includes(k) ? k : `${k}?`))
            .join(', ')}}`,
      )
      .join(' | ');
  }
  return (Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? (s.oneOf ? 'object (see schema)' : 'any'))) + range;
};
const cell = (v) =>
  String(v ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
const clipLines = (text, n = 14) => {
  const lines = text.split('\n').map((l) => (l.length > 160 ? `${l.slice(0, 157)}...` : l));
  return lines.length > n ? [...lines.slice(0, n), `… (${lines.length - n} more lines)`].join('\n') : lines.join('\n');
};

/** A parameter's notes: its description, and the toolset that brings it into the advertised schema (Op.paramToolsets). */
const noteOf = (op, key, schema) => [schema.description, op.paramToolsets?.[key] ? `advertised with the ${op.paramToolsets[key]} toolset` : ''].filter(Boolean).join('; ');

const out = [];
for (const set of TOOLSETS) {
  const ops = OPS.filter((o) => o.toolset === set);
  if (!ops.length) continue;
  out.push(`### Toolset \`${set}\`${set === 'tasks' || set === 'projects' ? ' (default)' : ''}`, '');
  for (const op of ops) {
    const t = tools.get(op.name);
    const a = t.annotations ?? {};
    const hints = [a.readOnlyHint ? 'read-only' : 'writes', a.destructiveHint ? 'destructive' : '', a.idempotentHint ? 'idempotent' : ''].filter(Boolean).join(', ');
    out.push(`#### \`${op.name}\` — ${t.title}`, '', t.description, '', `*${hints}*`, '');
    const props = Object.entries(t.inputSchema.properties ?? {});
    const required = new Set(t.inputSchema.required ?? []);
    if (props.length) {
      out.push('| argument | type | default | notes |', '|---|---|---|---|');
      for (const [k, s] of props)
        out.push(`| \`${k}\`${required.has(k) ? ' (required)' : ''} | ${cell(typeOf(s))} | ${s.default === undefined ? '' : cell(JSON.stringify(s.default))} | ${cell(noteOf(op, k, s))} |`);
      out.push('');
    } else out.push('No arguments.', '');
    out.push(`Result (\`structuredContent\`): \`{${Object.keys(t.outputSchema?.properties ?? {}).join(', ')}}\``, '');
    const ex = examples.get(op.name);
    if (ex) out.push('Example:', '', '```json', JSON.stringify({ name: op.name, arguments: ex.args }), '```', '', '```text', clipLines(ex.text), '```', '');
  }
}
out.push('#### An error result', '', '```json', JSON.stringify({ name: 'get_task', arguments: { id: 'API-99' } }), '```', '', '```text', error.content[0].text, '```', '');

const file = join(root, 'docs/mcp.md');
const doc = readFileSync(file, 'utf8');
const begin = '<!-- tools:begin (generated by scripts/mcp-docs.js; do not edit by hand) -->';
const end = '<!-- tools:end -->';
const i = doc.indexOf(begin);
const j = doc.indexOf(end);
if (i < 0 || j < 0) throw new Error('docs/mcp.md lacks the tools markers');
writeFileSync(file, `${doc.slice(0, i + begin.length)}\n\n${out.join('\n')}\n${doc.slice(j)}`);
console.log(`docs/mcp.md: ${tools.size} tools`);

// The README's tool counts, from the same ops (test/mcp/docs.test.ts checks them).
const readmePath = join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8')
  .replace(/\d+ tools by default/, `${OPS.filter((o) => DEFAULT_TOOLSETS.includes(o.toolset)).length} tools by default`)
  .replace(/serves all \d+,/, `serves all ${OPS.length},`);
writeFileSync(readmePath, readme);
