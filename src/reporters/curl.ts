/**
 * A bash command that sends a recorded request again. It is built from the *redacted* exchange:
 * every placeholder (`<partner-secret#1>`, `<access-token#4>`) becomes a shell variable the reader
 * sets (`${TACK_PARTNER_SECRET}`), so the command is safe to print and works when pasted. A
 * tampered secret becomes an edit of the variable (`${TACK_PARTNER_SECRET:0:5}`, `${TACK_PARTNER_SECRET~~}`)
 * so the exact tampered value is sent without ever being written down.
 */
import type { Redactor } from '../harness/redactor.js';
import type { Exchange } from '../harness/transcript.js';
import type { TargetConfig } from '../harness/target-config.js';
import { PATHS } from '../spec.js';
import type { ShellVariable } from './results-schema.js';

const PLACEHOLDER = /<(?:([a-z-]+)#\d+|redacted)>/g;

/** Headers the HTTP client sets itself; repeating them would only confuse curl. */
const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

/** The variable a reader sets for a placeholder of each kind that is no configured secret. */
export const GENERIC: Record<string, ShellVariable> = {
  'partner-secret': { name: 'TACK_PARTNER_SECRET', meaning: "the partner key's secret" },
  'partner-secret-variant': { name: 'TACK_WRONG_SECRET', meaning: 'a value that is not the partner secret' },
  'hook-token': { name: 'TACK_HOOK_TOKEN', meaning: 'the test hook token' },
  'api-token': { name: 'TACK_API_TOKEN', meaning: "a personal API token of a user of tenant A (the one tack used was a test user's)" },
  'access-token': { name: 'TACK_ACCESS_TOKEN', meaning: 'a fresh access token (exchange an API token, or mint one with the partner key)' },
  'refresh-token': { name: 'TACK_REFRESH_TOKEN', meaning: 'a partner refresh token from a mint call' },
  secret: { name: 'TACK_SECRET', meaning: 'the secret value the target returned' },
  redacted: { name: 'TACK_CREDENTIAL', meaning: 'the credential this request carried' },
};

/** Maps the placeholders of one run to shell expressions. */
export class ShellSecrets {
  private readonly known = new Map<string, ShellVariable>();
  private readonly bases: { readonly variable: ShellVariable; readonly value: string }[] = [];

  constructor(
    target: TargetConfig,
    private readonly redactor: Redactor,
  ) {
    const add = (value: string | undefined, variable: ShellVariable) => {
      if (value === undefined) return;
      const placeholder = redactor.placeholderOf(value);
      if (placeholder) this.known.set(placeholder, variable);
      if (variable.name.endsWith('PARTNER_SECRET')) this.bases.push({ variable, value });
    };
    add(target.partner?.secret, { name: 'TACK_PARTNER_SECRET', meaning: "tenant A's partner secret" });
    add(target.otherPartner?.secret, { name: 'TACK_OTHER_PARTNER_SECRET', meaning: "tenant B's partner secret" });
    add(target.hook?.token, { name: 'TACK_HOOK_TOKEN', meaning: 'the test hook token' });
  }

  /** A fresh scope for one command: distinct placeholders of one kind get distinct variables. */
  scope(aliases: Readonly<Record<string, string>> = {}): ShellScope {
    return new ShellScope(this, aliases);
  }

  /** The expression for a configured secret or an edit of one, when the placeholder is one. */
  configured(placeholder: string): { expr: string; variable: ShellVariable } | undefined {
    const variable = this.known.get(placeholder);
    if (variable) return { expr: `"\${${variable.name}}"`, variable };
    // Only tampered secrets are described as edits: an edit writes its inserted characters out, so
    // a token that happens to share a character with a secret must never be read as one.
    if (!placeholder.startsWith('<partner-secret-variant#')) return undefined;
    for (const base of this.bases) {
      const edit = this.redactor.editOf(placeholder, base.value);
      if (!edit) continue;
      const v = base.variable.name;
      if (edit.kind === 'case-flipped') return { expr: `"\${${v}~~}"`, variable: base.variable };
      const parts: string[] = [];
      if (edit.keep === base.value.length) parts.push(`"\${${v}}"`);
      else if (edit.keep > 0) parts.push(`"\${${v}:0:${edit.keep}}"`);
      if (edit.insert !== '') parts.push(singleQuoted(edit.insert));
      if (edit.resume < base.value.length) parts.push(`"\${${v}:${edit.resume}}"`);
      return { expr: parts.join(''), variable: base.variable };
    }
    return undefined;
  }
}

class ShellScope {
  private readonly assigned = new Map<string, ShellVariable>();
  readonly variables: ShellVariable[] = [];

  constructor(
    private readonly secrets: ShellSecrets,
    /** Placeholder kinds read as another kind here (a rotated refresh_token is an API token at the sign-in server). */
    private readonly aliases: Readonly<Record<string, string>>,
  ) {}

  /** Text with placeholders as a single shell word: quoted literals and `"${VAR}"` parts. */
  word(text: string): string {
    const parts: string[] = [];
    let last = 0;
    for (const m of text.matchAll(PLACEHOLDER)) {
      if (m.index > last) parts.push(singleQuoted(text.slice(last, m.index)));
      parts.push(this.expr(m[0], m[1] ?? 'redacted'));
      last = m.index + m[0].length;
    }
    if (last < text.length || parts.length === 0) parts.push(singleQuoted(text.slice(last)));
    return parts.join('');
  }

  private expr(placeholder: string, kind: string): string {
    const configured = this.secrets.configured(placeholder);
    if (configured) {
      this.use(configured.variable);
      return configured.expr;
    }
    let variable = this.assigned.get(placeholder);
    if (!variable) {
      const generic = GENERIC[this.aliases[kind] ?? kind] ?? GENERIC.secret!;
      const sameKind = [...this.assigned.values()].filter((v) => v.name === generic.name || v.name.startsWith(`${generic.name}_`)).length;
      variable = sameKind === 0 ? generic : { name: `${generic.name}_${sameKind + 1}`, meaning: `${generic.meaning} (a different one)` };
      this.assigned.set(placeholder, variable);
    }
    this.use(variable);
    return `"\${${variable.name}}"`;
  }

  private use(variable: ShellVariable): void {
    if (!this.variables.some((v) => v.name === variable.name)) this.variables.push(variable);
  }
}

/** The curl command for one redacted exchange. */
export function curlOf(exchange: Exchange, secrets: ShellSecrets): { curl: string; variables: readonly ShellVariable[] } {
  const { method, url, headers, body } = exchange.request;
  // At the sign-in server (spec §4.2 paths) every refresh token sent is a personal API token: the
  // exchange's refresh_token replaces the stored API token (§2).
  const scope = secrets.scope(url.includes(PATHS.exchange) || url.includes(PATHS.revoke) ? { 'refresh-token': 'api-token' } : {});
  const lines: string[] = [`curl -sS -i${method === 'GET' ? '' : method === 'HEAD' ? ' --head' : ` -X ${method}`} ${scope.word(url)}`];
  let contentType = '';
  for (const [name, value] of Object.entries(headers)) {
    if (SKIPPED_HEADERS.has(name.toLowerCase())) continue;
    if (name.toLowerCase() === 'content-type') contentType = value.toLowerCase();
    lines.push(`-H ${scope.word(`${name}: ${value}`)}`);
  }
  if (body !== undefined && body !== '') {
    if (contentType.includes('x-www-form-urlencoded')) {
      // The redacted form keeps names encoded and shows values decoded; curl encodes each value again.
      for (const pair of body.split('&')) {
        const eq = pair.indexOf('=');
        const name = eq < 0 ? pair : pair.slice(0, eq);
        const value = eq < 0 ? '' : pair.slice(eq + 1);
        lines.push(`--data-urlencode ${scope.word(`${name}=${value}`)}`);
      }
    } else {
      lines.push(`--data-binary ${scope.word(body)}`);
    }
  }
  return { curl: lines.join(' \\\n  '), variables: scope.variables };
}

export function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
