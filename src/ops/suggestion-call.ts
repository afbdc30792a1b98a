/**
 * The ops phrase suggestions as tool calls (`get_task {id: "API-1"} to see it`). Each surface shows
 * them in its own terms (the CLI as commands, REST as routes); this reads the call out of the text.
 */
const CALL = /^([a-z]+_[a-z_]+)(?:\s*\{([^}]*)\})?(.*)$/s;
const PAIR = /(\w+)(?:\s*:\s*("(?:[^"\\]|\\.)*"|[^,]+))?/g;

export interface SuggestedCall {
  op: string;
  /** Arguments in the order written; a bare name (`{query}`) has no value. */
  args: Array<[string, string | undefined]>;
  /** The words after the call (" to see it"). */
  rest: string;
}

/** The call a suggestion starts with, or undefined when it is plain text. */
export function suggestedCall(text: string): SuggestedCall | undefined {
  const m = CALL.exec(text);
  if (!m) return undefined;
  const args = m[2] ? [...m[2].matchAll(PAIR)].map((p): [string, string | undefined] => [p[1]!, p[2] === undefined ? undefined : p[2].trim().replace(/^"(.*)"$/s, '$1')]) : [];
  return { op: m[1]!, args, rest: m[3] ?? '' };
}
