/** The token prompt: shown when the server answers 401; the token is kept in the browser's localStorage. */
import { useEffect, useRef } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';

export function TokenPrompt({ model }: { model: BoardModel }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  if (!model.needToken) return null;
  return (
    <div class="modal-backdrop">
      <div class="modal" role="dialog" aria-modal="true" aria-labelledby="token-title" aria-describedby="token-why">
        <h2 id="token-title">API token needed</h2>
        <p id="token-why">
          {model.needToken.message} Create one with <code>cairn token create --name board --scope write</code> (or <code>--scope read</code> to only watch). It is kept in this browser's storage.
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void model.submitToken(input.current?.value ?? '');
          }}
        >
          <label for="token-input">Token</label>
          <input id="token-input" ref={input} type="password" autoComplete="off" placeholder="cairn_…" required />
          <button type="submit" class="primary">
            Connect
          </button>
        </form>
      </div>
    </div>
  );
}
