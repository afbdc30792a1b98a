/**
 * Each profile's workflow template lives in its folder and is registered into the core; every list
 * of its status names (castle states, tx statuses, devplanner lanes) is derived from it. Checked
 * against projects really made from the templates in a SQLite workspace.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Status, templateCategories, templateNames, templateStatusNames, templateStatuses } from '../../src/core/model/workflow.js';
import { CreateProjectInput } from '../../src/core/services/projects.js';
import { CASTLE_STATES, CASTLE_TEMPLATE } from '../../src/profiles/castle/template.js';
import { DEVPLANNER_LANES, DEVPLANNER_TEMPLATE } from '../../src/profiles/devplanner/template.js';
import { LaneArg } from '../../src/profiles/devplanner/schemas.js';
import { PROFILES } from '../../src/profiles/index.js';
import { TX_STATUSES, TX_TEMPLATE } from '../../src/profiles/tx/template.js';
import { tempCairn } from '../helpers/workspace.js';

const enumOf = (tool: string, field: string): unknown[] => {
  const t = PROFILES.flatMap((p) => p.tools).find((x) => x.name === tool)!;
  let s = t.input.shape[field] as z.ZodType;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
  return (s as z.ZodEnum).options;
};

describe("profiles' workflow templates", () => {
  let c: ReturnType<typeof tempCairn>;
  beforeEach(() => {
    c = tempCairn();
  });
  afterEach(async () => {
    await c.done();
  });

  it.each([
    ['castle', CASTLE_TEMPLATE, CASTLE_STATES],
    ['tx', TX_TEMPLATE, TX_STATUSES],
    ['devplanner', DEVPLANNER_TEMPLATE, DEVPLANNER_LANES],
  ] as const)('a %s project has the profile template’s statuses, and its name list is the template’s', async (name, template, names) => {
    const { project } = await c.call('create_project', { key: name.toUpperCase().slice(0, 6), name, template: name });
    const { project: read } = await c.call('get_project', { key: project.key });
    const made = read.statuses.map((s) => ({ name: s.name, displayName: s.displayName, color: s.color, category: s.category }));
    expect(made).toEqual(template.map((s) => ({ ...s })));
    expect([...names]).toEqual(made.map((s) => s.name));
    expect(templateStatuses(name).map((s) => s.name)).toEqual([...names]);
    expect(templateStatusNames(name)).toEqual([...names]);
  });

  it("the profiles' tools, the links and the importer use those lists", () => {
    expect(enumOf('castle_list_tasks', 'state')).toEqual([...CASTLE_STATES]);
    expect(enumOf('castle_update_task', 'state')).toEqual([...CASTLE_STATES]);
    expect(enumOf('tx_update', 'status')).toEqual([...TX_STATUSES]);
    expect(LaneArg.options).toEqual([...DEVPLANNER_LANES]);
    // The live views the importers read are filled from the registered templates.
    expect([...templateStatusNames('castle')]).toEqual([...CASTLE_STATES]);
    expect(templateCategories('devplanner')).toEqual(Object.fromEntries(DEVPLANNER_TEMPLATE.map((s) => [s.name, s.category])));
  });

  it('every registered template is valid lanes: Status checks each seed, and names are unique', () => {
    for (const name of templateNames()) {
      const lanes = templateStatuses(name);
      expect(lanes.length, name).toBeGreaterThan(0);
      for (const lane of lanes) expect(() => Status().parse(lane), `${name}: ${lane.name}`).not.toThrow();
      expect(new Set(lanes.map((l) => l.name)).size, name).toBe(lanes.length);
    }
    // What the check catches: a lane whose name or colour a project could not store.
    expect(() => Status().parse({ ...templateStatuses('tx')[0], color: 'blue' })).toThrow(/hex colour/);
  });

  it('create_project takes the registered names, default first, and refuses others', () => {
    expect(templateNames()).toEqual(['default', 'castle', 'tx', 'devplanner']);
    const t = CreateProjectInput().shape.template.unwrap();
    expect(t.options).toEqual(['default', 'castle', 'tx', 'devplanner']);
    expect(t.description).toBe('default|castle|tx|devplanner');
    expect(() => templateStatuses('kanban')).toThrow(/Unknown workflow template "kanban"/);
  });

  it("the core's workflow model holds none of the profiles' vocabulary", () => {
    const text = readFileSync(resolve(__dirname, '../../src/core/model/workflow.ts'), 'utf8').replace(/\/\*\*[\s\S]*?\*\//g, '');
    for (const word of ['01-upcoming', 'human_needs_to_review', "'new'", 'planning']) expect(text).not.toContain(word);
  });
});
