/**
 * The one redactor. Every output path (console, reports, transcripts, error messages) passes its
 * text through `redact()`.
 *
 * Secrets are registered by value as soon as tack knows them: configured secrets at start, every
 * token the target returns when its response is read, every tampered secret before it is sent.
 * Each value gets a stable placeholder (`<api-token#3>`) so a reader can still follow one token
 * through a rotation chain. Encoded forms (URL-encoded, JSON-escaped) are registered with it.
 *
 * On top of values, anything that looks like a credential by position (an Authorization header,
 * a secret header, a `*token*` / `*secret*` JSON member or form field) is replaced even if it was
 * never registered.
 *
 * Replacement is one left-to-right pass: placeholders already in the text are kept as they are
 * (redacting twice changes nothing). A short value (a secret cut to its first characters by a
 * tampering check) is replaced only where it is the whole text (a header value, a JSON string) or
 * quoted (`"abc"` in a counterexample), so it cannot shred ordinary words and markup.
 */

export type SecretKind =
  | 'partner-secret'
  | 'partner-secret-variant'
  | 'hook-token'
  | 'api-token'
  | 'access-token'
  | 'refresh-token'
  | 'reset-url'
  | 'password'
  | 'auth-code'
  | 'secret';

/** Names of JSON members, form fields and headers whose values are always secret. */
const SECRET_NAME = /(token|secret|password|authorization|api[-_]?key|cookie)/i;
/** Names matched by SECRET_NAME that are not secret: keep them readable. */
const PUBLIC_NAMES = new Set(['token_type', 'tokentype', 'token_type_hint', 'expires_in', 'expiresin', 'www-authenticate']);

/** Values shorter than this are replaced only as the whole text or between quotes. */
const SHORT = 8;
/**
 * The user's own configured secrets (partner secrets, hook token, password) are replaced anywhere from this
 * length on: a 6-character partner secret echoed in an error page must not survive because it is
 * short. Below it, they are treated like any short value (replacing 1-3 characters everywhere would
 * shred every word).
 */
const SHORT_CONFIGURED = 4;
const CONFIGURED = /^<(?:partner-secret|hook-token|password)#/;
/** A placeholder this redactor writes; kept verbatim when text is redacted again. */
const PLACEHOLDER = '<(?:[a-z-]+#\\d+|redacted)>';

/**
 * How a registered value was derived from a known one, told without revealing either: the value is
 * `base.slice(0, keep) + insert + base.slice(resume)`, or `base` with every letter's case flipped.
 * Used to write reproducible commands (`${TACK_PARTNER_SECRET:0:5}`) for tampered secrets.
 */
export type SecretEdit =
  | { readonly kind: 'edited'; readonly keep: number; readonly insert: string; readonly resume: number }
  | { readonly kind: 'case-flipped' };

export class Redactor {
  private readonly placeholders = new Map<string, string>();
  private readonly counters = new Map<SecretKind, number>();
  private readonly extraSecretHeaders = new Set<string>();
  /** Placeholder to the value first registered under it (for `editOf`; never printed). */
  private readonly originals = new Map<string, string>();
  /** One alternation of every registered value, longest first, rebuilt lazily. */
  private pattern: RegExp | undefined;

  /** Header names (any case) whose values are always replaced, e.g. the partner secret header. */
  addSecretHeader(name: string): void {
    this.extraSecretHeaders.add(name.toLowerCase());
  }

  /** Registers a secret value; returns its placeholder. Registering again returns the same one. */
  register(kind: SecretKind, value: string | undefined | null): string | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    const known = this.placeholders.get(value);
    if (known) return known;
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    const placeholder = `<${kind}#${n}>`;
    this.originals.set(placeholder, value);
    for (const variant of variantsOf(value)) {
      if (!this.placeholders.has(variant)) this.placeholders.set(variant, placeholder);
    }
    this.pattern = undefined;
    return placeholder;
  }

  /**
   * How the value behind `placeholder` differs from `base`, when it is a small edit of it (a cut,
   * or at most 8 characters inserted next to kept ones) or `base` in the other letter case;
   * otherwise undefined.
   */
  editOf(placeholder: string, base: string): SecretEdit | undefined {
    const value = this.originals.get(placeholder);
    if (value === undefined || base === '' || value === base) return undefined;
    if (flipCase(base) === value) return { kind: 'case-flipped' };
    let keep = 0;
    while (keep < value.length && keep < base.length && value[keep] === base[keep]) keep++;
    let tail = 0;
    while (tail < value.length - keep && tail < base.length - keep && value[value.length - 1 - tail] === base[base.length - 1 - tail]) tail++;
    const insert = value.slice(keep, value.length - tail);
    // Only `insert` is value text; it must be short and must edit `base`, not replace it.
    if (insert.length > 8 || (insert !== '' && keep + tail === 0)) return undefined;
    return { kind: 'edited', keep, insert, resume: base.length - tail };
  }

  placeholderOf(value: string): string | undefined {
    return this.placeholders.get(value);
  }

  isSecretHeader(name: string): boolean {
    const lower = name.toLowerCase();
    if (PUBLIC_NAMES.has(lower)) return false;
    return this.extraSecretHeaders.has(lower) || SECRET_NAME.test(lower);
  }

  /** Replaces every registered secret in free text. */
  redact(text: string): string {
    if (text === '' || this.placeholders.size === 0) return text;
    const whole = this.placeholders.get(text);
    if (whole) return whole;
    this.pattern ??= this.buildPattern();
    return text.replace(this.pattern, (match: string, kept: string | undefined) => kept ?? this.placeholders.get(match) ?? match);
  }

  private buildPattern(): RegExp {
    const values = [...this.placeholders.keys()].sort((a, b) => b.length - a.length);
    const alternatives = values.map((v) => {
      const escaped = v.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
      const short = CONFIGURED.test(this.placeholders.get(v) ?? '') ? SHORT_CONFIGURED : SHORT;
      return v.length < short ? `(?<=["'])${escaped}(?=["'])` : escaped;
    });
    return new RegExp(`(${PLACEHOLDER})|${alternatives.join('|')}`, 'g');
  }

  /** Redacts header values: registered secrets by value, credential headers whole. */
  redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, raw] of Object.entries(headers)) {
      if (raw === undefined) continue;
      const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
      out[name] = this.isSecretHeader(name) ? this.redactCredential(value) : this.redact(value);
    }
    return out;
  }

  /**
   * Redacts a body: JSON members and form fields by name, then every registered value. A body that
   * looks like JSON is read as JSON whatever its content type (tack reads tokens from it so too), so
   * escapes such as `\/` or `\u002B` cannot hide a token from the value scan.
   */
  redactBody(body: string, contentType: string | undefined): string {
    const type = (contentType ?? '').toLowerCase();
    if (type.includes('json') || /^\s*[[{]/.test(body)) {
      try {
        return this.redact(JSON.stringify(this.redactJson(JSON.parse(body))));
      } catch {
        /* not JSON after all: fall through to text */
      }
    }
    if (type.includes('x-www-form-urlencoded')) {
      const params = new URLSearchParams(body);
      const out: string[] = [];
      for (const [k, v] of params) {
        const value = this.isSecretField(k) ? this.redactCredential(v) : this.redact(v);
        out.push(`${encodeURIComponent(k)}=${value}`);
      }
      return this.redact(out.join('&'));
    }
    return this.redact(body);
  }

  /** Redacts a parsed JSON value (deep copy). */
  redactJson(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.redactJson(v));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        out[k] = typeof v === 'string' && this.isSecretField(k) ? this.redactCredential(v) : this.redactJson(v);
      }
      return out;
    }
    return typeof value === 'string' ? this.redact(value) : value;
  }

  private isSecretField(name: string): boolean {
    const lower = name.toLowerCase();
    return !PUBLIC_NAMES.has(lower) && SECRET_NAME.test(lower);
  }

  /** A credential: keep a scheme word ("Bearer") and the placeholder, never the value. */
  private redactCredential(value: string): string {
    const m = /^(Bearer|Basic)\s+(.*)$/i.exec(value);
    if (m) return `${m[1]} ${this.placeholders.get(m[2]!) ?? (m[2] === '' ? '' : this.redact(m[2]!) === m[2] ? '<redacted>' : this.redact(m[2]!))}`;
    if (value === '') return value;
    const known = this.placeholders.get(value);
    if (known) return known;
    const redacted = this.redact(value);
    return redacted === value ? '<redacted>' : redacted;
  }
}

function flipCase(s: string): string {
  return [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

function variantsOf(value: string): string[] {
  const variants = new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
  // application/x-www-form-urlencoded writes spaces as '+'.
  variants.add(new URLSearchParams({ v: value }).toString().slice(2));
  return [...variants].filter((v) => v !== '');
}
