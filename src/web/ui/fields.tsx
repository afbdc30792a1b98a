/**
 * Editable fields of the card panel. A text field remembers the card version it started editing
 * from and saves with that as expectedVersion, so a change made meanwhile by someone else is a
 * conflict, never overwritten.
 */
import { useEffect, useState } from 'preact/hooks';
import { renderMarkdown } from '../lib/markdown.js';

export type Save = (value: string, baseVersion: number) => Promise<boolean>;

export function EditText({
  id,
  label,
  value,
  version,
  onSave,
  maxLength,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  version: number;
  onSave: Save;
  maxLength?: number;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [base, setBase] = useState(version);
  const shown = draft ?? value;
  const commit = async () => {
    if (draft === null || draft === value) return setDraft(null);
    await onSave(draft, base);
    // Saved or refused (a conflict shows the fresh card): either way show what the server has.
    setDraft(null);
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        value={shown}
        maxLength={maxLength}
        placeholder={placeholder}
        onInput={(e) => {
          if (draft === null) setBase(version);
          setDraft((e.currentTarget as HTMLInputElement).value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void commit();
          if (e.key === 'Escape' && draft !== null) {
            e.stopPropagation();
            setDraft(null);
          }
        }}
        onBlur={() => void commit()}
      />
    </div>
  );
}

export function EditSelect({ id, label, value, options, onChange }: { id: string; label: string; value: string; options: ReadonlyArray<readonly [string, string]>; onChange(v: string): void }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The markdown description: write or preview; saved with the version the edit started from. */
export function Description({ value, version, onSave }: { value: string; version: number; onSave: Save }) {
  const [tab, setTab] = useState<'preview' | 'write'>('preview');
  const [draft, setDraft] = useState<string | null>(null);
  const [base, setBase] = useState(version);
  useEffect(() => {
    if (draft === null) setBase(version);
  }, [version]);
  const text = draft ?? value;
  return (
    <section class="section" aria-labelledby="desc-h">
      <div class="section-head">
        <h3 id="desc-h">Description</h3>
        <div class="tabs" role="tablist" aria-label="Description mode">
          {(['write', 'preview'] as const).map((t) => (
            <button key={t} role="tab" id={`desc-tab-${t}`} aria-selected={tab === t} aria-controls="desc-body" class="tab" onClick={() => setTab(t)}>
              {t === 'write' ? 'Write' : 'Preview'}
            </button>
          ))}
        </div>
      </div>
      <div id="desc-body" role="tabpanel" aria-labelledby={`desc-tab-${tab}`}>
        {tab === 'write' ? (
          <>
            <textarea
              aria-label="Description (markdown)"
              rows={8}
              value={text}
              onInput={(e) => {
                if (draft === null) setBase(version);
                setDraft((e.currentTarget as HTMLTextAreaElement).value);
              }}
            />
            <div class="row">
              <button
                class="primary"
                disabled={draft === null || draft === value}
                onClick={async () => {
                  await onSave(draft ?? value, base);
                  setDraft(null);
                  setTab('preview');
                }}
              >
                Save description
              </button>
              {draft !== null && (
                <button class="secondary" onClick={() => setDraft(null)}>
                  Discard
                </button>
              )}
            </div>
          </>
        ) : text.trim() ? (
          <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />
        ) : (
          <p class="muted">No description.</p>
        )}
      </div>
    </section>
  );
}

export function ago(iso: string): string {
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return `${Math.max(0, s)} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

/** "4:05" until a lease ends; "expired" after. */
export function countdown(iso: string): string {
  const s = Math.floor((Date.parse(iso) - Date.now()) / 1000);
  if (s <= 0) return 'expired';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
