/** Rules that used to exist in several copies, each now defined once: findStatus, flag values, the REST success status. */
import { describe, expect, it } from 'vitest';
import { CairnError } from '../../src/core/errors.js';
import { flagValue, truthy } from '../../src/core/rules/flag-value.js';
import { findStatus } from '../../src/core/rules/find-status.js';
import { templateStatuses } from '../../src/core/model/workflow.js';
import { successStatus } from '../../src/http/rest-conventions.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { OPS } from '../../src/ops/index.js';

describe('findStatus (one matcher for tasks, filters, releases and workflow edits)', () => {
  it.each([['todo'], [' todo '], ['TODO'], ['In_Progress']])('finds %j', (name) => {
    expect(findStatus(templateStatuses('default'), name, 'API').name).toBe(name.trim().toLowerCase());
  });
  it('refuses an unknown name with INVALID_STATUS listing the workflow', () => {
    let e: unknown;
    try {
      findStatus(templateStatuses('default'), 'doing', 'API');
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(CairnError);
    expect((e as CairnError).code).toBe('INVALID_STATUS');
    expect((e as CairnError).message).toMatch(/todo \(todo\)/);
  });
});

describe('flag values (CAIRN_READ_ONLY, ?readOnly, REST boolean query parameters)', () => {
  it.each([
    ['', true],
    ['1', true],
    ['true', true],
    [' YES ', true],
    ['on', true],
    ['0', false],
    ['false', false],
    ['No', false],
    ['off', false],
    ['maybe', undefined],
    ['2', undefined],
  ] as const)('%j → %s', (text, want) => {
    expect(flagValue(text)).toBe(want);
    expect(truthy(text)).toBe(want === true);
  });
  it('booleans and unset', () => {
    expect(truthy(true)).toBe(true);
    expect(truthy(false)).toBe(false);
    expect(truthy(undefined)).toBe(false);
  });
});

describe('REST success status', () => {
  it('the route and the OpenAPI entry agree for every op', () => {
    const doc = buildOpenApi('0') as { paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>> };
    for (const op of OPS) {
      const entry = Object.values(doc.paths)
        .flatMap((p) => Object.values(p))
        .find((o) => o.operationId === op.name);
      expect(entry, op.name).toBeDefined();
      expect(Object.keys(entry!.responses), op.name).toContain(String(successStatus(op)));
      expect(Object.keys(entry!.responses), op.name).not.toContain(String(successStatus(op) === 201 ? 200 : 201));
    }
  });
});

describe("profiles' status names come from their templates", () => {
  it('castle states, tx statuses and devplanner lanes are the template names, in order; the importer maps lanes by the template', async () => {
    await import('../../src/profiles/templates.js');
    const { templateCategories, templateStatusNames } = await import('../../src/core/model/workflow.js');
    const { CASTLE_STATES: castle } = await import('../../src/profiles/castle/template.js');
    const { TX_STATUSES } = await import('../../src/profiles/tx/template.js');
    const { DEVPLANNER_LANES } = await import('../../src/profiles/devplanner/template.js');
    const names = (t: 'castle' | 'tx' | 'devplanner') => templateStatuses(t).map((s) => s.name);
    expect([...castle]).toEqual(names('castle'));
    expect([...templateStatusNames('castle')]).toEqual(names('castle'));
    expect([...TX_STATUSES]).toEqual(names('tx'));
    expect([...DEVPLANNER_LANES]).toEqual(names('devplanner'));
    expect(templateCategories('devplanner')).toEqual(Object.fromEntries(templateStatuses('devplanner').map((s) => [s.name, s.category])));
    const { LaneArg } = await import('../../src/profiles/devplanner/schemas.js');
    expect(LaneArg.options).toEqual(names('devplanner'));
  });
});
