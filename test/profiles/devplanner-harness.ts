/** The devplanner profile called in-process over a real temporary workspace: each tool through runProfileTool (seed schema parsing, the native ops, the seed's error format). */
import { systemClock } from '../../src/core/ports.js';
import { devplannerProfile } from '../../src/profiles/devplanner/index.js';
import { makeCall, runProfileTool } from '../../src/profiles/serve.js';
import { openCairn, type Cairn } from '../../src/index.js';
import { tempCairn, type TempWorkspace } from '../helpers/workspace.js';

function secondConnection(db: string): Cairn & { done(): Promise<void> } {
  const c = openCairn({ db, actor: 'agent-2' });
  return Object.assign(c, { done: () => c.close() });
}

export type Json = Record<string, any>;

/** `db`: another connection to an existing workspace (a second agent), closed but not deleted by done(). */
export function devplannerHarness(opts: { readOnly?: boolean; db?: string } = {}) {
  const cairn: Cairn & { done(): Promise<void>; ws?: TempWorkspace } = opts.db ? secondConnection(opts.db) : tempCairn();
  const sources = {
    context: async () => ({ store: cairn.store, clock: systemClock, actor: 'agent', ...(opts.readOnly ? { readOnly: true } : {}) }),
    env: {},
  };
  /** Calls a tool; returns the parsed JSON text (and checks it equals structuredContent). */
  async function call(name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; data: Json }> {
    const tool = devplannerProfile.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    const out = await runProfileTool(devplannerProfile, tool, sources, args);
    const data = JSON.parse(out.content[0]!) as Json;
    if (out.structured) expectSame(data, out.structured);
    return { isError: out.isError === true, data };
  }
  async function ok(name: string, args: Record<string, unknown> = {}): Promise<Json> {
    const r = await call(name, args);
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.data)}`);
    return r.data;
  }
  async function fail(name: string, args: Record<string, unknown> = {}): Promise<Json> {
    const r = await call(name, args);
    if (!r.isError) throw new Error(`${name} succeeded: ${JSON.stringify(r.data)}`);
    return r.data;
  }
  async function resource(uri: string): Promise<Json> {
    const call = await makeCall(devplannerProfile, sources);
    for (const r of devplannerProfile.resources ?? []) {
      const re = new RegExp(`^${r.uri.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`);
      const m = re.exec(uri);
      if (m) return JSON.parse((await r.read(call, { ...m.groups }, uri)).text) as Json;
    }
    throw new Error(`no resource for ${uri}`);
  }
  return { cairn, call, ok, fail, resource, done: () => cairn.done() };
}

function expectSame(a: unknown, b: unknown): void {
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error('the JSON text and structuredContent differ');
}
