import { afterEach, describe, expect, it } from 'vitest';
import { tempCairn } from './helpers/workspace.js';

describe('library smoke', () => {
  let c: ReturnType<typeof tempCairn>;
  afterEach(async () => c.done());

  it('creates a project and a task and finds it ready', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'API', name: 'API' });
    const { task } = await c.call('create_task', { project: 'API', title: 'First' });
    expect(task.id).toBe('API-1');
    const { tasks } = await c.call('next_tasks', {});
    expect(tasks.map((t) => t.id)).toEqual(['API-1']);
  });
});
