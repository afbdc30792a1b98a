/** REST over a real socket: the main ops, query-string typing, error mapping, and the OpenAPI document. */
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS } from '../../src/ops/index.js';
import { serve, type Served } from './http-harness.js';

let s: Served;
beforeAll(async () => {
  s = await serve();
  await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API server' });
});
afterAll(async () => s.stop());

describe('REST API', () => {
  it('creates, reads, lists, updates, moves, claims, completes', async () => {
    const a = await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'Login', labels: ['auth', 'ui'], priority: 'high', checklist: ['design'] });
    expect(a.status).toBe(201);
    expect(a.body.task).toMatchObject({ id: 'API-1', isReady: true, blockedBy: [], blocks: [], children: [] });
    const b = await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'Logout', blockedBy: ['API-1'] });
    expect(b.body.task.blockedBy).toEqual(['API-1']);

    const got = await s.call('GET', '/api/v1/tasks/api-1');
    expect(got.status).toBe(200);
    expect(got.body.task.checklist).toEqual([{ index: 0, text: 'design', checked: false }]);

    // Query strings are typed by the op's schema: numbers, booleans, comma lists and repeated keys.
    const listed = await s.call('GET', '/api/v1/tasks?project=API&labels=auth,ui&limit=1&includeDone=true');
    expect(listed.status).toBe(200);
    expect(listed.body.tasks.map((t: { id: string }) => t.id)).toEqual(['API-1']);
    const ready = await s.call('GET', '/api/v1/tasks?project=API&ready=true&priority=high&priority=none');
    expect(ready.body.tasks.map((t: { id: string }) => t.id)).toEqual(['API-1']);
    expect((await s.call('GET', '/api/v1/ready?project=API&limit=5')).body.tasks.map((t: { id: string }) => t.id)).toEqual(['API-1']);

    const upd = await s.call('PATCH', '/api/v1/tasks/API-1', { title: 'Login page', expectedVersion: got.body.task.version, status: 'in_progress' });
    expect(upd.body.task).toMatchObject({ title: 'Login page', status: 'in_progress' });
    const chk = await s.call('POST', '/api/v1/tasks/API-1/checklist', {
      ops: [
        { op: 'check', index: 0 },
        { op: 'add', text: 'build' },
      ],
    });
    expect(chk.body.task.checklist.map((i: { checked: boolean }) => i.checked)).toEqual([true, false]);
    const com = await s.call('POST', '/api/v1/tasks/API-1/comments', { body: 'started', kind: 'research' }, { 'x-cairn-actor': 'agent:rest' });
    expect(com.status).toBe(200);
    const claimed = await s.call('POST', '/api/v1/tasks/API-1/claim', {}, { 'x-cairn-actor': 'agent:rest' });
    expect(claimed.body.task.claim).toMatchObject({ actor: 'agent:rest' });
    const stolen = await s.call('POST', '/api/v1/tasks/API-1/claim', {}, { 'x-cairn-actor': 'agent:other' });
    expect(stolen.status).toBe(409);
    expect(stolen.body.error.code).toBe('ALREADY_CLAIMED');
    const done = await s.call('POST', '/api/v1/tasks/API-1/complete', { closeReason: 'shipped' }, { 'x-cairn-actor': 'agent:rest' });
    expect(done.body.nowReady).toEqual(['API-2']);

    const hist = await s.call('GET', '/api/v1/tasks/API-1/history?limit=50');
    expect(hist.body.events.some((e: { actor: string }) => e.actor === 'agent:rest')).toBe(true);
    expect((await s.call('GET', '/api/v1/search?query=login')).body.results[0].task.id).toBe('API-1');
    expect((await s.call('GET', '/api/v1/board?project=API')).body.lanes.length).toBeGreaterThan(3);
    expect((await s.call('GET', '/api/v1/progress?project=API')).body.summary.doneTasks).toBe(1);
    expect((await s.call('GET', '/api/v1/labels')).body.labels.map((l: { label: string }) => l.label).sort()).toEqual(['auth', 'ui']);
    expect((await s.call('GET', '/api/v1/changes?since=0&limit=2')).body).toMatchObject({ hasMore: true });
  });

  it('adds and removes dependencies through path params', async () => {
    const c = await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'Dep target' });
    const d = await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'Dep source' });
    const add = await s.call('POST', `/api/v1/tasks/${d.body.task.id}/dependencies`, { blockedBy: c.body.task.id });
    expect(add.body.task.blockedBy).toEqual([c.body.task.id]);
    const cycle = await s.call('POST', `/api/v1/tasks/${c.body.task.id}/dependencies`, { blockedBy: d.body.task.id });
    expect([cycle.status, cycle.body.error.code]).toEqual([409, 'CYCLE_DETECTED']);
    const rm = await s.call('DELETE', `/api/v1/tasks/${d.body.task.id}/dependencies/${c.body.task.id}`);
    expect(rm.body.task.blockedBy).toEqual([]);
    const del = await s.call('DELETE', `/api/v1/tasks/${d.body.task.id}`);
    expect(del.status).toBe(200);
  });

  it('maps errors to statuses with {error:{code,message,suggestions}}', async () => {
    const cases: Array<[string, string, unknown, number, string]> = [
      ['GET', '/api/v1/tasks/API-999', undefined, 404, 'TASK_NOT_FOUND'],
      ['GET', '/api/v1/projects/NOPE', undefined, 404, 'PROJECT_NOT_FOUND'],
      ['GET', '/api/v1/tasks?limit=abc', undefined, 400, 'VALIDATION_ERROR'],
      ['GET', '/api/v1/tasks?bogus=1', undefined, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/v1/tasks', { project: 'API' }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/v1/tasks', '{not json', 400, 'VALIDATION_ERROR'],
      ['POST', '/api/v1/tasks', '[1,2]', 400, 'VALIDATION_ERROR'],
      ['POST', '/api/v1/projects', { key: 'API', name: 'again' }, 409, 'PROJECT_EXISTS'],
      ['PATCH', '/api/v1/tasks/API-1', { expectedVersion: 1, title: 'x' }, 409, 'VERSION_CONFLICT'],
      ['PATCH', '/api/v1/tasks/API-1', { id: 'API-2', title: 'x' }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/v1/tasks/API-2/checklist', { ops: [{ op: 'check', index: 9 }] }, 400, 'CHECKLIST_INDEX_OUT_OF_RANGE'],
      ['GET', '/api/v1/nothing-here', undefined, 404, 'ROUTE_NOT_FOUND'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const r = await s.call(method, path, body);
      expect({ path, status: r.status, code: r.body.error?.code }).toEqual({ path, status, code });
      expect(typeof r.body.error.message).toBe('string');
      expect(Array.isArray(r.body.error.suggestions)).toBe(true);
    }
    const text = await fetch(`${s.url}/api/v1/tasks`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"project":"API","title":"x"}' });
    expect(text.status).toBe(415);
  });

  it('reports health and version without a token', async () => {
    const r = await s.call('GET', '/healthz');
    expect(r.body).toMatchObject({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });
});

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with one operation per op, declared path params, and valid JSON Schemas', async () => {
    const { body: doc, status } = await s.call('GET', '/api/v1/openapi.json');
    expect(status).toBe(200);
    expect(doc.openapi).toBe('3.1.0');
    const ids = new Set<string>();
    for (const op of OPS) {
      const path = '/api/v1' + op.rest.path.replace(/:([A-Za-z]+)/g, '{$1}');
      const o = doc.paths[path]?.[op.rest.method.toLowerCase()];
      expect(o, `${op.name} at ${op.rest.method} ${path}`).toBeDefined();
      expect(o.operationId).toBe(op.name);
      ids.add(o.operationId);
      for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        expect(o.parameters.some((p: { name: string; in: string; required: boolean }) => p.name === name && p.in === 'path' && p.required)).toBe(true);
      }
      const ok = o.responses['200'] ?? o.responses['201'];
      const schemas = [ok.content['application/json'].schema, o.requestBody?.content['application/json'].schema, ...(o.parameters ?? []).map((p: { schema: unknown }) => p.schema)];
      for (const sch of schemas.filter(Boolean)) expect(() => z.fromJSONSchema(sch)).not.toThrow();
    }
    expect(ids.size).toBe(OPS.length);
    // No dangling references: every $ref points into components.
    for (const m of JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)) {
      const parts = m[1]!.replace(/^#\//, '').split('/');
      expect(
        parts.reduce((o: any, k) => o?.[k], doc),
        m[1],
      ).toBeDefined();
    }
  });

  it('describes what the server really answers (responses validate against the documented schema)', async () => {
    const { body: doc } = await s.call('GET', '/api/v1/openapi.json');
    const probes: Array<[string, string]> = [
      ['/api/v1/tasks/{id}', '/api/v1/tasks/API-2'],
      ['/api/v1/tasks', '/api/v1/tasks?project=API'],
      ['/api/v1/board', '/api/v1/board'],
      ['/api/v1/projects', '/api/v1/projects'],
    ];
    for (const [tpl, url] of probes) {
      const schema = z.fromJSONSchema(doc.paths[tpl].get.responses['200'].content['application/json'].schema);
      const r = await s.call('GET', url);
      const parsed = schema.safeParse(r.body);
      expect(parsed.success, `${url}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
    }
    const err = await s.call('GET', '/api/v1/tasks/API-404');
    expect(z.fromJSONSchema(doc.components.schemas.Error).safeParse(err.body).success).toBe(true);
  });
});
