/**
 * Coordination, done when this holds (docs/coordination.md): eight agents on one workspace, four
 * stdio `cairn mcp` servers (each its own process, started inside one of three git worktrees of one
 * repository) and four Streamable HTTP clients of one `cairn serve`, claim, checkpoint and complete
 * tasks whose paths overlap, with evidence (a real commit from a worktree, or a test run). One
 * agent's lease runs out and another agent picks the task up; one task is taken over. Then the
 * history is replayed: no two overlapping reservations were ever live for two holders at once, no
 * write reached a task its writer did not hold (bench/lib/invariants.js nonHolderWrites), and every
 * checkpoint was kept and handed to the next claimer. Runs on both engines.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nonHolderWrites, type HoldEvent } from '../../bench/lib/invariants.js';
import { patternsOverlap } from '../../src/core/rules/path-patterns.js';
import { openCairn, type ActivityEvent, type Cairn } from '../../src/index.js';
import { onPostgres } from '../helpers/engine.js';
import { sleep, waitFor } from '../helpers/wait.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { freshConnectionFetch, serveProcess } from '../http/http-harness.js';

const BIN = fileURLToPath(new URL('../../bin/cairn.js', import.meta.url));
const run = promisify(execFile);

// git for the test's own repository: a fixed identity, no user or system config, no inherited GIT_DIR.
const GIT_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Cairn Test',
  GIT_AUTHOR_EMAIL: 'test@cairn.invalid',
  GIT_COMMITTER_NAME: 'Cairn Test',
  GIT_COMMITTER_EMAIL: 'test@cairn.invalid',
};
const git = async (cwd: string, ...args: string[]) => (await run('git', args, { cwd, env: GIT_ENV })).stdout.trim();

/** A task of the run: the paths it reserves, and the file its agent edits (inside them). */
interface Spec {
  title: string;
  touches: string[];
  file: string;
  priority?: 'urgent' | 'high' | 'medium' | 'low';
  /** Its first claimer checkpoints and releases it: the next claimer must be handed that checkpoint. */
  relay?: boolean;
}

// Families of overlapping globs: `src/db` (a plain path, its whole subtree), `src/api/**` and what is
// under it, `src/**/index.ts` across both, `docs/**/*.md`, `web/*`, `scripts/*.js`. The src/db ones are
// urgent: they head the ready queue while the lease that lapses (LAPSE, on `src/db`) reserves them.
const WORK: Spec[] = [
  { title: 'Schema', touches: ['src/db'], file: 'src/db/schema.ts', priority: 'urgent' },
  { title: 'Migrations', touches: ['src/db/migrations/*.sql'], file: 'src/db/migrations/001.sql', priority: 'urgent' },
  { title: 'Index files', touches: ['src/**/index.ts'], file: 'src/db/index.ts', priority: 'urgent' },
  { title: 'Ledger', touches: ['src/ledger', 'src/db/migrations/002.sql'], file: 'src/ledger/book.ts', priority: 'high', relay: true },
  { title: 'Users endpoint', touches: ['src/api/users.ts'], file: 'src/api/users.ts', priority: 'high', relay: true },
  { title: 'API routes', touches: ['src/api/**'], file: 'src/api/routes.ts', priority: 'high' },
  { title: 'API tests', touches: ['src/api/*.test.ts'], file: 'src/api/users.test.ts' },
  { title: 'Users validation', touches: ['src/api/users.ts'], file: 'src/api/users.ts' },
  { title: 'Guide', touches: ['docs/**/*.md'], file: 'docs/guide/intro.md', relay: true },
  { title: 'API docs', touches: ['docs/api.md'], file: 'docs/api.md' },
  { title: 'Docs index', touches: ['docs/index.md', 'README.md'], file: 'docs/index.md' },
  { title: 'App shell', touches: ['web/app.tsx'], file: 'web/app.tsx' },
  { title: 'Web assets', touches: ['web/*'], file: 'web/style.css' },
  { title: 'Web tests', touches: ['web/**/*.test.tsx'], file: 'web/app.test.tsx', relay: true },
  { title: 'Build script', touches: ['scripts/build.js'], file: 'scripts/build.js' },
  { title: 'Release script', touches: ['scripts/*.js', 'CHANGELOG.md'], file: 'scripts/release.js' },
  { title: 'Changelog', touches: ['CHANGELOG.md'], file: 'CHANGELOG.md' },
  { title: 'Readme', touches: ['README.md'], file: 'README.md', priority: 'low' },
  { title: 'Refunds', touches: ['src/refunds.ts'], file: 'src/refunds.ts' },
  { title: 'Refund tests', touches: ['src/refunds.ts', 'src/api/refunds.test.ts'], file: 'src/api/refunds.test.ts' },
  { title: 'Notes', touches: [], file: 'notes/notes.txt', priority: 'low' },
  { title: 'Seed data', touches: ['src/db/seed.ts'], file: 'src/db/seed.ts', priority: 'urgent' },
];
/** Claimed at the start with the shortest lease and abandoned: another agent picks it up once it lapses. */
const LAPSE: Spec = { title: 'Lease that lapses', touches: ['src/db'], file: 'src/db/lapse.ts', priority: 'urgent' };
/** Claimed at the start by an HTTP agent and taken over by a stdio agent mid-run. */
const TAKEN: Spec = { title: 'Taken over', touches: ['scripts/**'], file: 'scripts/deploy.js' };
const MIN_LEASE_SECONDS = 10; // claims.ts LeaseSeconds .min(10)

interface Agent {
  name: string;
  kind: 'stdio' | 'http';
  client: Client;
  /** stdio: the worktree its server was started in (its cwd is there or below). */
  worktree?: string;
  log: () => string;
}

class Refused extends Error {
  constructor(
    readonly code: string,
    text: string,
  ) {
    super(text);
  }
}

async function tool(a: Agent, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await a.client.callTool({ name, arguments: args });
  if (r.isError) {
    const text = (r.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
    throw new Refused(/^([A-Z_]+):/.exec(text)?.[1] ?? 'UNKNOWN', `${a.name} ${name}: ${text}`);
  }
  return r.structuredContent;
}

/** The code a call is refused with; a call that succeeds fails the test. */
async function refusal(a: Agent, name: string, args: Record<string, unknown>): Promise<string> {
  try {
    await tool(a, name, args);
  } catch (err) {
    if (err instanceof Refused) return err.code;
    throw err;
  }
  throw new Error(`${a.name} ${name} ${JSON.stringify(args)} was not refused`);
}

async function stdioAgent(name: string, worktree: string, cwd: string, db: string): Promise<Agent> {
  // The workspace is found from the worktree (its main checkout's .cairn/) on SQLite; PostgreSQL is named.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CAIRN_REGISTRY: 'off' };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--as', name, '--toolsets', 'default,coordination', ...(onPostgres ? ['--db', db] : [])],
    cwd,
    env,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
  const client = new Client({ name: `coordination-${name}`, version: '1.0.0' });
  await client.connect(transport);
  return { name, kind: 'stdio', client, worktree, log: () => err };
}

async function httpAgent(name: string, url: string, log: () => string): Promise<Agent> {
  const client = new Client({ name: `coordination-${name}`, version: '1.0.0' });
  const endpoint = new URL(`${url}/mcp?toolsets=tasks,projects,coordination&as=${encodeURIComponent(name)}`);
  await client.connect(new StreamableHTTPClientTransport(endpoint, { fetch: freshConnectionFetch }));
  return { name, kind: 'http', client, log };
}

/** One git writer per worktree at a time (two agents share one): the index is the worktree's. */
const gitQueues = new Map<string, Promise<unknown>>();
function serially<T>(key: string, f: () => Promise<T>): Promise<T> {
  const next = (gitQueues.get(key) ?? Promise.resolve()).then(f);
  gitQueues.set(
    key,
    next.catch(() => undefined),
  );
  return next;
}

/** The agent's edit: append to its file and commit it in its worktree; the commit's SHA. */
function commitWork(a: Agent, spec: Spec, id: string): Promise<string> {
  const wt = a.worktree!;
  return serially(wt, async () => {
    const path = join(wt, spec.file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${id} ${spec.title} by ${a.name}\n`, { flag: 'a' });
    await git(wt, 'add', '--', spec.file);
    await git(wt, 'commit', '-q', '--no-verify', '-m', `${id}: ${spec.title}`);
    return git(wt, 'rev-parse', 'HEAD');
  });
}

interface ClaimSeen {
  task: string;
  actor: string;
  generation: number;
  checkpoint: unknown;
}

describe('coordination: 8 agents over stdio and HTTP in 3 worktrees of one repository', () => {
  let ws: TempWorkspace;
  let lead: Cairn | undefined;
  let server: Awaited<ReturnType<typeof serveProcess>> | undefined;
  const agents: Agent[] = [];

  beforeAll(() => {
    if (!existsSync(join(dirname(BIN), '..', 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  });

  afterAll(async () => {
    await Promise.allSettled(agents.map((a) => a.client.close()));
    await server?.stop();
    await lead?.close();
    ws?.cleanup();
  });

  it('claims exclude, reservations never overlap, checkpoints are kept and handed on; a lapsed lease and a takeover included', async () => {
    ws = tempWorkspace('cairn-coordination-');
    const repo = join(ws.dir, 'repo');
    const wtA = join(ws.dir, 'wt-a');
    const wtB = join(ws.dir, 'wt-b');
    mkdirSync(join(repo, 'src'), { recursive: true });
    await git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README.md'), '# coordination\n');
    writeFileSync(join(repo, 'src', '.keep'), '');
    await git(repo, 'add', 'README.md', 'src/.keep');
    await git(repo, 'commit', '-q', '--no-verify', '-m', 'initial');
    await git(repo, 'worktree', 'add', '-q', '-b', 'feature-a', wtA);
    await git(repo, 'worktree', 'add', '-q', '-b', 'feature-b', wtB);
    const initialHead = await git(repo, 'rev-parse', 'HEAD');

    // SQLite: the main checkout's workspace, which the stdio servers in the linked worktrees must find.
    const db = onPostgres ? ws.db : join(repo, '.cairn', 'cairn.db');
    lead = openCairn({ db, actor: 'lead' });
    await lead.call('create_project', { key: 'CO', name: 'Coordination', root: repo });
    const specOf = new Map<string, Spec>();
    const create = async (s: Spec, labels: string[]) => {
      const { task } = await lead!.call('create_task', { project: 'CO', title: s.title, touches: s.touches, labels, ...(s.priority ? { priority: s.priority } : {}) });
      specOf.set(task.id, s);
      return task.id;
    };
    // Only tasks labelled `work` are in the agents' loop; the lapsing and the taken-over ones are driven by hand.
    for (const s of WORK) await create(s, ['work']);
    const lapseId = await create(LAPSE, []);
    const takenId = await create(TAKEN, []);

    server = await serveProcess(db);
    const served = server;
    const started = await Promise.all([
      stdioAgent('agent:s1', repo, repo, db),
      stdioAgent('agent:s2', wtA, wtA, db),
      stdioAgent('agent:s3', wtB, join(wtB, 'src'), db),
      stdioAgent('agent:s4', wtA, wtA, db),
      ...[1, 2, 3, 4].map((n) => httpAgent(`agent:h${n}`, served.url, () => served.log())),
    ]);
    agents.push(...started);
    const [s1, s2, s3, , h1, , , h4] = agents as [Agent, Agent, Agent, Agent, Agent, Agent, Agent, Agent];

    const claims: ClaimSeen[] = [];
    const checkpoints: unknown[] = [];
    const refusals = new Map<string, number>();
    const skipped: Array<{ by: string; id: string; reservedBy: Array<{ task: string; holder: string; paths: string[] }> }> = [];
    const completed = new Set<string>();
    const problems: string[] = [];
    let failed = false;

    const sawClaim = (a: Agent, task: any) => {
      claims.push({ task: task.id, actor: a.name, generation: task.claim.generation, checkpoint: task.checkpoint });
      // A claim over stdio records the worktree its server runs in.
      if (a.kind === 'stdio' && realpathSync(task.claim.where?.worktree ?? '/') !== realpathSync(a.worktree!)) {
        problems.push(`${a.name}'s claim of ${task.id} records ${JSON.stringify(task.claim.where)}, not ${a.worktree}`);
      }
    };
    const checkpoint = async (a: Agent, id: string, summary: string, next: string, spec: Spec) => {
      // A stdio agent leaves HEAD out: its server reads it from the checkout. An HTTP agent says it.
      const before = a.kind === 'stdio' ? await git(a.worktree!, 'rev-parse', 'HEAD') : undefined;
      const { task } = await tool(a, 'checkpoint_task', { id, summary, next, changedFiles: [spec.file], ...(a.kind === 'http' ? { head: initialHead } : {}) });
      checkpoints.push(task.checkpoint);
      // s1 and s3 are alone in their worktrees: nobody else moves their HEAD in between.
      if ((a === s1 || a === s3) && task.checkpoint.head !== before) problems.push(`${a.name}'s checkpoint of ${id} has head ${task.checkpoint.head}, the worktree is at ${before}`);
      return task;
    };
    const expectRefused = async (a: Agent, name: string, args: Record<string, unknown>, code: string) => {
      const got = await refusal(a, name, args);
      refusals.set(got, (refusals.get(got) ?? 0) + 1);
      if (got !== code) problems.push(`${a.name} ${name} ${JSON.stringify(args)}: refused with ${got}, expected ${code}`);
    };
    const finish = async (a: Agent, id: string, spec: Spec) => {
      const evidence = a.kind === 'stdio' ? { commit: await commitWork(a, spec, id) } : { test: { command: `npm test -- ${spec.file}`, exitCode: 0 } };
      const { task } = await tool(a, 'complete_task', { id, evidence });
      const want = a.kind === 'stdio' ? 'verified' : 'reported';
      if (task.evidence?.status !== want) problems.push(`${id} completed by ${a.name} with evidence ${JSON.stringify(task.evidence)}, expected ${want}`);
    };

    // The lease that lapses: s1 claims with the shortest lease, leaves a checkpoint and never comes back to it.
    sawClaim(s1, (await tool(s1, 'claim_task', { id: lapseId, leaseSeconds: MIN_LEASE_SECONDS })).task);
    await checkpoint(s1, lapseId, 'Seed loader half written; lost my session here', 'Finish src/db/lapse.ts', LAPSE);
    // The task taken over later: h4 holds it on a long lease and leaves a checkpoint.
    sawClaim(h4, (await tool(h4, 'claim_task', { id: takenId, leaseSeconds: 3600 })).task);
    await checkpoint(h4, takenId, 'Deploy script drafted', 'Wire it into CI', TAKEN);

    const loop = async (a: Agent, i: number) => {
      for (let n = 0; !failed; n++) {
        const out = await tool(a, 'claim_next', { project: 'CO', labels: ['work'], leaseSeconds: 600 });
        for (const s of out.skipped ?? []) skipped.push({ by: a.name, ...s });
        if (!out.task) {
          if (completed.size === WORK.length) return;
          await sleep(50 + ((i * 37 + n * 11) % 100));
          continue;
        }
        const task = out.task;
        const spec = specOf.get(task.id)!;
        sawClaim(a, task);
        // Its paths are this agent's alone now.
        const paths = await tool(a, 'check_paths', { paths: task.touches.length ? task.touches : [spec.file] });
        if (paths.held.length) problems.push(`${a.name} holds ${task.id}, yet check_paths says ${JSON.stringify(paths.held)}`);
        // Another agent tries to change it: refused, nothing changes. Comments are open to all.
        const other = agents[(i + 1 + (n % 7)) % agents.length]!;
        const attempts: Array<[string, Record<string, unknown>]> = [
          ['update_task', { id: task.id, title: `${task.title} (mine now)` }],
          ['complete_task', { id: task.id }],
          ['release_task', { id: task.id }],
          ['checkpoint_task', { id: task.id, summary: 'not mine to write' }],
        ];
        const [op, args] = attempts[n % attempts.length]!;
        await expectRefused(other, op, args, 'CLAIMED_BY_OTHER');
        if (n % 2 === 0) await tool(agents[(i + 2) % agents.length]!, 'add_comment', { id: task.id, body: `a hint for ${a.name} on ${task.id}` });
        if (spec.relay && !task.checkpoint) {
          await checkpoint(a, task.id, `${a.name}: first half of ${spec.title}`, `Finish ${spec.file}`, spec);
          await tool(a, 'release_task', { id: task.id });
          // Handed on to another agent: this one waits until someone else has claimed it.
          await waitFor(() => failed || claims.some((c) => c.task === task.id && c.generation > task.claim.generation), `another agent claims ${task.id}`, 120_000);
          continue;
        }
        await checkpoint(a, task.id, `${a.name}: ${spec.title} done`, 'Nothing left', spec);
        await finish(a, task.id, spec);
        completed.add(task.id);
      }
    };

    // The takeover, mid-run: s2 takes h4's live claim; h4 is fenced out from then on.
    const takeover = async () => {
      await waitFor(() => failed || completed.size >= 6, 'six tasks completed', 120_000, 50);
      if (failed) return;
      let task: any;
      // h4 may hold a work task on scripts/* at that moment: its reservation refuses the takeover until it completes.
      for (;;) {
        try {
          task = (await tool(s2, 'claim_task', { id: takenId, takeover: true, leaseSeconds: 600 })).task;
          break;
        } catch (err) {
          if (!(err instanceof Refused) || err.code !== 'PATHS_RESERVED') throw err;
          await sleep(100);
        }
      }
      sawClaim(s2, task);
      await expectRefused(h4, 'checkpoint_task', { id: takenId, summary: 'one last note' }, 'LEASE_LOST');
      await expectRefused(h4, 'update_task', { id: takenId, description: 'still mine?' }, 'LEASE_LOST');
      await checkpoint(s2, takenId, 'Took it over from agent:h4; CI wiring next', 'Wire it into CI', TAKEN);
      await finish(s2, takenId, TAKEN);
    };

    const outcomes = await Promise.allSettled([
      ...agents.map((a, i) =>
        loop(a, i).catch((err: unknown) => {
          failed = true;
          throw err;
        }),
      ),
      takeover().catch((err: unknown) => {
        failed = true;
        throw err;
      }),
    ]);
    const errors = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [`${agents[i]?.name ?? 'takeover'}: ${String(o.reason)}\n${agents[i]?.log().slice(-2000) ?? ''}`] : []));
    expect(errors).toEqual([]);
    expect(problems).toEqual([]);
    expect(completed.size).toBe(WORK.length);

    // The lapsed lease: announced by a serving process, then claim_next hands the task (and s1's checkpoint) on.
    await waitFor(async () => (await lead!.call('task_history', { id: lapseId })).events.some((e) => e.type === 'task.claim_expired'), 'the lease end announced');
    const picked = await tool(h1, 'claim_next', { project: 'CO' });
    expect(picked.task?.id).toBe(lapseId);
    sawClaim(h1, picked.task);
    expect(picked.task.checkpoint).toMatchObject({ actor: 'agent:s1', summary: 'Seed loader half written; lost my session here' });
    // s1 comes back: fenced out, even for a checkpoint; a bystander is refused as a non-holder.
    await expectRefused(s1, 'checkpoint_task', { id: lapseId, summary: 'back again' }, 'LEASE_LOST');
    await expectRefused(s1, 'complete_task', { id: lapseId, evidence: { commit: initialHead } }, 'LEASE_LOST');
    await expectRefused(s3, 'update_task', { id: lapseId, priority: 'low' }, 'CLAIMED_BY_OTHER');
    await checkpoint(h1, lapseId, 'Picked up after the lapse; seed loader finished', 'Nothing left', LAPSE);
    await finish(h1, lapseId, LAPSE);
    await expectRefused(s1, 'update_task', { id: lapseId, title: 'after it was done' }, 'LEASE_LOST');
    expect(problems).toEqual([]);

    // Paths were contended: claim_next passed over tasks and said whose reservation was in the way.
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) for (const r of s.reservedBy) expect(r.holder).not.toBe(s.by);
    expect(refusals.get('CLAIMED_BY_OTHER')).toBeGreaterThanOrEqual(WORK.length);
    expect(refusals.get('LEASE_LOST')).toBe(5);
    const all = await lead.call('list_tasks', { project: 'CO', includeDone: true, limit: 100 });
    expect(all.tasks).toHaveLength(WORK.length + 2);
    expect(all.tasks.filter((t) => t.statusCategory !== 'done').map((t) => t.id)).toEqual([]);

    // ---- The history, replayed.
    const events: ActivityEvent[] = [];
    for (let since = 0; ; ) {
      const page = await lead.call('changes_since', { since, limit: 1000 });
      events.push(...page.events);
      since = page.lastSeq;
      if (!page.hasMore) break;
    }
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((x, y) => x - y));

    // 1. No write by anyone but the live holder, nor by a holder fenced out since.
    expect(nonHolderWrites(events)).toEqual([]);

    // 2. Reservations: the holds, from claim to its end (release, completion, lapse or another's claim).
    interface Hold {
      task: string;
      holder: string;
      from: number;
      to: number;
      seq: number;
    }
    const holds: Hold[] = [];
    const current = new Map<string, Hold>();
    for (const e of events) {
      if (!e.taskId) continue;
      const at = Date.parse(e.at);
      const held = current.get(e.taskId);
      if (e.type === 'task.claimed' || e.type === 'task.claim_renewed') {
        if (held) held.to = Math.min(held.to, at);
        expect(e.changes.forcedPastReservations, `#${e.seq} forced past reservations`).toBeUndefined();
        const h = { task: e.taskId, holder: e.actor, from: at, to: Date.parse(String(e.changes.claimExpiresAt!.after)), seq: e.seq };
        holds.push(h);
        current.set(e.taskId, h);
      } else if (held && ['task.released', 'task.completed', 'task.deleted', 'task.claim_expired'].includes(e.type)) {
        held.to = Math.min(held.to, at);
        current.delete(e.taskId);
      }
    }
    const touchesOf = (id: string) => specOf.get(id)!.touches;
    const overlapping: string[] = [];
    for (let i = 0; i < holds.length; i++) {
      for (let j = i + 1; j < holds.length; j++) {
        const a = holds[i]!;
        const b = holds[j]!;
        if (a.task === b.task || a.holder === b.holder) continue;
        if (!(a.from < b.to && b.from < a.to)) continue;
        const pairs = touchesOf(a.task).flatMap((p) =>
          touchesOf(b.task)
            .filter((q) => patternsOverlap(p, q))
            .map((q) => `${p} ~ ${q}`),
        );
        if (pairs.length) overlapping.push(`${a.task} (${a.holder}, #${a.seq}) and ${b.task} (${b.holder}, #${b.seq}) both live: ${pairs.join(', ')}`);
      }
    }
    expect(overlapping).toEqual([]);
    // The lapse and the takeover are in the history as they happened.
    const expired = events.find((e) => e.type === 'task.claim_expired' && e.taskId === lapseId);
    expect(expired).toMatchObject({ actor: 'cairn', changes: { claim: { before: { actor: 'agent:s1' } } } });
    const tookOver = events.find((e) => e.taskId === takenId && e.changes.takenOver);
    expect(tookOver).toMatchObject({ type: 'task.claimed', actor: 'agent:s2', changes: { takenOver: { before: { holder: 'agent:h4' }, after: 'agent:s2' } } });

    // 3. Every checkpoint is a task.checkpoint event, and each claim was handed the latest one before it.
    const kept = events.filter((e) => e.type === 'task.checkpoint').map((e) => e.changes.checkpoint!.after);
    const key = (c: unknown) => JSON.stringify(c);
    expect(kept.map(key).sort()).toEqual(checkpoints.map(key).sort());
    const latest = new Map<string, unknown>();
    let handedOn = 0;
    for (const e of events) {
      if (!e.taskId) continue;
      if (e.type === 'task.checkpoint') latest.set(e.taskId, e.changes.checkpoint!.after);
      if (e.type !== 'task.claimed') continue;
      const generation = Number(e.changes.claimGeneration?.after);
      const seen = claims.filter((c) => c.task === e.taskId && c.generation === generation);
      expect(seen, `the claim of ${e.taskId} at generation ${generation}`).toHaveLength(1);
      expect(seen[0]!.actor).toBe(e.actor);
      expect(seen[0]!.checkpoint ?? null, `the checkpoint handed to ${e.actor} with ${e.taskId}`).toEqual(latest.get(e.taskId) ?? null);
      if (latest.has(e.taskId)) handedOn++;
    }
    expect(events.filter((e) => e.type === 'task.claimed')).toHaveLength(claims.length);
    // The relays, the lapse and the takeover each handed one on.
    expect(handedOn).toBe(WORK.filter((s) => s.relay).length + 2);
    for (const [id, s] of specOf) {
      const by = claims
        .filter((c) => c.task === id)
        .sort((x, y) => x.generation - y.generation)
        .map((c) => c.actor);
      if (s.relay || id === lapseId || id === takenId) expect(new Set(by).size, `${id} claimed by ${by.join(', ')}`).toBe(2);
    }

    // The checker is not vacuous: a forged write by a bystander, and one by the fenced-out s1, are both found.
    const claimOfLapse = events.find((e) => e.type === 'task.claimed' && e.taskId === lapseId && e.actor === 'agent:h1')!;
    const forged: HoldEvent[] = [...events];
    forged.splice(forged.indexOf(claimOfLapse) + 1, 0, { ...claimOfLapse, seq: claimOfLapse.seq + 0.5, type: 'task.updated', actor: 'agent:s3', changes: { title: { before: 'a', after: 'b' } } });
    forged.push({
      ...claimOfLapse,
      seq: Number.MAX_SAFE_INTEGER,
      at: new Date(Date.now() + 86_400_000).toISOString(),
      type: 'task.moved',
      actor: 'agent:s1',
      changes: { status: { before: 'done', after: 'todo' } },
    });
    const found = nonHolderWrites(forged);
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('by agent:s3');
    expect(found[0]).toContain('while agent:h1 held it');
    expect(found[1]).toContain('by agent:s1');
  }, 240_000);
});

describe('nonHolderWrites', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  const claim = (seq: number, actor: string, s: number, lease = 10, extra = {}) => ({
    seq,
    at: at(s),
    type: 'task.claimed',
    actor,
    taskId: 'CO-1',
    changes: { claimedBy: { before: null, after: actor }, claimExpiresAt: { before: null, after: at(s + lease) }, ...extra },
  });
  const write = (seq: number, actor: string, s: number, type = 'task.updated') => ({ seq, at: at(s), type, actor, taskId: 'CO-1', changes: { title: { before: 'a', after: 'b' } } });

  it('lets the holder write and everyone comment or plan; finds a write by anyone else while the lease lasts', () => {
    expect(
      nonHolderWrites([claim(1, 'a', 0), write(2, 'a', 1), write(3, 'b', 2, 'comment.added'), write(4, 'b', 3, 'dependency.added'), write(5, 'a', 4, 'task.completed'), write(6, 'b', 5)]),
    ).toEqual([]);
    expect(nonHolderWrites([claim(1, 'a', 0), write(2, 'b', 1), write(3, 'b', 2, 'checklist.updated'), write(4, 'b', 3, 'task.checkpoint')])).toHaveLength(3);
  });

  it('a lapsed lease is open to others until someone claims; the holder who lost it is fenced out', () => {
    // b writes after a's lease ended (no expiry event needed); a, replaced by c, may not write even after c's lease lapsed.
    expect(nonHolderWrites([claim(1, 'a', 0), write(2, 'b', 11)])).toEqual([]);
    const fenced = nonHolderWrites([claim(1, 'a', 0), claim(2, 'c', 11, 10, { takenOver: { before: { holder: 'a' }, after: 'c' } }), write(3, 'a', 30), claim(4, 'a', 31), write(5, 'a', 32)]);
    expect(fenced).toHaveLength(1);
    expect(fenced[0]).toContain('#3 task.updated of CO-1 by a');
    // A forced release of another's live claim is a takeover, not a write; after it the holder is fenced out.
    expect(nonHolderWrites([claim(1, 'a', 0), write(2, 'x', 1, 'task.released'), write(3, 'a', 2)])).toHaveLength(1);
    // A holder who let go is an ordinary bystander again.
    expect(nonHolderWrites([claim(1, 'a', 0), write(2, 'a', 1, 'task.released'), write(3, 'a', 2)])).toEqual([]);
  });
});
