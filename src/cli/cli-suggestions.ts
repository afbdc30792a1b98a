/** Rewrites the ops' tool-call suggestions (`get_task {id: "API-1"}`) as the CLI commands that do the same (`cairn show API-1`). */
import { suggestedCall } from '../ops/suggestion-call.js';
import { BINDINGS, type Binding } from './bindings.js';
import { kebab } from './schema-flags.js';

const shellWord = (v: string): string => (/^[\w.:/@<>-]+$/.test(v) && !/[<>]/.test(v) ? v : `"${v.replace(/"/g, '\\"')}"`);

function asCommand(b: Binding, args: Array<[string, string | undefined]>): string {
  const positional = (b.args ?? []).map((a) => a.replace(/^[<[]|\.\.\.|[>\]]$/g, ''));
  const words = [`cairn ${b.command}`];
  for (const name of positional) {
    const value = args.find(([k]) => k === name)?.[1];
    words.push(value === undefined ? `<${name}>` : shellWord(value));
  }
  for (const [k, v] of args) {
    if (positional.includes(k)) continue;
    const flag = `--${b.flags?.[k] ?? kebab(k)}`;
    words.push(v === undefined || v === 'true' ? flag : `${flag} ${shellWord(v)}`);
  }
  return words.join(' ');
}

/** One suggestion in CLI terms; text that is not a tool call is returned unchanged. */
export function cliSuggestion(text: string): string {
  const call = suggestedCall(text);
  const b = call && BINDINGS.find((x) => x.op === call.op);
  if (!call || !b) return text;
  return `${asCommand(b, call.args)}${call.rest}`;
}
