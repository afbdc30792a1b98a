/**
 * Who is calling a server: a bearer secret checked against the live tokens. The one read of the
 * token table besides the token ops, kept here so no surface reads the store itself.
 */
import type { Context } from '../core/context.js';
import { hashSecret, liveTokensByHash, touchToken, type LiveToken } from '../core/services/tokens.js';

export type { LiveToken };

/** Live tokens by hash, reloaded only when the store reports a commit (by any process), so revocation applies at once. */
export class TokenCache {
  #token: string | undefined;
  #tokens: Map<string, LiveToken> = new Map();
  #loading: Promise<Map<string, LiveToken>> | undefined;

  constructor(private readonly ctx: Context) {}

  async get(): Promise<Map<string, LiveToken>> {
    const now = await this.ctx.store.changeToken();
    if (now === this.#token) return this.#tokens;
    this.#loading ??= liveTokensByHash(this.ctx).then(
      (m) => {
        this.#tokens = m;
        this.#token = now;
        this.#loading = undefined;
        return m;
      },
      (err) => {
        this.#loading = undefined;
        throw err;
      },
    );
    return this.#loading;
  }

  /** The live token whose secret this is, if any. */
  async find(secret: string): Promise<LiveToken | undefined> {
    return (await this.get()).get(hashSecret(secret));
  }

  /** Records that a token was used (advisory: the caller throttles it). */
  touch(id: string): Promise<void> {
    return touchToken(this.ctx, id);
  }
}
