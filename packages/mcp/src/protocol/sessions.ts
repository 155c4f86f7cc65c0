// The MCP sessions of one endpoint: ids handed out by `initialize`, each bound to the credential
// that opened it (a digest, never the credential), closed by DELETE or after being idle.

/** One open session. */
export interface Session {
  readonly id: string;
  /** SHA-256 (hex) of what `bindSessionTo` read from the request that opened it. */
  readonly binding: string;
  /** The protocol revision agreed at initialize. */
  readonly protocolVersion: string;
  lastUsed: number;
}

/** A bounded map of sessions, oldest use first (a used session moves to the end). */
export class Sessions {
  readonly #open = new Map<string, Session>();

  constructor(
    private readonly max: number,
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many sessions are open (idle ones not yet swept included). */
  get size(): number {
    return this.#open.size;
  }

  /** Opens a session for `binding`; `undefined` when `max` sessions are open and in use. */
  open(binding: string, protocolVersion: string): Session | undefined {
    if (this.#open.size >= this.max) this.#sweep();
    if (this.#open.size >= this.max) return undefined;
    const session: Session = { id: crypto.randomUUID(), binding, protocolVersion, lastUsed: this.now() };
    this.#open.set(session.id, session);
    return session;
  }

  /** The session `id` if it is open and was opened with `binding` (else `undefined`: unknown to this caller). */
  use(id: string, binding: string): Session | undefined {
    const session = this.#open.get(id);
    if (session === undefined) return undefined;
    const now = this.now();
    if (now - session.lastUsed > this.idleMs) {
      this.#open.delete(id);
      return undefined;
    }
    if (session.binding !== binding) return undefined;
    session.lastUsed = now;
    this.#open.delete(id);
    this.#open.set(id, session);
    return session;
  }

  /** Closes the session `id` if `binding` opened it; true when it did. */
  close(id: string, binding: string): boolean {
    if (this.use(id, binding) === undefined) return false;
    return this.#open.delete(id);
  }

  /** Closes every session (at shutdown). */
  clear(): void {
    this.#open.clear();
  }

  /** Drops idle sessions: they sit at the front (least recently used first). */
  #sweep(): void {
    const now = this.now();
    for (const [id, session] of this.#open) {
      if (now - session.lastUsed <= this.idleMs) return;
      this.#open.delete(id);
    }
  }
}

type HashFn = (value: string) => string;

/**
 * node:crypto's one-shot hash where the runtime has it (Node, Bun, Deno, workerd with
 * nodejs_compat): synchronous, ~1 µs. Web Crypto's `subtle.digest` answers through a job queue
 * (a promise and a thread hop per call: 9% of a tool call's CPU on Node), so it is the fallback.
 */
const nodeHash: HashFn | undefined = (() => {
  type NodeCrypto = { createHash(name: string): { update(v: string): { digest(e: 'hex'): string } } };
  const load = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    ?.getBuiltinModule;
  const crypto = typeof load === 'function' ? (load('node:crypto') as NodeCrypto | undefined) : undefined;
  return crypto === undefined
    ? undefined
    : (value) => crypto.createHash('sha256').update(value).digest('hex');
})();

/** SHA-256 of `value` as hex (node:crypto when the runtime has it, else Web Crypto). */
export function digest(value: string): string | Promise<string> {
  return nodeHash === undefined ? subtleDigest(value) : nodeHash(value);
}

/** The Web Crypto path (runtimes without node:crypto). */
export async function subtleDigest(value: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value)));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
