/** Claims over REST and in the MCP text: POST /api/v1/claims/next, BLOCKED as 409, the lease's end in every rendered task. */
import { afterEach, describe, expect, it } from 'vitest';
import { renderResult } from '../../src/mcp/render.js';
import { serve, type Served } from './http-harness.js';

let s: Served | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

describe('claims over HTTP', () => {
  it('POST /claims/next claims the first ready task; a blocked claim is 409 BLOCKED; force claims it', async () => {
    s = await serve();
    await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
    await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'first', priority: 'high' });
    await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'second', blockedBy: ['API-1'] });
    const as = (name: string) => ({ 'x-cairn-actor': name });
    const blocked = await s.call('POST', '/api/v1/tasks/API-2/claim', {}, as('agent:a'));
    expect([blocked.status, blocked.body.error.code, blocked.body.error.details]).toEqual([409, 'BLOCKED', { blockedBy: ['API-1'] }]);
    const next = await s.call('POST', '/api/v1/claims/next', { project: 'API' }, as('agent:a'));
    expect([next.status, next.body.task.id, next.body.task.claim.actor]).toEqual([200, 'API-1', 'agent:a']);
    const none = await s.call('POST', '/api/v1/claims/next', { project: 'API' }, as('agent:b'));
    expect([none.status, none.body.task]).toEqual([200, null]);
    const forced = await s.call('POST', '/api/v1/tasks/API-2/claim', { force: true }, as('agent:b'));
    expect(forced.body.task.claim.actor).toBe('agent:b');
  });

  it('the MCP text shows when a lease ends, in list rows and full tasks, and says so when claim_next found nothing', () => {
    const claim = { actor: 'agent:x', expiresAt: '2026-05-01T10:30:00.000Z' };
    const row = { id: 'API-1', title: 't', status: 'in_progress', priority: 'none', labels: [], blockedBy: [], openBlockers: [], blocks: [], children: [], isReady: false, assignee: 'agent:x', claim };
    const listed = renderResult({ tool: 'list_tasks', args: {} }, { tasks: [row], total: 1, nextCursor: null });
    expect(listed).toContain('claimed by agent:x until 2026-05-01T10:30:00.000Z');
    expect(renderResult({ tool: 'claim_next', args: {} }, { task: null })).toMatch(/^No ready task to claim/);
    // A later page does not claim to know how many rows remain (the keyset cursor does not count them).
    const first = renderResult({ tool: 'list_tasks', args: {} }, { tasks: [row], total: 5, nextCursor: 'c1' });
    expect(first).toContain('4 more: call list_tasks again with the same arguments and cursor: "c1"');
    const later = renderResult({ tool: 'list_tasks', args: { cursor: 'c1' } }, { tasks: [row], total: 5, nextCursor: 'c2' });
    expect(later).toContain('\nMore: call list_tasks again with the same arguments and cursor: "c2"');
  });
});
