/** Hints in the caller's language: a REST error suggests routes, the CLI commands, MCP tool calls, for the same refusal. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restSuggestion } from '../../src/http/rest-suggestions.js';
import { cli, serve, type Served } from './http-harness.js';

let s: Served;
beforeAll(async () => {
  s = await serve({ rateLimit: false });
  await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
  await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'Login' });
});
afterAll(async () => s.stop());

describe('suggestions by surface', () => {
  it('turns a tool call into its route: path parameters filled, GET arguments as a query, others as a JSON body', () => {
    expect(restSuggestion('get_task {id: "API-1"} to see it')).toBe('GET /api/v1/tasks/API-1 to see it');
    expect(restSuggestion('update_task {id: "API-1", status: "todo"} to reopen it first')).toBe('PATCH /api/v1/tasks/API-1 {"status":"todo"} to reopen it first');
    expect(restSuggestion('search_tasks {query: "<words from the title>"} to find it by text')).toBe('GET /api/v1/search?query=%3Cwords%20from%20the%20title%3E to find it by text');
    expect(restSuggestion('next_tasks to find a ready task')).toBe('GET /api/v1/ready to find a ready task');
    expect(restSuggestion('Pick another key')).toBe('Pick another key');
  });

  it('the same missing task: REST suggests routes, the CLI commands, and neither a tool call', async () => {
    const rest = await s.call('GET', '/api/v1/tasks/API-9');
    expect(rest.status).toBe(404);
    const restHints: string[] = rest.body.error.suggestions;
    expect(restHints).toContain('GET /api/v1/tasks/API-1');
    expect(restHints.join('\n')).not.toMatch(/\bget_task\b|\bsearch_tasks\b/);
    const out = await cli(s.ws.db, ['show', 'API-9']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('cairn show API-1');
    expect(out.stderr).not.toMatch(/\bget_task\b/);
  });

  it('a remote runner (x-cairn-suggestions: calls) gets the tool calls, which it shows in its own terms', async () => {
    const raw = await s.call('GET', '/api/v1/tasks/API-9', undefined, { 'x-cairn-suggestions': 'calls' });
    expect(raw.status).toBe(404);
    expect(raw.body.error.suggestions.join('\n')).toMatch(/\bget_task \{id: "API-1"\}/);
    expect(raw.body.error.suggestions.join('\n')).not.toContain('/api/v1');
  });
});
