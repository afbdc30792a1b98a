/**
 * A form that also works where a sandbox blocks form submission (an MCP host's iframe has no
 * `allow-forms`, and then the browser fires no submit event at all): Enter in a text field and a
 * click on a submit button run `onSubmit` themselves, and the browser's own submission is cancelled.
 */
import type { ComponentChildren } from 'preact';

const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);

export function Form({ onSubmit, children, class: cls }: { onSubmit(form: HTMLFormElement): void; children: ComponentChildren; class?: string }) {
  const run = (e: Event) => {
    e.preventDefault();
    onSubmit(e.currentTarget as HTMLFormElement);
  };
  return (
    <form
      class={cls}
      onSubmit={run}
      onKeyDown={(e) => {
        const t = e.target;
        if (e.key === 'Enter' && !e.isComposing && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && t instanceof HTMLInputElement && TEXT_TYPES.has(t.type)) run(e);
      }}
      onClick={(e) => {
        const button = (e.target as HTMLElement).closest('button');
        if (button?.type === 'submit') run(e);
      }}
    >
      {children}
    </form>
  );
}
