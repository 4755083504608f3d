/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are bash, whose variables are written ${NAME}. */
/**
 * A bash script that replays the whole sequence behind a failed check, for failures that depend on
 * state (a token's history, the target's clock, a user made for the test): every request of the
 * test up to the one the check judged (for a property, of its failing run), preceded by the test
 * hook calls of the run that made what the sequence uses (a user, a business, read access).
 *
 * Built from the *redacted* transcript, so it holds no secret: a configured secret is its `$TACK_*`
 * variable; a token a response handed out is captured from that response into a shell variable
 * (`API_TOKEN_2=$(field refresh_token)`) and sent from there, so each rotation is followed; an id the
 * target gave (a business) likewise; a password tack made up is made up again; a token from outside
 * the sequence (the token file's) is a variable the reader sets. Addresses are `$TACK_BASE_URL` and
 * its siblings (defaults: the run's), and the run id in the names tack gave is a fresh one, so the
 * script can run again against the same target.
 *
 * What the replay makes it leaves revoked: every API token it obtains (from the test hook's
 * api-tokens call or the sign-in server) is revoked at the sign-in server when the script ends,
 * however it ends; `KEEP=1` keeps them alive for investigation, listed in a file of mode 0600.
 * (Users it creates stay, as tack's own runs leave theirs; partner refresh tokens have no revoke call.)
 *
 * Each step expects the status the failing run got (otherwise the target no longer behaves as it
 * did, and the script stops, exit 2); the last answer is compared with the failing one: its status,
 * its `error`, and the members and headers the check speaks of. Exit 1: the failure reproduces; 0:
 * the target answered otherwise this time.
 */
import type { Exchange } from '../harness/transcript.js';
import { GENERIC, type ShellSecrets, singleQuoted } from './curl.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { ShellVariable, ReportCheck } from './results-schema.js';
import { PATHS } from '../spec.js';

const PLACEHOLDER = /<(?:([a-z-]+)#\d+|redacted)>/g;
const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

export interface ReproduceInput {
  readonly rule: string;
  readonly check: ReportCheck;
  /** Every redacted exchange of the run, in order. */
  readonly exchanges: readonly Exchange[];
  readonly target: TargetConfig;
  readonly secrets: ShellSecrets;
  readonly runId: string;
}

/** The script, or undefined when the check has no exchange to replay. */
export function reproduceScript(input: ReproduceInput): string | undefined {
  const steps = sequenceOf(input);
  if (steps.length === 0) return undefined;
  return new ScriptWriter(input).write(steps);
}

/** The exchanges to replay: the test's (or the failing property run's) up to the judged one, after the hook calls they build on. */
function sequenceOf(input: Pick<ReproduceInput, 'check' | 'exchanges' | 'target'>): Exchange[] {
  const { check, exchanges, target } = input;
  if (check.exchanges.length === 0) return [];
  const last = Math.max(...check.exchanges);
  const first = check.from ?? Math.min(...exchanges.filter((e) => e.test === check.test).map((e) => e.seq));
  const own = exchanges.filter((e) => e.test === check.test && e.seq >= first && e.seq <= last && e.response !== undefined);
  const hook = target.hook?.url;
  if (hook === undefined) return own;
  // The hook calls before the sequence that made what it uses (their values, transitively).
  const used = new Set(own.flatMap((e) => valuesOf(e.request)));
  const earlier = exchanges.filter((e) => e.seq < first && e.request.url.startsWith(hook) && e.request.method !== 'GET' && e.response !== undefined);
  const needed = new Set<Exchange>();
  for (let i = earlier.length - 1; i >= 0; i--) {
    const e = earlier[i]!;
    if (madeBy(e).some((v) => used.has(v))) {
      needed.add(e);
      for (const v of valuesOf(e.request)) used.add(v);
    }
  }
  return [...earlier.filter((e) => needed.has(e)), ...own];
}

/** What a hook call made that later calls can use: the e-mail addresses it sent, the ids and tokens it answered. */
function madeBy(e: Exchange): string[] {
  const sent = jsonStrings(e.request.body ?? '').filter((v) => v.includes('@'));
  const answered = jsonMembers(e.response!.body)
    .filter(([k, v]) => /^(id|.*Id|.*_id)$/.test(k) || /^<[a-z-]+#\d+>$/.test(v))
    .map(([, v]) => v);
  return [...sent, ...answered];
}

/** The distinctive values a request carries: path segments, JSON strings, form values (at least 3 characters). */
function valuesOf(request: Exchange['request']): string[] {
  const out: string[] = [];
  try {
    for (const segment of new URL(request.url).pathname.split('/')) out.push(decodeURIComponent(segment));
  } catch {
    /* a URL with a placeholder for its host: no segments to learn from */
  }
  out.push(...jsonStrings(request.body ?? ''));
  if (request.body && !/^\s*[[{]/.test(request.body)) for (const [, v] of new URLSearchParams(request.body)) out.push(v);
  return out.filter((v) => v.length >= 3);
}

function jsonStrings(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(parsed);
  return out;
}

/** JSON members with string values, by key, anywhere in a body. */
function jsonMembers(text: string): [string, string][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const out: [string, string][] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, value] of Object.entries(v)) {
        if (typeof value === 'string') out.push([k, value]);
        else walk(value);
      }
    }
  };
  walk(parsed);
  return out;
}

/** Placeholder kinds a token the sign-in server or the hook's api-tokens call hands out may have: an API token, revoked when the replay ends. */
const API_TOKEN_KINDS = new Set(['api-token', 'refresh-token']);

const CAPTURED_KIND: Record<string, string> = {
  'api-token': 'API_TOKEN',
  'access-token': 'ACCESS_TOKEN',
  'refresh-token': 'REFRESH_TOKEN',
  'reset-url': 'RESET_URL',
  secret: 'SECRET',
  'auth-code': 'CODE',
};

class ScriptWriter {
  /** Placeholder or plain value → the shell expression that stands for it. */
  private readonly known = new Map<string, string>();
  private readonly inputs: ShellVariable[] = [];
  private readonly counters = new Map<string, number>();
  private readonly lines: string[] = [];
  /** How many API tokens the replay captures to revoke at its end. */
  private made = 0;

  constructor(private readonly input: ReproduceInput) {}

  write(all: readonly Exchange[]): string {
    const { check, rule, runId } = this.input;
    const race = raceOf(all, check);
    // A race: the sequence up to its last batch; the tokens that batch returns are tried afresh (`raceVerdict`).
    const steps = race === undefined ? all : all.slice(0, race.end);
    const body: string[] = [];
    for (let i = 0; i < steps.length; i++) {
      const e = steps[i]!;
      const lastStep = i === steps.length - 1;
      if (e.together !== undefined) {
        let n = 1;
        while (steps[i + n]?.together === e.together) n++;
        const batch = steps.slice(i, i + n);
        body.push(...this.batch(batch, i, steps.slice(i + batch.length), race !== undefined && i + batch.length === steps.length));
        i += batch.length - 1;
        continue;
      }
      // Once requests raced, what comes back may differ from the failing run's: from the first batch on, any status goes.
      const raced = race !== undefined && i >= race.firstBatch;
      body.push('', `# ${i + 1}. ${e.request.method} ${this.describe(e)}${lastStep ? ' (the request the failing check judged)' : ''}`);
      body.push(`call ${i + 1} ${lastStep || raced ? 'any' : String(e.response!.status)} ${this.curlArgs(e)}`);
      body.push(...this.captures(e, steps.slice(i + 1)));
    }
    const last = steps[steps.length - 1]!;
    // Before the header: a race's verdict lists the tokens it obtains to be revoked, which the header then says.
    const verdict = race === undefined ? this.verdict(last) : this.raceVerdict(race, all, steps);
    const header = [
      '#!/usr/bin/env bash',
      `# Reproduces ${rule} as tack's run ${runId} saw it fail:`,
      `#   ${oneLine(check.title)}: expected ${oneLine(check.expected)}, got ${oneLine(check.actual)}`,
      `# by replaying the ${steps.length} request(s) that led to it (test ${check.test}), the test hook's included.`,
      ...(race === undefined
        ? [
            '# Exit 1: the last answer is the one the failing run got (the failure reproduces); 0: the target answered',
            '# otherwise this time; 2: an earlier step answered otherwise than in the failing run (the target or its state differs).',
          ]
        : [
            '# The batch is sent again, its requests started together in the background. Exit 1: it again ends beyond what one',
            '# exchange at a time allows (the failure reproduces); 0: not this time (a race depends on timing: run it again);',
            '# 2: an earlier step answered otherwise than in the failing run (the target or its state differs).',
          ]),
      "# Needs bash and curl. Set the variables below (the addresses default to the run's).",
      ...(this.made > 0
        ? [
            '# The API tokens the replay obtains are revoked when it ends, however it ends; KEEP=1 keeps them alive for',
            '# investigation, listed in a file of mode 0600 (the script says where).',
          ]
        : []),
      'set -euo pipefail',
      ...this.addressLines(),
      ...this.inputs.map((v) => `: "\${${v.name}:?set ${v.name}: ${v.meaning.replace(/"/g, "'")}}"`),
      `RUN="replay$(date -u +%Y%m%d%H%M%S)-$RANDOM"   # stands for the run id (${runId}) in the names tack gave`,
      "headers=$(mktemp); status=''; body=''",
      'MADE=()   # the API tokens this replay obtained',
      '# At the end, however the script ends: the API tokens it obtained revoked (KEEP=1: kept, listed in a file of mode 0600).',
      'finish() {',
      '  rm -f "$headers"',
      '  [ "${#MADE[@]}" -gt 0 ] || return 0',
      '  if [ "${KEEP:-}" = 1 ]; then',
      '    local kept="replay-tokens-$RUN.txt"',
      '    (umask 077 && printf \'%s\\n\' "${MADE[@]}" >"$kept")',
      '    echo "KEEP=1: the ${#MADE[@]} API token(s) this replay obtained stay alive, listed in $kept; revoke them when done" >&2',
      '    return 0',
      '  fi',
      '  local token revoked=0',
      '  for token in "${MADE[@]}"; do',
      '    [ -n "$token" ] || continue',
      `    curl -sS -o /dev/null -X POST "\${TACK_IDENTITY_URL}"${singleQuoted(PATHS.revoke)} --data-urlencode "client_id=\${TACK_CLIENT_ID}" \\`,
      '      --data-urlencode token_type_hint=refresh_token --data-urlencode "token=$token" && revoked=$((revoked + 1)) || true',
      '  done',
      '  echo "revoked $revoked of the ${#MADE[@]} API token(s) this replay obtained (KEEP=1 keeps them)" >&2',
      '}',
      'trap finish EXIT',
      ...(race === undefined ? [] : BATCH_FUNCTIONS),
      '# call STEP STATUS CURL-ARGS...: one request; stops (exit 2) when STATUS is not "any" and the answer differs.',
      'call() {',
      '  local step=$1 want=$2 out; shift 2',
      '  out=$(curl -sS -D "$headers" -w \'\\n%{http_code}\' "$@") || { echo "step $step: the request failed" >&2; exit 2; }',
      "  status=${out##*$'\\n'}; body=${out%$'\\n'*}",
      '  if [ "$want" != any ] && [ "$status" != "$want" ]; then',
      '    echo "step $step answered $status where the failing run got $want: the target (or its state) differs" >&2; exit 2',
      '  fi',
      '}',
      '# field NAME: the string (or number) value of the JSON member NAME in the last answer; header NAME: that header.',
      'field() { sed -n \'s/.*"\'"$1"\'"[[:space:]]*:[[:space:]]*"\\{0,1\\}\\([^",}]*\\).*/\\1/p\' <<<"$body" | head -n 1; }',
      'header() { grep -i "^$1:" "$headers" | head -n 1 | cut -d: -f2- | tr -d \'\\r\' | sed \'s/^ *//\'; }',
    ];
    return `${[...header, ...body, '', ...verdict].join('\n')}\n`;
  }

  /** Requests the failing run sent at the same moment: started together in the background, then read one by one. */
  private batch(batch: readonly Exchange[], at: number, later: readonly Exchange[], judged: boolean): string[] {
    const first = at + 1;
    const out = [
      '',
      `# ${first}-${at + batch.length}. ${batch.length} requests sent at the same moment${judged ? ' (the batch the failing check judged)' : ''}: ` +
        `${batch[0]!.request.method} ${this.describe(batch[0]!)}`,
    ];
    for (const [j, e] of batch.entries()) out.push(`spawn ${first + j} ${this.curlArgs(e)}`);
    out.push('wait');
    if (judged) return out;
    for (const [j, e] of batch.entries()) out.push(`collect ${first + j}`, ...this.captures(e, later));
    return out;
  }

  /**
   * The verdict of a race: the tokens the last batch returned are each exchanged once more, with the
   * batch's own request, and the count the check held to a bound is compared with it.
   */
  private raceVerdict(race: Race, all: readonly Exchange[], steps: readonly Exchange[]): string[] {
    const { check } = this.input;
    this.made++; // the tokens the batch returns, and their successors, are revoked at the end (MADE)
    const batch = steps.slice(race.start);
    const template = batch[0]!;
    const sent = new URLSearchParams(template.request.body ?? '').get('refresh_token') ?? '';
    const before = this.known.get(sent);
    this.known.set(sent, '${next}');
    const again = this.curlArgs(template);
    if (before === undefined) this.known.delete(sent);
    else this.known.set(sent, before);
    const answers = batch.filter((e) => e.response?.status === 200 && /"refresh_token"/.test(e.response.body));
    const returned = new Set(answers.map((e) => /"refresh_token"\s*:\s*"([^"]*)"/.exec(e.response!.body)?.[1])).size;
    const alive = all.slice(race.end).filter((e) => e.response?.status === 200).length;
    const { bound, of } = race.counted;
    const counted = of === 'returned' ? '${#returned[@]}' : '$alive';
    const allowed = of === 'returned' ? `at most ${bound} different tokens returned` : `at most ${bound} of the tokens returned still exchanging`;
    return [
      '# Every token the batch returned, exchanged once more (the same request): does it still work?',
      'returned=()',
      `for step in $(seq ${race.start + 1} ${race.end}); do`,
      '  collect "$step"; t=$(field refresh_token); if [ -n "$t" ]; then returned+=("$t"); MADE+=("$t"); fi',
      'done',
      'rm -rf "$batch"',
      'answers=${#returned[@]}',
      "mapfile -t returned < <(printf '%s\\n' \"${returned[@]}\" | awk 'NF && !seen[$0]++')",
      'alive=0',
      `for next in "\${returned[@]}"; do`,
      `  call again any ${again}`,
      '  if [ "$status" = 200 ]; then alive=$((alive + 1)); MADE+=("$(field refresh_token)"); fi',
      'done',
      `echo "$answers of ${batch.length} answers of the batch returned a token, \${#returned[@]} different; $alive of those still exchanged ` +
        `(the failing run: ${answers.length}, ${returned} different, ${alive}; allowed: ${allowed})"`,
      `if [ "${counted}" -gt ${bound} ]; then`,
      `  echo ${singleQuoted(`REPRODUCED: ${oneLine(check.title)}`)}; exit 1`,
      'fi',
      "echo 'not reproduced: the target answered otherwise this time (a race depends on timing: run it again)'",
    ];
  }

  /** The comparison of the last answer with the failing run's. */
  private verdict(last: Exchange): string[] {
    const { check } = this.input;
    const res = last.response!;
    const conditions: string[] = [`[ "$status" = ${res.status} ]`];
    const said: string[] = [`${res.status}`];
    const text = `${check.title} ${check.expected} ${check.actual}`.toLowerCase();
    const members = new Map(jsonMembers(res.body));
    const error = members.get('error');
    if (error !== undefined) {
      conditions.push(`[ "$(field error)" = ${singleQuoted(error)} ]`);
      said.push(error);
    }
    for (const [name, value] of members) {
      if (name === 'error' || !mentions(text, name)) continue;
      const placeholder = /^<[a-z-]+#\d+>$/.test(value) ? this.known.get(value) : undefined;
      if (placeholder !== undefined) {
        conditions.push(`[ "$(field ${name})" = "${placeholder}" ]`);
        said.push(`${name} the same as sent`);
      } else if (!/</.test(value)) {
        conditions.push(`[ "$(field ${name})" = ${singleQuoted(value)} ]`);
        said.push(`${name} ${value}`);
      }
    }
    for (const name of ['access-control-allow-origin', 'cache-control', 'www-authenticate', 'content-type']) {
      if (!mentions(text, name)) continue;
      const value = Object.entries(res.headers).find(([k]) => k.toLowerCase() === name)?.[1];
      conditions.push(value === undefined ? `[ -z "$(header ${name})" ]` : `[ "$(header ${name})" = ${singleQuoted(value)} ]`);
      said.push(value === undefined ? `no ${name}` : `${name}: ${value}`);
    }
    const failing = oneLine(said.join(', '));
    return [
      `echo "the target answered $status; the failing run got ${escapeDouble(failing)} (expected ${escapeDouble(oneLine(check.expected))})"`,
      `if ${conditions.join(' && ')}; then`,
      `  echo ${singleQuoted(`REPRODUCED: ${oneLine(check.title)}`)}; exit 1`,
      'fi',
      "echo 'not reproduced: the target answered otherwise this time'",
    ];
  }

  /** The request as curl arguments, every placeholder a shell expression. */
  private curlArgs(e: Exchange): string {
    const { method, url, headers, body } = e.request;
    const args: string[] = [];
    if (method === 'HEAD') args.push('--head');
    else if (method !== 'GET') args.push('-X', method);
    args.push(this.word(url));
    let form = false;
    for (const [name, value] of Object.entries(headers)) {
      if (SKIPPED_HEADERS.has(name.toLowerCase())) continue;
      if (name.toLowerCase() === 'content-type' && value.toLowerCase().includes('x-www-form-urlencoded')) form = true;
      args.push('-H', this.word(`${name}: ${value}`));
    }
    if (body !== undefined && body !== '') {
      if (form) {
        for (const pair of body.split('&')) args.push('--data-urlencode', this.word(pair));
      } else args.push('--data-binary', this.word(body));
    }
    return args.join(' ');
  }

  /** Text as one shell word: literals quoted, placeholders, addresses, ids and the run id as variables. */
  private word(text: string): string {
    const parts: string[] = [];
    let literal = '';
    const flush = () => {
      if (literal !== '') parts.push(singleQuoted(literal));
      literal = '';
    };
    for (const t of this.tokenise(text)) {
      if (t.shell === undefined) literal += t.text;
      else {
        flush();
        parts.push(t.shell);
      }
    }
    flush();
    return parts.length === 0 ? "''" : parts.join('');
  }

  /** Splits text into literal pieces and shell fragments (quoted) for what the script knows or asks for. */
  private tokenise(text: string): { text: string; shell?: string }[] {
    const replacements: { at: number; length: number; shell: string }[] = [];
    for (const m of text.matchAll(PLACEHOLDER)) replacements.push({ at: m.index, length: m[0].length, shell: this.placeholder(m[0], m[1] ?? 'redacted') });
    const ids = [...this.known].filter(([k]) => !k.startsWith('<')).map(([k, v]): [string, string] => [k, `"${v}"`]);
    const fixed: [string, string][] = [...this.addresses(), ...ids];
    const lower = text.toLowerCase();
    for (const [value, shell] of [...fixed, [this.input.runId, '"${RUN}"'] as [string, string]]) {
      if (value === '') continue;
      for (let at = lower.indexOf(value.toLowerCase()); at >= 0; at = lower.indexOf(value.toLowerCase(), at + 1)) {
        if (!replacements.some((r) => at < r.at + r.length && r.at < at + value.length)) replacements.push({ at, length: value.length, shell });
      }
    }
    replacements.sort((a, b) => a.at - b.at);
    const out: { text: string; shell?: string }[] = [];
    let last = 0;
    for (const r of replacements) {
      if (r.at < last) continue;
      if (r.at > last) out.push({ text: text.slice(last, r.at) });
      out.push({ text: text.slice(r.at, r.at + r.length), shell: r.shell });
      last = r.at + r.length;
    }
    if (last < text.length) out.push({ text: text.slice(last) });
    return out;
  }

  /** A placeholder as a quoted shell fragment: captured, configured (or an edit of it), made up again, or asked for. */
  private placeholder(placeholder: string, kind: string): string {
    const known = this.known.get(placeholder);
    if (known !== undefined) return `"${known}"`;
    const configured = this.input.secrets.configured(placeholder);
    if (configured) {
      this.ask(configured.variable);
      return configured.expr;
    }
    let name: string;
    if (kind === 'password') {
      name = this.name('PASSWORD');
      this.lines.push(name);
    } else {
      const generic = GENERIC[kind] ?? GENERIC.secret!;
      const count = this.inputs.filter((v) => v.name === generic.name || v.name.startsWith(`${generic.name}_`)).length;
      const variable = count === 0 ? generic : { name: `${generic.name}_${count + 1}`, meaning: `${generic.meaning} (a different one)` };
      this.ask(variable);
      name = variable.name;
    }
    this.known.set(placeholder, `\${${name}}`);
    return `"\${${name}}"`;
  }

  private ask(variable: ShellVariable): void {
    if (!this.inputs.some((v) => v.name === variable.name)) this.inputs.push(variable);
  }

  /**
   * After a step: the tokens and ids its answer handed out that later steps send, into shell
   * variables; and every API token it handed out, sent later or not, listed to be revoked at the end.
   */
  private captures(e: Exchange, later: readonly Exchange[]): string[] {
    const out: string[] = [];
    const sentLater = later.map((l) => `${l.request.url}\n${Object.values(l.request.headers).join('\n')}\n${l.request.body ?? ''}`).join('\n');
    const source = this.handsOutApiTokens(e);
    for (const [key, value] of jsonMembers(e.response!.body)) {
      const kind = /^<([a-z-]+)#\d+>$/.exec(value)?.[1];
      const made = source && kind !== undefined && API_TOKEN_KINDS.has(kind) && e.response!.status < 300;
      if (this.known.has(value) || (!sentLater.includes(value) && !made)) continue;
      const isId = /^(id|.*Id|.*_id)$/.test(key) && value.length >= 2 && !value.includes('<');
      if (kind === undefined && !isId) continue;
      const name = this.name(kind !== undefined ? (CAPTURED_KIND[kind] ?? 'SECRET') : 'ID');
      out.push(made ? `${name}=$(field ${key}); MADE+=("$${name}")` : `${name}=$(field ${key})`);
      if (made) this.made++;
      this.known.set(value, `\${${name}}`);
    }
    return out;
  }

  /** The test hook's api-tokens call, or any call to the sign-in server: what they answer with is an API token. */
  private handsOutApiTokens(e: Exchange): boolean {
    const { identityUrl, hook } = this.input.target;
    const url = e.request.url;
    return url.startsWith(`${identityUrl}/`) || (hook !== undefined && url.startsWith(hook.url) && /\/api-tokens\/?$/.test(url.split('?')[0]!));
  }

  private name(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}_${n}`;
  }

  /** The target's addresses and client ids, each with its variable. */
  private addresses(): [string, string][] {
    const t = this.input.target;
    const out: [string, string][] = [
      [t.identityUrl, '"${TACK_IDENTITY_URL}"'],
      [t.baseUrl, '"${TACK_BASE_URL}"'],
    ];
    if (t.otherBaseUrl) out.push([t.otherBaseUrl, '"${TACK_OTHER_BASE_URL}"']);
    if (t.hook) out.push([t.hook.url, '"${TACK_HOOK_URL}"']);
    return out.sort((a, b) => b[0].length - a[0].length);
  }

  private addressLines(): string[] {
    const t = this.input.target;
    const lines = [`: "\${TACK_BASE_URL:=${t.baseUrl}}"`, `: "\${TACK_IDENTITY_URL:=${t.identityUrl}}"`];
    if (this.made > 0) lines.push(`: "\${TACK_CLIENT_ID:=${t.clientId}}"`);
    if (t.otherBaseUrl) lines.push(`: "\${TACK_OTHER_BASE_URL:=${t.otherBaseUrl}}"`);
    if (t.hook) lines.push(`: "\${TACK_HOOK_URL:=${t.hook.url}}"`);
    for (const name of this.lines) lines.push(`${name}="tack-replay-$RANDOM$RANDOM$RANDOM"`);
    return lines;
  }

  private describe(e: Exchange): string {
    const hook = this.input.target.hook?.url;
    try {
      const url = new URL(e.request.url);
      return hook !== undefined && e.request.url.startsWith(hook) ? `test hook ${url.pathname.slice(new URL(hook).pathname.length)}` : url.pathname;
    } catch {
      return e.request.url;
    }
  }
}

/** Shell functions of a script with a batch: `spawn STEP CURL-ARGS...` in the background, `collect STEP` its answer into status and body. */
const BATCH_FUNCTIONS = [
  'batch=$(mktemp -d)   # the answers of a batch, each in its own file; removed once read',
  '# spawn STEP CURL-ARGS...: one request of a batch, in the background; collect STEP: its answer, once the batch is done.',
  'spawn() { local step=$1; shift; curl -sS -D "$batch/$step.h" -w \'\\n%{http_code}\' "$@" >"$batch/$step.out" 2>/dev/null & }',
  'collect() {',
  '  local out; out=$(cat "$batch/$1.out" 2>/dev/null || true); cp "$batch/$1.h" "$headers" 2>/dev/null || : >"$headers"',
  "  status=${out##*$'\\n'}; body=${out%$'\\n'*}",
  '}',
];

/** A failed check on a batch sent together (`counted`): where its batch is in the sequence. */
interface Race {
  readonly counted: NonNullable<ReportCheck['counted']>;
  /** Index of the first step of the first batch of the sequence. */
  readonly firstBatch: number;
  /** Indexes of the last batch: its first step, and the one after its last. */
  readonly start: number;
  readonly end: number;
}

function raceOf(steps: readonly Exchange[], check: ReportCheck): Race | undefined {
  if (check.counted === undefined) return undefined;
  const firstBatch = steps.findIndex((e) => e.together !== undefined);
  if (firstBatch < 0) return undefined;
  let end = steps.length;
  while (steps[end - 1]!.together === undefined) end--;
  const batch = steps[end - 1]!.together;
  let start = end - 1;
  while (start > 0 && steps[start - 1]!.together === batch) start--;
  return { counted: check.counted, firstBatch, start, end };
}

/** Whether the check's words name a member or header (as written, or with `-`/`_` for one another). */
function mentions(text: string, name: string): boolean {
  const n = name.toLowerCase();
  return text.includes(n) || text.includes(n.replace(/_/g, '-')) || text.includes(n.replace(/-/g, '_'));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function escapeDouble(text: string): string {
  return text.replace(/[\\"$`]/g, (c) => `\\${c}`);
}
