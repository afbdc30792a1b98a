/**
 * REST as HTTP clients expect it (issue 20, item 6): ETag on task and project answers, If-Match on
 * PATCH/DELETE (412 when stale, nothing written), Location on 201, 405 with Allow and OPTIONS, and the
 * OpenAPI document linted by Redocly's engine under its recommended rules with zero errors.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from './http-harness.js';

let s: Served;
beforeAll(async () => {
  s = await serve();
});
afterAll(async () => s.stop());

describe('REST conventions', () => {
  it('201 answers carry Location and ETag; reads carry the ETag of what they return', async () => {
    const p = await s.call('POST', '/api/v1/projects', { key: 'REST', name: 'REST conventions' });
    expect(p.status).toBe(201);
    expect(p.headers.get('location')).toBe('/api/v1/projects/REST');
    expect(p.headers.get('etag')).toMatch(/^"p[\w-]+"$/);
    const t = await s.call('POST', '/api/v1/tasks', { project: 'REST', title: 'Tagged' });
    expect(t.status).toBe(201);
    expect(t.headers.get('location')).toBe('/api/v1/tasks/REST-1');
    expect(t.headers.get('etag')).toBe('"v1"');
    const read = await s.call('GET', t.headers.get('location')!);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(`"v${read.body.task.version}"`);
    const proj = await s.call('GET', '/api/v1/projects/REST');
    expect(proj.headers.get('etag')).toMatch(/^"p[\w-]+"$/);
    // A list is not one resource: no ETag.
    expect((await s.call('GET', '/api/v1/tasks?project=REST')).headers.get('etag')).toBeNull();
  });

  it('If-Match on PATCH and DELETE: a stale tag is 412 and writes nothing; the current tag (or *) goes through', async () => {
    const t = await s.call('POST', '/api/v1/tasks', { project: 'REST', title: 'Guarded' });
    const tag = t.headers.get('etag')!;
    const first = await s.call('PATCH', `/api/v1/tasks/${t.body.task.id}`, { title: 'Guarded once' }, { 'if-match': tag });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('"v2"');
    const stale = await s.call('PATCH', `/api/v1/tasks/${t.body.task.id}`, { title: 'Lost update' }, { 'if-match': tag });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('PRECONDITION_FAILED');
    expect((await s.call('GET', `/api/v1/tasks/${t.body.task.id}`)).body.task).toMatchObject({ title: 'Guarded once', version: 2 });
    expect((await s.call('DELETE', `/api/v1/tasks/${t.body.task.id}`, undefined, { 'if-match': tag })).status).toBe(412);
    expect((await s.call('GET', `/api/v1/tasks/${t.body.task.id}`)).body.task.deletedAt).toBeNull();
    expect((await s.call('PATCH', `/api/v1/tasks/${t.body.task.id}`, { priority: 'high' }, { 'if-match': 'W/"v2"' })).status).toBe(412);
    expect((await s.call('PATCH', `/api/v1/tasks/${t.body.task.id}`, { priority: 'high' }, { 'if-match': '"v9", "v2"' })).status).toBe(200);
    expect((await s.call('PATCH', '/api/v1/tasks/REST-999', { priority: 'high' }, { 'if-match': '*' })).status).toBe(412);
    const del = await s.call('DELETE', `/api/v1/tasks/${t.body.task.id}`, undefined, { 'if-match': '"v3"' });
    expect(del.status).toBe(200);
    expect(del.body.task.deletedAt).not.toBeNull();

    const proj = await s.call('GET', '/api/v1/projects/REST');
    const renamed = await s.call('PATCH', '/api/v1/projects/REST', { name: 'Renamed' }, { 'if-match': proj.headers.get('etag')! });
    expect(renamed.status).toBe(200);
    const again = await s.call('PATCH', '/api/v1/projects/REST', { name: 'Renamed twice' }, { 'if-match': proj.headers.get('etag')! });
    expect(again.status).toBe(412);
    expect((await s.call('GET', '/api/v1/projects/REST')).body.project.name).toBe('Renamed');
    // Without If-Match a write goes through as before.
    expect((await s.call('PATCH', '/api/v1/projects/REST', { name: 'Free' })).status).toBe(200);
  });

  it('a known path with the wrong method is 405 with Allow; OPTIONS answers Allow; unknown paths stay 404', async () => {
    const wrong = await s.call('PUT', '/api/v1/tasks/REST-1', { title: 'x' });
    expect(wrong.status).toBe(405);
    expect(wrong.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(wrong.headers.get('allow')!.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH']);
    expect((await s.call('DELETE', '/api/v1/projects')).headers.get('allow')).toContain('POST');
    const opts = await s.call('OPTIONS', '/api/v1/tasks');
    expect(opts.status).toBe(204);
    expect(opts.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    expect((await s.call('OPTIONS', '/api/v1/openapi.json')).headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const head = await fetch(`${s.url}/api/v1/tasks/REST-1`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toMatch(/^"v\d+"$/);
    expect((await s.call('GET', '/api/v1/nothing-here')).status).toBe(404);
  });
});

describe('OpenAPI document', () => {
  it('has servers, a license, and per-operation responses (no 409/413 on reads; 412 where If-Match applies)', async () => {
    const { body: doc } = await s.call('GET', '/api/v1/openapi.json');
    expect(doc.servers[0].url).toContain('{port}');
    expect(doc.info.license).toMatchObject({ name: 'MIT' });
    const getTask = doc.paths['/api/v1/tasks/{id}'].get;
    expect(Object.keys(getTask.responses)).not.toContain('409');
    expect(Object.keys(getTask.responses)).not.toContain('413');
    expect(getTask.responses['200'].headers.ETag).toBeDefined();
    const patch = doc.paths['/api/v1/tasks/{id}'].patch;
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(['409', '412', '413', '415']));
    expect(patch.parameters.some((p: { name: string; in: string }) => p.name === 'If-Match' && p.in === 'header')).toBe(true);
    expect(doc.paths['/api/v1/tasks'].post.responses['201'].headers.Location).toBeDefined();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
      if (item.get) expect(Object.keys(item.get.responses), path).not.toContain('409');
    }
  });

  it('passes Redocly lint (recommended rules) with zero errors', async () => {
    const { body: doc } = await s.call('GET', '/api/v1/openapi.json');
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    // Warnings are allowed but known: the probes have no 4XX answer (they answer 200 or 503, to anyone).
    const warnings = problems.filter((p) => p.severity === 'warn').map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    expect(warnings.sort()).toEqual(['/healthz', '/livez', '/readyz'].map((p) => `operation-4xx-response #/paths/~1${p.slice(1)}/get/responses`));
  });
});
