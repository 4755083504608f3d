/**
 * The one redactor. Every output path (console, reports, transcripts, error messages) passes its
 * text through `redact()`.
 *
 * Secrets are registered by value as soon as tack knows them: configured secrets at start, every
 * token the target returns when its response is read, every tampered secret before it is sent.
 * Each value gets a stable placeholder (`<api-token#3>`) so a reader can still follow one token
 * through a rotation chain. Its encoded forms (`secretForms`: URL-encoded, form-encoded,
 * JSON-escaped, base64, base64url, hex) are registered with it, and a value printed across lines
 * is found too. `secretForms`, `joinedLines` and `isSecretMember` are the one definition of what a
 * secret is and how it may be written: `tack client`'s judge of logged secrets uses them as well.
 *
 * On top of values, anything that looks like a credential by position (an Authorization header,
 * a secret header, a `*token*` / `*secret*` JSON member or form field) is replaced even if it was
 * never registered; a member that names a place (`token_endpoint`) or holds a URL is no secret.
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
/** Names of places and properties, not values (discovery's `token_endpoint`, `..._supported`). */
const PUBLIC_SUFFIX = /(endpoint|supported)$/i;
/** A URL is an address, never a token or a secret. */
const URL_VALUE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A JSON member (or form field) that holds a secret: named like one, and not an address. */
export function isSecretMember(name: string, value: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAME.test(lower) && !PUBLIC_NAMES.has(lower) && !PUBLIC_SUFFIX.test(lower) && !URL_VALUE.test(value);
}

/** String values of the members of a parsed JSON value that hold secrets, at any depth, with their names. */
export function secretMembers(value: unknown): { readonly name: string; readonly value: string }[] {
  if (Array.isArray(value)) return value.flatMap(secretMembers);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, v]) => {
    if (typeof v !== 'string') return secretMembers(v);
    return isSecretMember(name, v) ? [{ name, value: v }] : [];
  });
}

/** Below this length a value gets no base64 or hex forms: they would be found by chance. */
const ENCODED_MIN = 8;

/**
 * The forms a secret can be written in: as it is, URL-encoded, form-encoded, JSON-escaped, hex,
 * and base64 and base64url, alone or inside a longer base64 text (`Basic` credentials, a token in
 * an encoded JSON object): for each of the three byte offsets, the characters that depend on the
 * value alone.
 */
export function secretForms(value: string): string[] {
  const forms = new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1)]);
  if (value.length >= ENCODED_MIN) {
    const bytes = Buffer.from(value, 'utf8');
    forms.add(bytes.toString('hex'));
    for (const offset of [0, 1, 2]) {
      const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
      const core = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
      forms.add(core);
      forms.add(core.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  return [...forms].filter((form) => form !== '');
}

/** Line breaks, and the spaces around them. */
const LINE_BREAK = /[ \t]*\r?\n[ \t]*/g;

/** `text` with its line breaks taken out: a value printed across lines (wrapped, cut in two) reads whole in it. */
export function joinedLines(text: string): string {
  return text.replace(LINE_BREAK, '');
}

/**
 * Words that look like tokens: 16 or more characters of a token alphabet, with a letter and a digit.
 * Output tack did not write (a client's) may hold tokens tack never saw, or pieces of them.
 */
const TOKEN_LIKE = /[A-Za-z0-9_\-.~+=]{16,}/g;

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
    for (const variant of secretForms(value)) {
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

  /** Replaces every registered secret in free text, in every form, also where it runs across lines. */
  redact(text: string): string {
    if (text === '' || this.placeholders.size === 0) return text;
    const whole = this.placeholders.get(text);
    if (whole) return whole;
    this.pattern ??= this.buildPattern();
    const out = text.replace(this.pattern, (match: string, kept: string | undefined) => kept ?? this.placeholders.get(match) ?? match);
    return out.includes('\n') ? this.redactAcrossLines(out) : out;
  }

  /**
   * Output tack did not write (a client's stdout and stderr): every registered secret, then any word
   * still looking like a token (a piece of a secret, a token tack never saw) masked.
   */
  redactOutput(text: string): string {
    return this.redact(text).replace(TOKEN_LIKE, (word) => (/[A-Za-z]/.test(word) && /\d/.test(word) ? '<masked>' : word));
  }

  /** A registered value whose characters are spread over lines (`joinedLines`) is replaced where it stands. */
  private redactAcrossLines(text: string): string {
    const kept: number[] = [];
    let joined = '';
    let from = 0;
    for (const m of text.matchAll(LINE_BREAK)) {
      for (let i = from; i < m.index; i++) kept.push(i);
      joined += text.slice(from, m.index);
      from = m.index + m[0].length;
    }
    for (let i = from; i < text.length; i++) kept.push(i);
    joined += text.slice(from);
    const spans: { start: number; end: number; placeholder: string }[] = [];
    for (const m of joined.matchAll(this.pattern!)) {
      const placeholder = m[1] === undefined && m[0].length >= SHORT ? this.placeholders.get(m[0]) : undefined;
      if (placeholder === undefined) continue;
      const start = kept[m.index]!;
      const end = kept[m.index + m[0].length - 1]! + 1;
      if (text.slice(start, end).includes('\n')) spans.push({ start, end, placeholder });
    }
    let out = text;
    for (const span of spans.reverse()) out = out.slice(0, span.start) + span.placeholder + out.slice(span.end);
    return out;
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
        const value = isSecretMember(k, v) ? this.redactCredential(v) : this.redact(v);
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
        out[k] = typeof v === 'string' && isSecretMember(k, v) ? this.redactCredential(v) : this.redactJson(v);
      }
      return out;
    }
    return typeof value === 'string' ? this.redact(value) : value;
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
