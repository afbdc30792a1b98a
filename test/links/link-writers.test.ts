/**
 * Two writers on one linked source: Cairn and the program that owns the files. A change the owner
 * made since Cairn last read the source is never overwritten: a write that finds its file moved
 * reads it again and retries, keeping both changes, or answers VERSION_CONFLICT when both changed
 * the same field. An owner writing other cards all along loses nothing, and a Cairn process killed
 * in the middle of writing back leaves every file whole.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Context } from '../../src/core/context.js';
import { systemClock, type Tx } from '../../src/core/ports.js';
import { commitTaskChange } from '../../src/core/services/task-write.js';
import { openCairn, type Cairn } from '../../src/index.js';
import { ROOT } from '../mcp/helpers.js';
import { devplannerWorkspace, readCardFile, scratch, writeCardFile, type Scratch } from './link-helpers.js';

let s: Scratch;
let cairn: Cairn;
afterEach(async () => {
  await cairn?.close();
  s?.cleanup();
});

const P = 'media-manager';

async function linked(): Promise<{ ws: string; db: string; file: (lane: string, slug: string) => string }> {
  s = scratch('cairn-link-writers-');
  const ws = devplannerWorkspace(join(s.dir, 'planner'));
  const db = join(s.dir, 'cairn.db');
  cairn = openCairn({ db, actor: 'agent' });
  await cairn.call('link_source', { path: ws });
  return { ws, db, file: (lane, slug) => join(ws, P, lane, `${slug}.md`) };
}

/** Runs `change` on a task inside one write of the store, after `meanwhile` (the owner's write, on the first attempt only). */
async function writeWhileOwnerWrites(id: string, meanwhile: () => void, change: Parameters<typeof commitTaskChange>[3]): Promise<void> {
  let first = true;
  const ctx: Context = { store: cairn.store, clock: systemClock, actor: 'agent' };
  await cairn.store.write(async (tx: Tx) => {
    if (first) meanwhile();
    first = false;
    const row = (await tx.getTaskByKey('MM', Number(id.split('-')[1])))!;
    await commitTaskChange(tx, ctx, row, change, 'task.updated');
  });
}

describe('links: two writers', () => {
  it("the owner writes a card between Cairn's read and its write: Cairn reads again and both changes are kept", async () => {
    const { file } = await linked();
    const auth = file('02-in-progress', 'user-authentication');
    const { task } = await cairn.call('get_task', { id: 'MM-3' });
    await writeWhileOwnerWrites(
      task.id,
      () => {
        const card = readCardFile(auth);
        writeCardFile(auth, { ...card.data, assignee: 'user' }, card.content.replace('- [ ] Add login endpoint', '- [x] Add login endpoint'));
      },
      { title: 'User authentication (JWT)' },
    );
    const after = readCardFile(auth);
    expect(after.data).toMatchObject({ title: 'User authentication (JWT)', assignee: 'user' });
    expect(after.tasks.at(-1)).toEqual({ text: 'Add login endpoint', checked: true });
    const now = (await cairn.call('get_task', { id: 'MM-3' })).task;
    expect(now).toMatchObject({ title: 'User authentication (JWT)', assignee: 'user' });
    expect(now.checklist.at(-1)).toMatchObject({ text: 'Add login endpoint', checked: true });
  });

  it("both change the same field: VERSION_CONFLICT with the fresh record, and the owner's change stays", async () => {
    const { file } = await linked();
    const auth = file('02-in-progress', 'user-authentication');
    const err = await writeWhileOwnerWrites(
      'MM-3',
      () => {
        const card = readCardFile(auth);
        writeCardFile(auth, { ...card.data, title: 'Auth, as the owner named it' }, card.content);
      },
      { title: 'Auth, as the agent named it' },
    ).catch((e: unknown) => e as { code: string; details: Record<string, any> });
    expect(err).toMatchObject({ code: 'VERSION_CONFLICT', details: { fields: ['title'], task: { id: 'MM-3', title: 'Auth, as the owner named it' } } });
    expect(readCardFile(auth).data.title).toBe('Auth, as the owner named it');
    expect((await cairn.call('get_task', { id: 'MM-3' })).task.title).toBe('Auth, as the owner named it');
  });

  it("an expectedVersion from before the owner's change is refused, and the change is not overwritten", async () => {
    const { file } = await linked();
    const thumb = file('01-upcoming', 'thumbnail-cache');
    const seen = (await cairn.call('get_task', { id: 'MM-2' })).task;
    const card = readCardFile(thumb);
    writeCardFile(thumb, { ...card.data, priority: 'high' }, card.content);
    await expect(cairn.call('update_task', { id: 'MM-2', expectedVersion: seen.version, priority: 'low' })).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
    expect(readCardFile(thumb).data.priority).toBe('high');
  });

  it('the owner writes other cards all along while an agent writes through Cairn: nothing is lost', async () => {
    const { ws, file } = await linked();
    const N = 40;
    // The owner (DevPlanner's app, as a script): checks the tasks of one card one by one and adds cards, saving in place.
    const owner = `
      const matter = (await import(${JSON.stringify(`${ROOT}node_modules/gray-matter/index.js`)})).default;
      const fs = await import('node:fs');
      const file = ${JSON.stringify(file('01-upcoming', 'thumbnail-cache'))};
      const card = matter(fs.readFileSync(file, 'utf8'));
      const lines = Array.from({ length: ${N} }, (_, i) => '- [ ] owner task ' + i);
      for (let i = 0; i < ${N}; i++) {
        lines[i] = '- [x] owner task ' + i;
        fs.writeFileSync(file, matter.stringify('## Tasks\\n' + lines.join('\\n') + '\\n', card.data));
        fs.writeFileSync(${JSON.stringify(join(ws, P, '03-complete'))} + '/owner-card-' + i + '.md', matter.stringify('Done by the owner.\\n', { title: 'Owner card ' + i }));
        await new Promise((r) => setTimeout(r, 2));
      }`;
    const app = spawn(process.execPath, ['--input-type=module', '-e', owner], { stdio: 'inherit' });
    const appDone = new Promise((resolve) => app.on('exit', resolve));
    for (let i = 0; i < N; i++) {
      await cairn.call('update_checklist', { id: 'MM-3', ops: [{ op: 'add', text: `agent task ${i}` }] });
      await cairn.call('list_tasks', { project: 'MM' });
    }
    expect(await appDone).toBe(0);
    const agentCard = readCardFile(file('02-in-progress', 'user-authentication'));
    expect(agentCard.tasks.filter((t) => t.text.startsWith('agent task')).map((t) => t.text)).toEqual(Array.from({ length: N }, (_, i) => `agent task ${i}`));
    const ownerCard = readCardFile(file('01-upcoming', 'thumbnail-cache'));
    expect(ownerCard.tasks.every((t) => t.checked)).toBe(true);
    expect(ownerCard.tasks).toHaveLength(N);
    const seen = (await cairn.call('get_task', { id: 'MM-2' })).task;
    expect(seen.checklist.map((i) => [i.text, i.checked])).toEqual(ownerCard.tasks.map((t) => [t.text, t.checked]));
    const { tasks } = await cairn.call('list_tasks', { project: 'MM', includeDone: true, limit: 200 });
    expect(tasks.filter((t) => t.title.startsWith('Owner card'))).toHaveLength(N);
  });

  it('a Cairn killed in the middle of writing back leaves every card whole, and the next one agrees with the files', async () => {
    const { ws, db } = await linked();
    await cairn.close();
    const writer = `
      const { openCairn } = await import(${JSON.stringify(`${ROOT}dist/index.js`)});
      const c = openCairn({ db: ${JSON.stringify(db)}, actor: 'agent' });
      for (let i = 0; ; i++) {
        await c.call('create_task', { project: 'MM', title: 'Card ' + i, description: 'x'.repeat(2000) + ' ' + i, checklist: ['a', 'b'] });
        await c.call('update_task', { id: 'MM-3', title: 'User Authentication ' + i });
        if (i === 3) process.stdout.write('go\\n');
      }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', writer], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const cards = readdirSync(join(ws, P), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.md'));
    for (const f of cards) {
      const card = readCardFile(join(ws, P, f));
      expect(card.data.title, f).toEqual(expect.any(String));
    }
    cairn = openCairn({ db, actor: 'agent' });
    const tasks: Array<{ title: string }> = [];
    for (let cursor: string | undefined; ; ) {
      const page = await cairn.call('list_tasks', { project: 'MM', includeDone: true, limit: 200, ...(cursor ? { cursor } : {}) });
      tasks.push(...page.tasks);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const titles = new Set(tasks.map((t) => t.title));
    for (const f of cards) expect(titles.has(readCardFile(join(ws, P, f)).data.title), f).toBe(true);
    expect(tasks).toHaveLength(cards.length);
    expect(JSON.parse(readFileSync(join(ws, P, '_project.json'), 'utf8')).name).toBe('Media Manager');
    writeFileSync(join(s.dir, 'done'), '');
  });
});
