/**
 * LIMIT and OFFSET values written into the statement's text instead of bound. SQLite (3.4x and
 * later) lets a bound LIMIT/OFFSET steer the plan, so binding any value to such a parameter expires
 * the statement and its next step parses and plans it again. better-sqlite3 binds on every run,
 * so every paged query (the ready queue, lists, events) would be compiled anew on each call, which
 * costs more than running it. As literals the values pick one cached statement per value; callers
 * use only a few values (page size, page size + 1).
 */

/** A statement's text cut at its parameters, and which parameters are LIMIT/OFFSET values. */
interface LimitShape {
  parts: string[];
  limits: Set<number>;
}

/** Finds the `?` parameters outside quotes, and those that follow LIMIT or OFFSET. */
function shapeOf(sql: string): LimitShape | null {
  const parts: string[] = [];
  const limits = new Set<number>();
  let start = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      const end = sql.indexOf(c, i + 1);
      if (end < 0) return null;
      i = end; // a doubled quote reads as two quoted runs, which is the same for finding parameters
    } else if (c === '?') {
      // Numbered parameters (?NNN) bind by number, not by position: leave such statements alone.
      if (/[0-9]/.test(sql[i + 1] ?? '')) return null;
      const before = sql.slice(start, i);
      if (/\b(limit|offset)\s*$/i.test(before)) limits.add(parts.length);
      parts.push(before);
      start = i + 1;
    }
  }
  if (limits.size === 0) return null;
  parts.push(sql.slice(start));
  return { parts, limits };
}

/** Per connection: each statement text is cut once. */
export class LimitInliner {
  readonly #shapes = new Map<string, LimitShape | null>();

  /**
   * The statement with its integer LIMIT/OFFSET values inlined, and the parameters left to bind.
   * Returns the input unchanged when it has none (or a value is not a plain integer).
   */
  inline<P>(sql: string, params: readonly P[]): { sql: string; params: readonly P[] } {
    let shape = this.#shapes.get(sql);
    if (shape === undefined) {
      shape = shapeOf(sql);
      // Statement texts come from the code, not from users, so they are few; the cap is a backstop.
      if (this.#shapes.size >= 2000) this.#shapes.clear();
      this.#shapes.set(sql, shape);
    }
    if (!shape || shape.parts.length - 1 !== params.length) return { sql, params };
    let text = shape.parts[0]!;
    const rest: P[] = [];
    for (let i = 0; i < params.length; i++) {
      const v = params[i] as unknown;
      if (shape.limits.has(i) && typeof v === 'number' && Number.isSafeInteger(v)) text += String(v);
      else {
        text += '?';
        rest.push(params[i]!);
      }
      text += shape.parts[i + 1]!;
    }
    return { sql: text, params: rest };
  }
}
