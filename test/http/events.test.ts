/** /api/v1/events: the activity feed over SSE — project filter, resume with Last-Event-ID, and writes from other processes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, readSse, serve, type Served } from './http-harness.js';

let s: Served;
beforeAll(async () => {
  s = await serve();
  await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
  await s.call('POST', '/api/v1/projects', { key: 'WEB', name: 'Web' });
});
afterAll(async () => s.stop());

type Ev = { seq: number; project: string | null; taskId: string | null; type: string; at: string };

describe('SSE activity feed', () => {
  it('resumes after a dropped connection from Last-Event-ID without losing an event', async () => {
    const seen: Ev[] = [];
    const ctl = new AbortController();
    const first = await fetch(`${s.url}/api/v1/events`, { signal: ctl.signal });
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    let lastId = '';
    const created: string[] = [];
    const writes = (async () => {
      for (let i = 0; i < 30; i++) created.push((await s.call('POST', '/api/v1/tasks', { project: 'API', title: `t${i}` })).body.task.id);
    })();
    // Drop the connection after 10 events while writes keep coming.
    await readSse(first, (e) => {
      lastId = e.id ?? lastId;
      if (e.event === 'ready') return;
      seen.push(JSON.parse(e.data));
      if (seen.length === 10) return true;
    }).catch(() => undefined);
    ctl.abort();
    await writes;
    const second = await fetch(`${s.url}/api/v1/events`, { headers: { 'last-event-id': lastId } });
    await readSse(second, (e) => {
      if (e.event === 'ready') return;
      seen.push(JSON.parse(e.data));
      return seen.length >= 30;
    });
    const seqs = seen.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(30);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seen.map((e) => e.taskId)).toEqual(created);
  });

  it('filters by project and replays with ?since=', async () => {
    const res = await fetch(`${s.url}/api/v1/events?project=web&since=0`);
    const got: Ev[] = [];
    const reading = readSse(res, (e) => {
      if (e.event === 'ready') return;
      got.push(JSON.parse(e.data));
      return got.some((x) => x.taskId === 'WEB-1');
    });
    await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'not for web' });
    await s.call('POST', '/api/v1/tasks', { project: 'WEB', title: 'for web' });
    await reading;
    expect(got.every((e) => e.project === 'WEB')).toBe(true);
    expect(got[0]!.type).toBe('project.created');
    expect((await s.call('GET', '/api/v1/events?project=NOPE')).status).toBe(404);
    expect((await s.call('GET', '/api/v1/events?since=abc')).status).toBe(400);
    expect((await s.call('GET', '/api/v1/events?since=999999')).status).toBe(400);
  });

  // How soon after its commit is a benchmark figure; here the event must come, whole.
  it('delivers a write made by the CLI in another process', async () => {
    const res = await fetch(`${s.url}/api/v1/events?project=API`);
    let delivered: Ev | undefined;
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    const reading = readSse(res, (e) => {
      if (e.event === 'ready') return void ready();
      const ev = JSON.parse(e.data) as Ev & { changes: Record<string, { after: unknown }> };
      if (ev.changes.title?.after !== 'from the cli') return;
      delivered = ev;
      return true;
    });
    await isReady;
    const r = await cli(s.ws.db, ['add', 'from the cli', '--project', 'API']);
    expect(r.code, r.stderr).toBe(0);
    await reading;
    expect(delivered).toMatchObject({ project: 'API', type: 'task.created', taskId: expect.stringMatching(/^API-\d+$/) });
  });
});
