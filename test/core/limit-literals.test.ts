/**
 * LIMIT/OFFSET values become literals (a bound one makes SQLite compile the statement again on every
 * run); every other parameter stays bound, and quoted text is never taken for a parameter.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LimitInliner } from '../../src/store/sqlite/limit-literals.js';

describe('LimitInliner', () => {
  it('inlines integer LIMIT and OFFSET values and keeps the other parameters in order', () => {
    const out = new LimitInliner().inline('select * from t where a = ? and b = ? order by a limit ? offset ?', ['x', 2, 11, 20]);
    expect(out).toEqual({ sql: 'select * from t where a = ? and b = 2 order by a limit 11 offset 20'.replace('b = 2', 'b = ?'), params: ['x', 2] });
  });

  it('inlines the limits of subqueries too', () => {
    const out = new LimitInliner().inline('select * from (select n from t where x > ? limit ?) union all select n from u LIMIT  ?', [1, 5, 6]);
    expect(out).toEqual({ sql: 'select * from (select n from t where x > ? limit 5) union all select n from u LIMIT  6', params: [1] });
  });

  it('leaves quoted question marks, non-integer values and numbered parameters alone', () => {
    const inliner = new LimitInliner();
    expect(inliner.inline(`select 'limit ?', "a?" from t where x = ? limit ?`, ['v', 3])).toEqual({ sql: `select 'limit ?', "a?" from t where x = ? limit 3`, params: ['v'] });
    expect(inliner.inline('select * from t limit ?', ['3'])).toEqual({ sql: 'select * from t limit ?', params: ['3'] });
    expect(inliner.inline('select * from t limit ?', [1.5])).toEqual({ sql: 'select * from t limit ?', params: [1.5] });
    expect(inliner.inline('select * from t where a = ?1 limit ?2', [1, 2])).toEqual({ sql: 'select * from t where a = ?1 limit ?2', params: [1, 2] });
    expect(inliner.inline('select * from t where a = ?', [1])).toEqual({ sql: 'select * from t where a = ?', params: [1] });
  });

  it('gives SQLite the same answer as the bound statement', () => {
    const db = new Database(':memory:');
    db.exec('create table t (n integer); with recursive s(n) as (select 1 union all select n + 1 from s where n < 50) insert into t select n from s');
    const sql = 'select n from t where n > ? order by n limit ? offset ?';
    const { sql: text, params } = new LimitInliner().inline(sql, [10, 3, 2]);
    expect(db.prepare(text).pluck().all(params)).toEqual(db.prepare(sql).pluck().all([10, 3, 2]));
    db.close();
  });
});
