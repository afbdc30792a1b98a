// Profiles section: what a seed profile adds over the native tool it maps to, in-process through
// createTools (the path both share: the profile's parse and reshaping is all that differs), and each
// profile's tools/list size over real stdio.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTools } from '../dist/agent/index.js';
import { Database } from '../dist/store/sqlite/native.js';
import { rng } from './lib/random.js';
import { measure } from './lib/stats.js';
import { toolListSize } from './lib/tool-list.js';
import { NOUNS, PROJECTS, VERBS } from './lib/words.js';

const ENTRY = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'mcp', 'stdio-entry.js');
const ITER = 600;
const WARMUP = 100;

/** bytes of {name, title, description, inputSchema} per tool, summed, as the MCP section counts them. */
export const section = {
  name: 'profiles',
  async run({ size, db, dir, log }) {
    const r = rng(7);
    const project = PROJECTS[0].key;
    const sample = new Database(db, { readonly: true });
    const ids = sample
      .prepare(`SELECT p.key || '-' || t.seq FROM tasks t JOIN projects p ON p.uid = t.project_uid WHERE p.key = ? AND t.deleted_at IS NULL ORDER BY t.num LIMIT 2000`)
      .pluck()
      .all(project);
    sample.close();
    const native = createTools({ db, project, actor: 'agent:bench' });
    const tx = createTools({ profile: 'tx', db, project, actor: 'agent:bench' });
    const castle = createTools({ profile: 'castle', db, project, actor: 'agent:bench', toolsets: ['write'] });
    const devplanner = createTools({ profile: 'devplanner', db, project, actor: 'agent:bench' });
    // DevPlanner names a project by slug (a project without one by its lower-cased key) and a card without a slug by its lower-cased id.
    const slug = project.toLowerCase();
    const fn = (set, name) => set.tools.find((t) => t.name === name).call;
    const pairs = [
      ['get', 'get_task', (i) => fn(native, 'get_task')({ id: ids[i % ids.length] }), 'tx_show', (i) => fn(tx, 'tx_show')({ id: ids[i % ids.length] })],
      ['getCastle', 'get_task', (i) => fn(native, 'get_task')({ id: ids[i % ids.length] }), 'castle_get_task', (i) => fn(castle, 'castle_get_task')({ taskId: ids[i % ids.length] })],
      ['ready', 'next_tasks (limit 5)', () => fn(native, 'next_tasks')({ limit: 5 }), 'tx_ready (limit 5)', () => fn(tx, 'tx_ready')({ limit: 5 })],
      [
        'list',
        'list_tasks (limit 20, all statuses, by id)',
        () => fn(native, 'list_tasks')({ limit: 20, includeDone: true, sort: 'id' }),
        'tx_list (limit 20)',
        () => fn(tx, 'tx_list')({ limit: 20 }),
      ],
      ['listCastle', 'list_tasks (limit 50, by update)', () => fn(native, 'list_tasks')({ limit: 50, sort: 'updated' }), 'castle_list_tasks', () => fn(castle, 'castle_list_tasks')({})],
      [
        'search',
        'search_tasks (limit 20)',
        () => fn(native, 'search_tasks')({ query: 'token refresh', limit: 20 }),
        'castle_search_tasks',
        () => fn(castle, 'castle_search_tasks')({ query: 'token refresh' }),
      ],
      [
        'getCard',
        'get_task',
        (i) => fn(native, 'get_task')({ id: ids[i % ids.length] }),
        'get_card',
        (i) => fn(devplanner, 'get_card')({ projectSlug: slug, cardSlug: ids[i % ids.length].toLowerCase() }),
      ],
      [
        'toggle',
        'update_checklist (add)',
        (i) => fn(native, 'update_checklist')({ id: ids[i % ids.length], ops: [{ op: 'add', text: `step ${i}` }] }),
        'add_task',
        (i) => fn(devplanner, 'add_task')({ projectSlug: slug, cardSlug: ids[i % ids.length].toLowerCase(), text: `step ${i}` }),
      ],
      ['create', 'create_task', () => fn(native, 'create_task')({ title: `${r.pick(VERBS)} ${r.pick(NOUNS)}` }), 'tx_add', () => fn(tx, 'tx_add')({ title: `${r.pick(VERBS)} ${r.pick(NOUNS)}` })],
    ];
    const metrics = [];
    const notes = [];
    for (const [key, nativeLabel, nativeFn, profileLabel, profileFn] of pairs) {
      log(key);
      // Alternate the two in rounds so drift on a shared machine falls on both alike.
      const a = [];
      const b = [];
      for (let round = 0; round < 3; round++) {
        a.push(await measure(nativeFn, { warmup: WARMUP, iterations: ITER / 3, budgetMs: 3000 }));
        b.push(await measure(profileFn, { warmup: WARMUP, iterations: ITER / 3, budgetMs: 3000 }));
      }
      const med = (xs, k) => xs.map((x) => x[k]).sort((p, q) => p - q)[1];
      const n = { p50: med(a, 'p50'), p99: med(a, 'p99'), n: a.reduce((s, x) => s + x.n, 0) };
      const p = { p50: med(b, 'p50'), p99: med(b, 'p99'), n: b.reduce((s, x) => s + x.n, 0) };
      metrics.push({ key: `${key}Native`, label: nativeLabel, ...n });
      metrics.push({ key, label: `${profileLabel} (adds ${(p.p50 - n.p50).toFixed(3)} ms)`, ...p, target: { p50: Math.round((n.p50 + 0.1) * 1000) / 1000 } });
    }
    await Promise.all([native.close(), tx.close(), castle.close(), devplanner.close()]);
    const values = [];
    for (const [name, args] of [
      ['native (default toolsets)', []],
      ['castle', ['--profile', 'castle']],
      ['castle + write', ['--profile', 'castle', '--toolsets', 'write']],
      ['tx', ['--profile', 'tx']],
      ['devplanner', ['--profile', 'devplanner']],
      ['ade', ['--profile', 'ade']],
    ]) {
      const size = await toolListSize(ENTRY, ['--db', db, ...args]);
      values.push({ key: `tokens-${name}`, label: `tool list: ${name}, model-visible (tokens ≈ bytes/4)`, value: Math.round(size.model / 4), unit: 'tokens' });
      values.push({ key: `answer-${name}`, label: `tools/list answer: ${name}`, value: Math.round(size.answer / 100) / 10, unit: 'KB' });
    }
    notes.push('target per profile row: the native p50 beside it + 0.1 ms');
    return {
      title: 'Profiles, in-process',
      method:
        'createTools (cairn/agent) over a copy of the workspace: each profile tool against the native tool it maps to, both through the same adapter, scoped to one project. ' +
        "Each pair runs in three alternating rounds (100 warm-up + up to 200 timed calls each); the table shows the median round. tx_ready, tx_list and castle_list_tasks read the full task of each row (TaskWithDeps needs the description and completion time; Castle's list line shows the PR). " +
        'Tool list sizes come from a real stdio client (the v1 SDK): model-visible = bytes of {name, title, description, inputSchema}, summed; answer = bytes of the whole tools/list result.',
      metrics,
      values,
      notes,
    };
  },
};
