// Core section: the operations agents call most, in-process through openCairn().call — the same parse,
// service and store path the MCP tools, CLI and REST routes take — against a copy of a generated workspace.
import { Database } from '../dist/store/sqlite/native.js';
import { openCairn } from '../dist/index.js';
import { rng } from './lib/random.js';
import { measure, peakRssMb } from './lib/stats.js';
import { LABELS, NOUNS, PLACES, PROJECTS, TEXT, VERBS } from './lib/words.js';

/** What users type: common and rare words, two-word queries, a phrase and prefixes. */
const QUERIES = [
  'token refresh',
  'webhook',
  'deadlock',
  'oauth callback',
  'rate limiter',
  'migrat*',
  'flaky test',
  'connection pool timeout',
  'zebra',
  'invoice pdf',
  'sess*',
  'retry queue backoff',
  '"search index"',
  'postgres',
  'dark mode safari',
  'canary rollout',
];
const LIST_LABELS = ['security', 'perf', 'docs', 'infra'];
const ITER = {
  get: 3000,
  list: 1000,
  listAll: 1000,
  listCold: 400,
  listAllCold: 400,
  listAllFresh: 400,
  ready: 1000,
  searchUntidy: 600,
  search: 600,
  searchCold: 300,
  createFirst: 600,
  create: 600,
  update: 600,
  claim: 600,
};
// create: the first 600 creates after the bulk load split its 100%-full index pages (createFirst,
// no warm-up); 2,000 more settle the pages where new entries land, as a workspace grown by use has them.
const WARMUP = {
  get: 200,
  list: 100,
  listAll: 100,
  listCold: 40,
  listAllCold: 40,
  listAllFresh: 40,
  ready: 100,
  searchUntidy: 60,
  search: 60,
  searchCold: 30,
  createFirst: 0,
  create: 2000,
  update: 60,
  claim: 60,
};
const ms = (p50) => ({ p50 });

/**
 * Section contract (every bench/<name>.js exports one): `run({ size, db, dir, log })` resolves to
 * `{ title, method, metrics: [{ key, label, p50, p99, n, target? }], values: [{ key, label, value, unit, target? }], notes }`;
 * targets are `{ p50?, p99?, max? }` in the metric's unit and apply to the largest (100k) workspace.
 */
export const section = {
  name: 'core',
  async run({ size, db, log }) {
    const r = rng(42);
    // Random ids by rowid probes (no ORDER BY random() over the whole table: its sort memory would
    // count toward this process's peak RSS, which should be Cairn's).
    const sample = new Database(db, { readonly: true });
    const maxNum = sample.prepare('SELECT max(num) FROM tasks').pluck().get();
    const probe = sample.prepare(`SELECT p.key || '-' || t.seq AS id, t.category, t.deleted_at, t.claimed_by, t.open_blockers FROM tasks t JOIN projects p ON p.uid = t.project_uid WHERE t.num = ?`);
    const ids = (ok, n) => {
      const out = new Set();
      for (let tries = 0; out.size < n && tries < n * 50; tries++) {
        const t = probe.get(r.int(1, maxNum));
        if (t && ok(t)) out.add(t.id);
      }
      return [...out];
    };
    const getIds = ids(() => true, 2000);
    const liveIds = ids((t) => !t.deleted_at && t.category !== 'done' && t.category !== 'canceled' && !t.claimed_by, 2000);
    // Claimable: a claim on a task with open blockers is refused (BLOCKED) unless forced.
    const claimIds = ids((t) => !t.deleted_at && t.category === 'todo' && !t.claimed_by && t.open_blockers === 0, WARMUP.claim + ITER.claim);
    sample.close();

    const cairn = openCairn({ db, actor: 'agent:bench' });
    const project = (i) => PROJECTS[i % PROJECTS.length].key;
    const run = (key, fn, setup) => {
      log(key);
      return measure(fn, { warmup: WARMUP[key], iterations: ITER[key], budgetMs: 5000, setup });
    };
    // Totals are remembered until the next commit; a write before each call shows the cost of counting afresh.
    // A new score on every call: an update that changes nothing writes nothing (and forgets nothing).
    let touches = 0;
    const touch = () => {
      touches++;
      return cairn.call('update_task', { id: liveIds[(touches * 13) % liveIds.length], score: 1000 + touches });
    };
    const results = {};
    results.get = await run('get', (i) => cairn.call('get_task', { id: getIds[i % getIds.length] }));
    results.list = await run('list', (i) => cairn.call('list_tasks', { project: project(i), labels: [LIST_LABELS[(i >> 3) % LIST_LABELS.length]], limit: 50 }));
    results.listAll = await run('listAll', (i) => cairn.call('list_tasks', { project: project(i), limit: 50 }));
    results.ready = await run('ready', (i) => cairn.call('next_tasks', { project: project(i), limit: 10 }));
    // The search index as the bulk load left it (FTS5 alone merges 16 segments at a time), then as a
    // writing server leaves it once quiet (store/sqlite/search-upkeep.ts).
    // Before any write: after 50 writes the checkpointer's worker would merge on its own when the
    // calls pause, in the middle of whichever row comes next.
    const segments = () => (cairn.store.inner ?? cairn.store).raw().prepare('SELECT count(*) FROM (SELECT DISTINCT segid FROM task_search_idx)').pluck().get();
    const untidySegments = segments();
    results.searchUntidy = await run('searchUntidy', (i) => cairn.call('search_tasks', { query: QUERIES[i % QUERIES.length] }));
    const tidyStart = performance.now();
    (cairn.store.inner ?? cairn.store).tidySearchIndex();
    const tidyMs = performance.now() - tidyStart;
    const tidySegments = segments();
    let matched = 0;
    let searches = 0;
    results.search = await run('search', async (i) => {
      const res = await cairn.call('search_tasks', { query: QUERIES[i % QUERIES.length] });
      matched += res.total;
      searches++;
    });
    results.listCold = await run('listCold', (i) => cairn.call('list_tasks', { project: project(i), labels: [LIST_LABELS[(i >> 3) % LIST_LABELS.length]], limit: 50 }), touch);
    results.listAllCold = await run('listAllCold', (i) => cairn.call('list_tasks', { project: project(i), limit: 50 }), touch);
    // Nothing remembered: every row of the page read and parsed, the total counted, as on a process's first look.
    results.listAllFresh = await run(
      'listAllFresh',
      (i) => cairn.call('list_tasks', { project: project(i), limit: 50 }),
      () => (cairn.store.inner ?? cairn.store).forget(),
    );
    results.searchCold = await run('searchCold', (i) => cairn.call('search_tasks', { query: QUERIES[i % QUERIES.length] }), touch);
    const create = (i) =>
      cairn.call('create_task', {
        project: project(i),
        title: `${r.pick(VERBS)} ${r.pick(NOUNS)} ${r.pick(PLACES)}`.trim(),
        description: Array.from({ length: 30 }, () => r.zipf(TEXT)).join(' '),
        labels: [r.pick(LABELS), r.pick(LABELS)],
        priority: r.pick(['low', 'medium', 'high']),
        ...(i % 3 === 0 ? { blockedBy: [liveIds[i % liveIds.length]] } : {}),
        ...(i % 4 === 0 ? { checklist: ['Write a failing test', 'Fix it'] } : {}),
      });
    results.createFirst = await run('createFirst', create);
    results.create = await run('create', create);
    results.update = await run('update', (i) =>
      cairn.call('update_task', { id: liveIds[(i * 7) % liveIds.length], title: `${r.pick(VERBS)} ${r.pick(NOUNS)} (rev ${i})`, priority: r.pick(['low', 'medium', 'high', 'urgent']) }),
    );
    results.claim = await run('claim', (i) => cairn.call('claim_task', { id: claimIds[i % claimIds.length] }));
    await cairn.close();

    const label = {
      get: 'get_task (full task)',
      list: 'list_tasks (limit 50, project + label)',
      listAll: 'list_tasks (limit 50, project only)',
      listCold: 'list_tasks (project + label), first after a write',
      listAllCold: 'list_tasks (project only), first after a write',
      listAllFresh: 'list_tasks (project only), nothing remembered',
      ready: 'next_tasks (limit 10, project)',
      searchUntidy: 'search_tasks, index not merged (as bulk-loaded)',
      search: 'search_tasks (limit 20), index merged when quiet',
      searchCold: 'search_tasks, first after a write',
      createFirst: 'create_task, first 600 after the bulk load',
      create: 'create_task (after 2,600 creates)',
      update: 'update_task (title + priority)',
      claim: 'claim_task',
    };
    const target = { get: ms(0.3), list: ms(0.3), listAll: ms(0.3), ready: ms(0.3), search: ms(3), create: ms(0.5), update: ms(0.5), claim: undefined };
    return {
      title: 'Core, in-process',
      method:
        'openCairn().call(op, args) on a copy of the workspace: zod parsing, service, Kysely/SQLite store and hydration, as every adapter runs them. ' +
        'Each op is warmed up, then timed call by call (up to the iteration count or 5 s). Ids are random; list (the filter an agent uses to find, say, the open security work of its project) rotates over 6 projects × 4 labels ' +
        'carried by 6–10% of tasks (open tasks, ready order, exact total); list (project only) drops the label; next_tasks rotates over projects; search cycles 16 queries (words, phrase, prefixes; includes done tasks), first on the index as the bulk load left it (a segment per flush, merged by FTS5 only 16 at a time: ~36 segments, as writes by an older Cairn or other tools would leave it), then after the merge steps a writing server runs once quiet; ' +
        'totals are remembered per workspace state, so the "first after a write" rows run an untimed update_task before each call and count afresh; ' +
        'summary rows are remembered by row revision, so the "nothing remembered" row has the store forget rows, totals and projects before each call; ' +
        'create adds labels, a blocker every 3rd and a checklist every 4th, first right after the bulk load (whose index pages are 100% full, so early inserts split them), then after 2,000 more creates ' +
        '(the target row: pages settled as use leaves them); update changes title and priority (reindexes search); claim takes distinct todo tasks without open blockers.',
      metrics: Object.keys(label).map((key) => ({ key, label: label[key], ...results[key], ...(target[key] ? { target: target[key] } : {}) })),
      values: [{ key: 'rss', label: 'peak RSS (whole process)', value: peakRssMb(), unit: 'MB', target: { max: 150 } }],
      notes: [
        `search matched ${Math.round(matched / searches)} tasks per query on average (before the limit)`,
        `search index: ${untidySegments} segments as bulk-loaded; the upkeep a quiet server runs merged them to ${tidySegments} in ${Math.round(tidyMs)} ms of merge steps`,
      ],
    };
  },
};
