/** Search through the search API (title, labels, description, comments, checklist), with highlighted excerpts. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { renderExcerpt } from '../lib/markdown.js';
import type { BoardModel } from '../lib/model.js';
import type { SearchResult } from '../lib/types.js';

export function SearchBox({ model, onOpen }: { model: BoardModel; onOpen(id: string): void }) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<{ items: SearchResult[]; total: number } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const q = query.trim();
    if (!q) return setResults(null);
    const timer = setTimeout(() => {
      void model.api.get<{ results: SearchResult[]; total: number }>('/search', { query: q, project: model.project?.key, limit: 20 }).then(
        (r) => setResults({ items: r.results, total: r.total }),
        (err) => model.say('error', `Search failed: ${(err as Error).message}`),
      );
    }, 200);
    return () => clearTimeout(timer);
  }, [query, model.project?.key]);
  useEffect(() => {
    const close = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setResults(null);
    addEventListener('mousedown', close);
    return () => removeEventListener('mousedown', close);
  }, []);
  return (
    <div class="search" ref={box} role="search">
      <label for="search-input" class="sr-only">
        Search cards
      </label>
      <input
        id="search-input"
        type="search"
        placeholder="Search cards…"
        value={query}
        autoComplete="off"
        onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setQuery('');
        }}
      />
      {results && (
        <div class="search-results" aria-live="polite">
          <p class="muted">
            {results.total} {results.total === 1 ? 'match' : 'matches'}
            {results.total > results.items.length ? ` (first ${results.items.length})` : ''}
          </p>
          <ul class="plain-list">
            {results.items.map((r) => (
              <li key={r.task.id}>
                <button
                  class="search-hit"
                  onClick={() => {
                    setResults(null);
                    onOpen(r.task.id);
                  }}
                >
                  <span class="card-id">{r.task.id}</span> <strong>{r.task.title}</strong>{' '}
                  <span class="muted">
                    · {r.task.status} · in {r.matchedFields.join(', ')}
                  </span>
                  <span class="excerpt" dangerouslySetInnerHTML={{ __html: renderExcerpt(r.excerpt) }} />
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
