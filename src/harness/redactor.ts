/**
 * The one redactor. Every output path (console, reports, transcripts, error messages) passes its
 * text through `redact()`.
 *
 * Secrets are registered by value as soon as tack knows them: configured secrets at start, every
 * token the target returns when its response is read, every tampered secret before it is sent.
 * Each value gets a stable placeholder (`<api-token#3>`) so a reader can still follow one token
 * through a rotation chain. Its encoded forms (`secretForms`: URL- and form-encoded, JSON-escaped,
 * hex in either case, base64, base64url, base32) are registered with it, and a value printed across lines
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
const PUBLIC_NAMES = new Set(['token_type', 'tokentype', 'token_type_hint']);
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
  // Stryker disable next-line ConditionalExpression: an array's entries are its items, named by their index: no secret's name.
  if (Array.isArray(value)) return value.flatMap(secretMembers);
  // Stryker disable next-line ConditionalExpression: a string's entries are its characters, named by their index: no secret's name.
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, v]) => {
    if (typeof v !== 'string') return secretMembers(v);
    return isSecretMember(name, v) ? [{ name, value: v }] : [];
  });
}

/** Below this length a value gets no base64, base32 or hex forms: they would be found by chance. */
const ENCODED_MIN = 8;

/**
 * The forms a secret can be written in: as it is; URL- and form-encoded, with their escapes in
 * upper-case hex (`%2F`, as `encodeURIComponent` writes them) and in lower-case (`%2f`, as some
 * encoders do); JSON-escaped; hex in lower and upper case (`xxd`, `%x`, `.hex()`; `xxd -u`, `%X`,
 * `.hex().upper()`), of the UTF-8 bytes and of the UTF-16LE ones (a .NET string's); base64, base64url
 * and base32 (RFC 4648, upper case, as `base32` writes it), alone or inside a longer encoded text
 * (`Basic` credentials, a token in an encoded JSON object): for each byte offset, the characters that
 * depend on the value alone; and the value turned about (`turnedForms`: backwards, UTF-16BE hex, base64 of
 * UTF-16LE). Hex in mixed case is no tool's output and is not a form.
 */
export function secretForms(value: string): string[] {
  const url = encodeURIComponent(value);
  const form = new URLSearchParams({ v: value }).toString().slice(2);
  const forms = new Set([value, url, lowerEscapes(url), form, lowerEscapes(form), JSON.stringify(value).slice(1, -1)]);
  if (value.length >= ENCODED_MIN) {
    const bytes = Buffer.from(value);
    const hex = bytes.toString('hex');
    forms.add(hex);
    forms.add(hex.toUpperCase());
    // UTF-16LE bytes in hex (a .NET or Windows string's bytes, dumped).
    const wide = Buffer.from(value, 'utf16le').toString('hex');
    forms.add(wide);
    forms.add(wide.toUpperCase());
    for (const offset of [0, 1, 2]) {
      const core = encodedCore(Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64'), offset, bytes.length, 6);
      forms.add(core);
      forms.add(core.replaceAll('+', '-').replaceAll('/', '_'));
    }
    for (const offset of [0, 1, 2, 3, 4]) {
      const core = encodedCore(base32(Buffer.concat([Buffer.alloc(offset), bytes])), offset, bytes.length, 5);
      forms.add(core);
      forms.add(core.toLowerCase());
    }
    for (const form of turnedForms(value)) forms.add(form);
  }
  // None is empty: every form of a value that is not empty has a character.
  return [...forms];
}

/**
 * The forms of a whole value turned about: written backwards; hex of its UTF-16BE bytes (Java's or a
 * network's order; after a byte-order mark `feff` too), either case; base64 and base64url of its UTF-16LE
 * bytes (a .NET string's), at each byte offset as `secretForms` takes base64.
 */
function turnedForms(value: string): string[] {
  const wide = Buffer.from(value, 'utf16le');
  const bigEndian = Buffer.from(wide).swap16().toString('hex');
  const forms = [[...value].reverse().join(''), bigEndian, bigEndian.toUpperCase()];
  for (const offset of [0, 1, 2]) {
    const core = encodedCore(Buffer.concat([Buffer.alloc(offset), wide]).toString('base64'), offset, wide.length, 6);
    forms.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return forms;
}

/** `%2F` escapes written `%2f`. */
function lowerEscapes(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (code) => code.toLowerCase());
}

/** The characters of `encoded` (`bits` per character) that depend only on the `length` bytes after `offset` leading bytes. */
function encodedCore(encoded: string, offset: number, length: number, bits: number): string {
  return encoded.slice(Math.ceil((offset * 8) / bits), Math.floor(((offset + length) * 8) / bits));
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * RFC 4648 base32, upper case, without padding, and without a last character made of fewer than 5
 * bits (in a longer text it holds bits of what follows: `encodedCore` would drop it).
 */
function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    // Stryker disable next-line EqualityOperator: 5 bits left are written with the next byte's, the same character.
    while (bits >= 5) {
      out += BASE32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

/**
 * What `text`, read whole as base64 (or base64url), base32 or hex, decodes to (as UTF-8): the values
 * it may be the written form of (`secretForms`), where a whole value, not a piece of one, counts.
 */
export function wholeDecodings(text: string): string[] {
  const out: string[] = [];
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) out.push(Buffer.from(text, 'base64').toString('utf8'));
  if (/^([0-9a-f]{2})+$|^([0-9A-F]{2})+$/.test(text)) out.push(Buffer.from(text, 'hex').toString('utf8'));
  const b32 = text.replace(/=+$/, '');
  if (/^[A-Z2-7]+$|^[a-z2-7]+$/.test(b32)) {
    const bytes: number[] = [];
    let bits = 0;
    let acc = 0;
    for (const c of b32.toUpperCase()) {
      acc = (acc << 5) | BASE32.indexOf(c);
      bits += 5;
      if (bits >= 8) {
        bytes.push((acc >>> (bits - 8)) & 255);
        bits -= 8;
        acc &= (1 << bits) - 1;
      }
    }
    out.push(Buffer.from(bytes).toString('utf8'));
  }
  return out;
}

/** `Basic` credentials in a header value (RFC 7617), a repeated header's values joined with `, ` too. */
const BASIC = /\bBasic\s+([A-Za-z0-9+/_-]+=*)/gi;

/**
 * The texts a header value carries: the value, and the `user:password` of each `Basic` credential in
 * it, decoded (an OAuth library's client authentication sends a client secret so, itself
 * form-encoded first by RFC 6749 §2.3.1, which `secretForms` covers). Searched for secrets in every
 * form, as any text.
 */
export function headerTexts(value: string): string[] {
  return [value, ...[...value.matchAll(BASIC)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))];
}

/** Line breaks, and the spaces around them. */
const LINE_BREAK = /[ \t]*\r?\n[ \t]*/g;

/** `text` with its line breaks taken out: a value printed across lines (wrapped, cut in two) reads whole in it. */
export function joinedLines(text: string): string {
  return text.replace(LINE_BREAK, '');
}

/**
 * A text as tools spell bytes, read back: `text` holds each character of the view, and `from[i]`,
 * `to[i]` the span of the original text it stands for. A hex digit of a dump line stands for its
 * byte's character in the ASCII column too, and what is between.
 */
interface TextView {
  readonly text: string;
  readonly from: Int32Array;
  readonly to: Int32Array;
}

/** Worth a view: a line break, a `%XX` escape, an ANSI escape, or two hex pairs with a separator between. */
const VIEW_WORTHY = /[\n%\x1b]|[0-9a-fA-F]{2}[ :-][0-9a-fA-F]{2}/;
/** An ANSI escape (colours, cursor moves) written inside a value or around a dump's groups. */
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
/**
 * A hex dump line (`xxd`, `xxd -g1`, `xxd -g0`, `xxd -e`, `hexdump -C`, `od -x`; Wireshark's three spaces after the
 * offset), after a log prefix or none: an offset, groups of hex pairs, then the ASCII column. Only the groups are bytes.
 */
const DUMP_LINE = /^(?:.*?\s)??[0-9a-fA-F]{4,16}:?[ \t]{0,2}?((?:[ \t]{1,2}[0-9a-fA-F]{2,32})+)(?:[ \t]{2,}(.*))?$/d;
/**
 * A full row of 16 bytes whose ASCII column follows the last byte after a single space: `curl --trace`
 * (`0040: 6e 3a 20 42 … 73 2e n: Bearer at1.s.`), commons-io's `HexDump`. The column is 16 characters, one a byte.
 */
const FULL_ROW = /^(?:.*?\s)??[0-9a-fA-F]{4,16}:?((?: [0-9a-fA-F]{2}){16}) (.{16})$/d;
/** Longer lines are no dump lines (and the dump pattern's cost stays small). */
const DUMP_LINE_MAX = 400;

/** Netty's `prettyHexDump` (a WebClient or reactor-netty wiretap): the offset and the ASCII column between bars. */
const BARRED_ROW = /^(?:.*?\s)??\|[0-9a-fA-F]{4,16}\|((?: [0-9a-fA-F]{2}){1,16})[ \t]+(\|.{1,16}\|)$/d;

/** `line` read as a dump line (`FULL_ROW`, `BARRED_ROW`, else `DUMP_LINE`): group 1 the bytes, group 2 the ASCII column; null when it is none. */
function dumpLine(line: string): RegExpExecArray | null {
  if (line.length > DUMP_LINE_MAX) return null;
  return FULL_ROW.exec(line) ?? BARRED_ROW.exec(line) ?? DUMP_LINE.exec(line);
}
// Stryker disable next-line Regex: tested on two characters only, two hex digits are the whole of them anyway.
const HEX_PAIR = /^[0-9a-fA-F]{2}$/;

/** A view built on `text` with its ANSI escapes taken out, mapped back onto `text`. */
function withoutAnsi(text: string, read: (plain: string) => TextView | undefined): TextView | undefined {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut; with no escape each position maps to itself.
  if (!text.includes('\x1b')) return read(text);
  const at: number[] = [];
  let plain = '';
  let last = 0;
  for (const m of text.matchAll(ANSI)) {
    for (let k = last; k < m.index; k++) at.push(k);
    plain += text.slice(last, m.index);
    last = m.index + m[0].length;
  }
  // Stryker disable next-line EqualityOperator: the position past the end reads text.length either way (the ?? below).
  for (let k = last; k < text.length; k++) at.push(k);
  plain += text.slice(last);
  const view = read(plain);
  if (view === undefined) return undefined;
  // Stryker disable next-line ConditionalExpression: at[-1] + 1 is NaN, which the Int32Array stores as the 0 it stands for.
  return { text: view.text, from: view.from.map((f) => at[f] ?? text.length), to: view.to.map((t) => (t === 0 ? 0 : at[t - 1]! + 1)) };
}

/** Reads code units back into a string (a lone surrogate stays one unit: the spans stay aligned). */
const UNITS = new TextDecoder('utf-16le');

/**
 * Builds a view: characters (UTF-16 code units, as a string indexes them) put with the span of the original
 * text they stand for. Kept in typed arrays and read into a string once: a string grown and read a character
 * at a time is copied whole at each read, which made a long page's view cost seconds.
 */
class ViewBuilder {
  private units: Uint16Array;
  private starts: Int32Array;
  private ends: Int32Array;
  length = 0;
  /** `expected`: about how many units the view will hold (it grows past it as needed). */
  constructor(expected = 16) {
    const size = Math.max(expected, 16);
    this.units = new Uint16Array(size);
    this.starts = new Int32Array(size);
    this.ends = new Int32Array(size);
  }
  put(chars: string, start: number, end: number): void {
    for (let k = 0; k < chars.length; k++) this.putUnit(chars.charCodeAt(k), start, end);
  }
  private putUnit(unit: number, start: number, end: number): void {
    if (this.length === this.units.length) {
      this.units = grown(this.units, new Uint16Array(this.length * 2));
      this.starts = grown(this.starts, new Int32Array(this.length * 2));
      this.ends = grown(this.ends, new Int32Array(this.length * 2));
    }
    this.units[this.length] = unit;
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.length++;
  }
  /** Takes the spaces and tabs at the end back out. */
  trimEnd(): void {
    while (this.length > 0 && (this.units[this.length - 1] === 0x20 || this.units[this.length - 1] === 0x09)) this.length--;
  }
  /** Puts what `other` holds, each unit with its own span. */
  append(other: ViewBuilder): void {
    for (let k = 0; k < other.length; k++) this.putUnit(other.units[k]!, other.starts[k]!, other.ends[k]!);
  }
  /** The view, from unit `first` on. */
  view(first = 0): TextView {
    return {
      text: UNITS.decode(this.units.subarray(first, this.length)),
      from: this.starts.slice(first, this.length),
      to: this.ends.slice(first, this.length),
    };
  }
}

function grown<T extends Uint16Array | Int32Array>(old: T, into: T): T {
  into.set(old);
  return into;
}

/**
 * `text` read back as tools spell bytes (the one definition of a secret's spacing and escapes, with
 * `secretForms`): `%XX` escapes decoded (every byte escaped, either case); ANSI escapes taken out;
 * hex dump lines (`xxd`, `hexdump -C`) reduced to their bytes, with no offsets, no ASCII column and
 * no line breaks; a space, colon or dash between two hex pairs taken out (`<Buffer 61 62>`, Python's
 * `bytes.hex(' ')`, `61:62`, .NET's `61-62`); line breaks and the spaces around them taken out. Undefined when the
 * text has none of these (the usual case: nothing to build). `littleEndian`: each group of a dump line read
 * as a little-endian word (`xxd -e`, `od -x`, `hexdump`).
 */
export function bytesView(text: string, littleEndian = false): TextView | undefined {
  if (!VIEW_WORTHY.test(text)) return undefined;
  return withoutAnsi(text, (plain) => readBytes(plain, littleEndian));
}

function readBytes(text: string, littleEndian: boolean): TextView {
  const b = new ViewBuilder(text.length);
  let i = 0;
  let lineStart = true;
  while (i < text.length) {
    if (lineStart) {
      lineStart = false;
      const eol = text.indexOf('\n', i);
      const end = eol === -1 ? text.length : eol;
      const line = text.slice(i, end).replace(/\r$/, '');
      const dump = dumpLine(line);
      if (dump !== null) {
        const groups = dump[1]!;
        const at = i + dump.indices![1]![0];
        // The ASCII column (`|` first in `hexdump -C`) shows each byte again: a hex digit stands for its byte there too,
        // so that a value replaced leaves none of its characters in the column.
        const column = dump.indices![2];
        const ascii = column === undefined ? undefined : i + column[0] + (line[column[0]] === '|' ? 1 : 0);
        const lineEnd = i + line.length;
        let bytes = 0;
        for (const group of groups.matchAll(/[0-9a-fA-F]+/g)) {
          const g = group[0];
          const k = at + group.index;
          const pairs = g.length >> 1;
          if (littleEndian && g.length % 2 === 0) {
            // The whole group stands for each of its bytes: read backwards, they are one word.
            const to = ascii === undefined ? k + g.length : Math.min(ascii + bytes + pairs, lineEnd);
            for (let p = pairs - 1; p >= 0; p--) b.put(g.slice(2 * p, 2 * p + 2), k, to);
          } else {
            for (let d = 0; d < g.length; d++) {
              const byte = bytes + (d >> 1);
              b.put(g[d]!, k + d, ascii === undefined ? k + d + 1 : Math.min(ascii + byte + 1, lineEnd));
            }
          }
          bytes += pairs;
        }
        i = eol === -1 ? text.length : eol + 1;
        lineStart = true;
        continue;
      }
    }
    const c = text[i]!;
    if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      // A line break and the spaces around it (`joinedLines`).
      b.trimEnd();
      // Stryker disable next-line ConditionalExpression,StringLiteral: past the \r alone, its \n is read next as a break of its own: the same.
      i += c === '\r' ? 2 : 1;
      while (text[i] === ' ' || text[i] === '\t') i++;
      lineStart = true;
      continue;
    }
    if (c === '%' && HEX_PAIR.test(text.slice(i + 1, i + 3))) {
      b.put(String.fromCharCode(Number.parseInt(text.slice(i + 1, i + 3), 16)), i, i + 3);
      i += 3;
      continue;
    }
    if ((c === ' ' || c === ':' || c === '-') && HEX_PAIR.test(text.slice(i - 2, i)) && HEX_PAIR.test(text.slice(i + 1, i + 3))) {
      i++;
      continue;
    }
    b.put(c, i, i + 1);
    i++;
  }
  return b.view();
}

/**
 * The ends of `text`'s lines read one after the other: a dump line's ASCII column (whatever its groups spell,
 * `xxd -e`'s words too), else the line's last word, after whatever prefix. A value printed cut into lines
 * behind a log prefix (`[w1] at1.s.u1`), or dumped, reads whole in it. A character of a dump's column stands for
 * its line from the first group on, so that a value replaced leaves none of its bytes in the groups either.
 * `byPrefix`: the lines of each prefix (`[w1] `, `[w2] `, the offset left out) read apart, one prefix's after
 * another's, so that two workers' lines interleaved each read whole; `'loose'`: by prefix with its numbers made one
 * (`numbersMadeOne`). Undefined for a text of one line, and `byPrefix` for a text whose lines have one prefix.
 */
/** A log line's prefix, its times made one: each line of one writer stamped with its own time is still that writer's. */
function writerOf(prefix: string): string {
  return prefix.trim().replace(/\d{4}-\d\d-\d\d[T ][\d:.,]+Z?|\b\d\d:\d\d:\d\d(?:[.,]\d+)?/g, 'T');
}

/**
 * A writer (`writerOf`) with all its numbers made one: `token part 1:` and `token part 2:` are one writer's, a line
 * of another between them (`waiting...`) read apart. `tailsView(text, 'loose')`.
 */
function numbersMadeOne(writer: string): string {
  return writer.replace(/\d+/g, '#');
}

/** Where a line ends: `\n`, `\r\n`, or a lone `\r` (a progress line written over). */
const LINE_END = /\r\n?|\n/g;

export function tailsView(text: string, byPrefix: boolean | 'loose' = false): TextView | undefined {
  if (!/[\r\n]/.test(text)) return undefined;
  return withoutAnsi(text, (plain) => {
    const builders = new Map<string, ViewBuilder>();
    /** The writers seen: when the loose reading made none of them one (`numbersMadeOne`), it is the by-prefix one. */
    const writers = new Set<string>();
    const builder = (prefix: string) => {
      // Stryker disable next-line StringLiteral: with no prefix read, every line is one writer's, whatever its name.
      const writer = byPrefix ? writerOf(prefix) : '';
      writers.add(writer);
      const key = byPrefix === 'loose' ? numbersMadeOne(writer) : writer;
      let b = builders.get(key);
      if (b === undefined) {
        b = new ViewBuilder();
        builders.set(key, b);
      }
      return b;
    };
    let i = 0;
    // Stryker disable next-line EqualityOperator: the empty line after a last line break has no word to read.
    while (i <= plain.length) {
      LINE_END.lastIndex = i;
      const ending = LINE_END.exec(plain);
      const eol = ending === null ? -1 : ending.index;
      const end = eol === -1 ? plain.length : eol;
      const line = plain.slice(i, end);
      const dump = dumpLine(line);
      if (dump !== null) {
        const column = dump.indices![2];
        if (column !== undefined) {
          // Stryker disable next-line StringLiteral: the offset replaced by any one text: each writer's lines still share their key.
          const b = builder(line.slice(0, dump.indices![1]![0]).replace(/\|?[0-9a-fA-F]{4,16}\|?:?[ \t]*$/, ''));
          const inner = /^[|>]?(.*?)[|<]?$/.exec(dump[2]!)!;
          const first = i + column[0] + (/^[|>]/.test(dump[2]!) ? 1 : 0);
          const groups = i + dump.indices![1]![0];
          for (let k = 0; k < inner[1]!.length; k++) b.put(inner[1]![k]!, groups, first + k + 1);
        }
      } else {
        const word = lastWord(line);
        if (word !== undefined) {
          const [from, to] = word;
          const b = builder(line.slice(0, from));
          for (let k = from; k < to; k++) b.put(line[k]!, i + k, i + k + 1);
        }
      }
      if (ending === null) break;
      i = eol + ending[0].length;
    }
    if (byPrefix && builders.size < 2) return undefined;
    if (byPrefix === 'loose' && builders.size === writers.size) return undefined;
    // Each prefix's lines apart: a line break between them, which no form of a secret crosses.
    const all = new ViewBuilder();
    for (const b of builders.values()) {
      all.put('\n', 0, 0);
      all.append(b);
    }
    return all.view(1);
  });
}

/** What ends a word: a space of any kind, or a quote. */
const WORD_END = /[\s"'`]/;
const QUOTE = /["'`]/;

/**
 * Where a line's last word stands, [start, end): its quotes and a comma after them left out (`"word",`), a
 * comma after a bare word kept. Undefined when the line ends in no word. Read back from the end, in one pass:
 * a pattern anchored at the end (`["'`]?([^\s"'`]+)["'`]?,?\s*$`) is tried from every position, which on a
 * line of a few hundred kilobytes (a screenshot inlined in report.html) took half a minute.
 */
function lastWord(line: string): [number, number] | undefined {
  let end = line.length;
  while (end > 0 && /\s/.test(line[end - 1]!)) end--;
  const startOf = (wordEnd: number) => {
    let start = wordEnd;
    while (start > 0 && !WORD_END.test(line[start - 1]!)) start--;
    return start;
  };
  if (line[end - 1] === ',' && QUOTE.test(line[end - 2] ?? '')) {
    // `"word",`: the word ends before the quote; with no word there, the comma is the word.
    const start = startOf(end - 2);
    if (start < end - 2) return [start, end - 2];
  } else if (QUOTE.test(line[end - 1] ?? '')) end--;
  const start = startOf(end);
  return start < end ? [start, end] : undefined;
}

/**
 * Bytes written as numbers, decoded: `\x61\x74`, `\u0061\u0074` and octal `\141\164` escapes, HTML's
 * `&#97;` and `&#x61;`, a C array `0x61, 0x74` (`xxd -i`, quoted or not), decimal bytes (`Uint8Array(65)
 * [97, 116, …]`, `list(b)`, Go's `[97 116 …]`), and `od -c` lines (`0000000   a   t   1   .`, offsets left out).
 * Undefined when the text holds none.
 */
const BYTE_RUN = new RegExp(
  [
    /(?:\\x[0-9a-fA-F]{2}){4,}/.source,
    /(?:\\u[0-9a-fA-F]{4}){4,}/.source,
    /(?:\\[0-7]{3}){4,}/.source,
    /(?:&#(?:[xX][0-9a-fA-F]{1,4}|\d{1,5});){4,}/.source,
    /['"]?0[xX][0-9a-fA-F]{2}['"]?(?:\s*,?\s*['"]?0[xX][0-9a-fA-F]{2}['"]?){3,}/.source,
    /\b\d{1,3}(?:\s*,\s*\d{1,3}){7,}\b/.source,
    /\[\d{1,3}(?: \d{1,3}){7,}\]/.source,
    /(?:^[0-7]{7}(?: {3}[ -~]| {2}\\[0abfnrtv]| [0-7]{3})+[ \t]*(?:\r?\n|$))+/.source,
  ].join('|'),
  'gm',
);
const OD_C_FIELD = / {3}([ -~])| {2}\\([0abfnrtv])| ([0-7]{3})/y;
const OD_C_ESCAPES: Record<string, string> = { '0': '\0', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** How a run of BYTE_RUN spells each character: the pattern of one, its code, and the largest code it may stand for. */
function numbersOf(run: string): [RegExp, (m: RegExpMatchArray) => number, number] {
  if (run.startsWith('\\u')) return [/\\u([0-9a-fA-F]{4})/g, (m) => Number.parseInt(m[1]!, 16), 0xffff];
  if (/^\\[0-7]/.test(run)) return [/\\([0-7]{3})/g, (m) => Number.parseInt(m[1]!, 8), 255];
  if (run.startsWith('&#'))
    return [/&#(?:[xX]([0-9a-fA-F]+)|(\d+));/g, (m) => (m[1] !== undefined ? Number.parseInt(m[1], 16) : Number.parseInt(m[2]!, 10)), 0xffff];
  if (/^['"]?(?:\\x|0[xX])/.test(run)) return [/(?:\\x|0[xX])([0-9a-fA-F]{2})/g, (m) => Number.parseInt(m[1]!, 16), 255];
  return [/\d{1,3}/g, (m) => Number.parseInt(m[0], 10), 255];
}

export function numbersView(text: string): TextView | undefined {
  return withoutAnsi(text, (plain) => {
    // Most texts hold no run: nothing to build.
    if (plain.search(BYTE_RUN) === -1) return undefined;
    const b = new ViewBuilder(plain.length);
    let last = 0;
    for (const run of plain.matchAll(BYTE_RUN)) {
      for (let k = last; k < run.index; k++) b.put(plain[k]!, k, k + 1);
      last = run.index + run[0].length;
      const r = run[0];
      // Stryker disable next-line Regex: only od -c runs hold seven octal digits in a row, at their start.
      if (/^[0-7]{7}/.test(r)) {
        // Stryker disable next-line Regex: seven octal digits in a row stand only at a line's start; `.` stops at the line's end.
        for (const line of r.matchAll(/^([0-7]{7})(.*)$/gm)) {
          // Stryker disable next-line StringLiteral: the fields are read up to the first text that is no field: any text put there ends them alike.
          const body = line[2]!.replace(/[ \t\r]*$/, '');
          let k = 0;
          OD_C_FIELD.lastIndex = 0;
          for (let m = OD_C_FIELD.exec(body); m !== null; m = OD_C_FIELD.exec(body)) {
            const start = run.index + line.index + 7 + k;
            const c = m[1] ?? (m[2] !== undefined ? OD_C_ESCAPES[m[2]]! : String.fromCharCode(Number.parseInt(m[3]!, 8)));
            b.put(c, start, start + m[0].length);
            k += m[0].length;
          }
        }
        continue;
      }
      const [numbers, codeOf, limit] = numbersOf(r);
      for (const n of r.matchAll(numbers)) {
        const code = codeOf(n);
        b.put(code > limit ? '\ufffd' : String.fromCharCode(code), run.index + n.index, run.index + n.index + n[0].length);
      }
    }
    for (let k = last; k < plain.length; k++) b.put(plain[k]!, k, k + 1);
    return b.view();
  });
}

/**
 * The runs of `text` that `pattern` (global) finds, each read by `read` into `b`, a line break between two runs
 * (no form of a secret crosses one). Undefined when there is none.
 */
function runsView(text: string, pattern: RegExp, read: (b: ViewBuilder, run: RegExpExecArray) => void): TextView | undefined {
  const b = new ViewBuilder();
  for (const run of text.matchAll(pattern)) {
    b.put('\n', 0, 0);
    read(b, run);
  }
  return b.length === 0 ? undefined : b.view(1);
}

/**
 * Eight or more characters each alone between one or two spaces or a tab (`a t 1 . s`; one a line, `bytesView`
 * reads them), or each quoted, a comma between two (a list of characters: Python's `['a', 't']`, Node's
 * `[ 'a', 't' ]` over lines, JSON's `["a","t"]`), or a comma between two unquoted (Java's `Arrays.toString`,
 * `[a, t, 1]`; JavaScript's `String([...t])`, `a,t,1`).
 */
const SPACED = /(?<!\S)\S(?:(?: {1,2}|\t)\S){7,}(?!\S)|(['"])[^\s'"\\]\1(?:,\s*\1[^\s'"\\]\1){7,}|(?<![^\s[(])([^\s,'"](?:, ?[^\s,'"]){7,})(?![^\s\]),])/g;

/** The characters of `text` written apart (`a t 1 . s . u 1`, `['a', 't', '1']`, `[a, t, 1]`), read together. */
export function spacedView(text: string): TextView | undefined {
  return runsView(text, SPACED, (b, run) => {
    // Each character: alone, the one between two quotes, or one between commas.
    const each = run[1] !== undefined ? /(['"])(.)\1/g : run[2] !== undefined ? /()([^\s,])/g : /()(\S)/g;
    for (const c of run[0].matchAll(each)) {
      const at = run.index + c.index + c[1]!.length;
      b.put(c[2]!, at, at + 1);
    }
  });
}

/** A decimal byte: digits alone, or cut by a line break where a list was wrapped at a width (`1\n21` is 121). */
const DECIMAL = /(?<!\d)\d(?:\r?\n?\d){0,2}(?!\d)/.source;
/** Between two bytes: spaces and commas, a line break and an offset at the start of a dump's next line (`od -t u1`). */
const DECIMAL_GAP = /[ \t,]*(?:\r?\n(?:[0-9a-fA-F]{6,}(?=[ \t]))?[ \t,]*)?/.source;
/** Eight or more decimal bytes in a row. */
const DECIMAL_RUN = new RegExp(`${DECIMAL}(?:${DECIMAL_GAP}${DECIMAL}){7,}`, 'g');

/**
 * Decimal bytes in a row read as characters: separated by spaces or commas, over lines, wrapped in the middle of a
 * number (a list folded at a width), `od -t u1` and `od -t d1` lines with their offsets left out. Printable
 * characters are 2 or 3 digits, so a break between two digits is inside a number when the digits around it make
 * 3 at most.
 */
export function decimalView(text: string): TextView | undefined {
  return runsView(text, DECIMAL_RUN, (b, run) => {
    for (const n of run[0].matchAll(new RegExp(DECIMAL, 'g'))) {
      const code = Number.parseInt(n[0].replace(/\s/g, ''), 10);
      b.put(code > 255 ? '\ufffd' : String.fromCharCode(code), run.index + n.index, run.index + n.index + n[0].length);
    }
  });
}

/** HTML's named references to the ASCII punctuation, each written `<character><name>`. */
const NAMED_REFERENCES = `&amp <lt >gt "quot 'apos .period _lowbar +plus /sol =equals :colon ,comma ;semi !excl ?quest #num $dollar %percnt *ast @commat (lpar
)rpar [lsqb ]rsqb {lcub }rcub |verbar \\bsol ^Hat \`grave`;

/** The character HTML's named reference `name` stands for, of the ASCII punctuation (`NAMED_REFERENCES`). */
let namedReferences: Map<string, string> | undefined;
function namedReference(name: string): string | undefined {
  namedReferences ??= new Map(NAMED_REFERENCES.split(/\s/).map((entry) => [entry.slice(1), entry[0]!]));
  return namedReferences.get(name);
}

/**
 * An HTML character reference (`&period;`, `&#46;`, `&#x2e;`), quoted-printable's `=2E` and soft line break `=\n`,
 * a backslash before punctuation (Markdown's and MarkdownV2's `\.` `\_`), or a break hint that shows nothing
 * (`<wbr>`, a soft hyphen, a zero-width space or joiner, a word joiner, a byte-order mark).
 */
const ESCAPE =
  /&(?:#(?:[xX]([0-9a-fA-F]{1,6})|(\d{1,7}))|([A-Za-z]+));|=(?:([0-9a-fA-F]{2})|\r?\n)|\\([!-/:-@[-`{-~])|<wbr\s*\/?>|[\u00ad\u200b-\u200d\u2060\ufeff]/y;
const ESCAPES = new RegExp(ESCAPE.source, 'g');
/** What ends a word of the escapes view: a space, or what stands around a value in markup or code. */
const ESCAPED_WORD_END = /[\s<>"'`]/;

/**
 * The words of `text` holding HTML character references (named ones for the ASCII punctuation, `&period;`
 * `&lowbar;`, `&shy;`, and numeric ones, alone between other characters), quoted-printable escapes (`=2E`, soft line
 * breaks `=\n`), backslashes before punctuation or break hints (`ESCAPE`), those decoded. Only those words: a page
 * with an `&amp;` here and there costs no copy of itself.
 * Undefined when `text` has none.
 */
export function escapesView(text: string): TextView | undefined {
  const b = new ViewBuilder();
  let end = 0;
  for (const found of text.matchAll(ESCAPES)) {
    if (found.index < end) continue;
    let i = found.index;
    while (i > end && !ESCAPED_WORD_END.test(text[i - 1]!)) i--;
    b.put('\n', 0, 0);
    for (;;) {
      ESCAPE.lastIndex = i;
      const m = ESCAPE.exec(text);
      const char = m === null ? undefined : escaped(m);
      if (char !== undefined) {
        b.put(char, i, ESCAPE.lastIndex);
        i = ESCAPE.lastIndex;
      } else if (i < text.length && !ESCAPED_WORD_END.test(text[i]!)) {
        b.put(text[i]!, i, i + 1);
        i++;
      } else break;
    }
    end = i;
  }
  return b.length === 0 ? undefined : b.view(1);
}

/** What an escape `ESCAPE` found stands for: '' for a soft line break or a break hint, undefined for a name not known. */
function escaped(m: RegExpExecArray): string | undefined {
  const hex = m[1] ?? m[4];
  const code = hex !== undefined ? Number.parseInt(hex, 16) : m[2] !== undefined ? Number.parseInt(m[2], 10) : undefined;
  if (code !== undefined) return code > 0x10ffff ? '\ufffd' : String.fromCodePoint(code);
  if (m[3] !== undefined) return m[3] === 'shy' ? '' : namedReference(m[3]);
  return m[5] ?? '';
}

/**
 * Every reading of `text` a secret may hide in, as tools print values and bytes: `bytesView` (and its
 * little-endian reading), `tailsView` (by prefix, and by prefix with its numbers made one), `numbersView`,
 * `decimalView`, `spacedView`, `escapesView`. Each is searched by the judge and redacted where it stands.
 */
const VIEWS: readonly ((text: string) => TextView | undefined)[] = [
  bytesView,
  (text) => bytesView(text, true),
  tailsView,
  (text) => tailsView(text, true),
  (text) => tailsView(text, 'loose'),
  numbersView,
  decimalView,
  spacedView,
  escapesView,
];

/** The texts to search `text` for a secret's forms in: itself, and each of its views (`VIEWS`). */
export function secretTexts(text: string): string[] {
  const texts = new Set([text]);
  for (const view of VIEWS) {
    const v = view(text);
    if (v !== undefined) texts.add(v.text);
  }
  return [...texts];
}

/**
 * Words that look like tokens: 16 or more characters of a token alphabet, with a letter and a digit.
 * Output tack did not write (a client's) may hold tokens tack never saw, or pieces of them.
 */
const TOKEN_LIKE = /[A-Za-z0-9_\-.~+=]{16,}/g;

/** 16 or more bytes in hex, spaced or colon-separated (`<Buffer 61 62 …>` cut at 50 bytes, a hex dump's groups): masked in output like token-like words. */
const SPACED_BYTES = /\b(?:[0-9a-fA-F]{2,4}[ :]){7,}[0-9a-fA-F]{2,4}\b/g;

/** Values shorter than this are replaced only as the whole text or between quotes. */
const SHORT = 8;
/**
 * The user's own configured secrets (partner secrets, hook token, password) are replaced anywhere from this
 * length on: a 6-character partner secret echoed in an error page must not survive because it is
 * short. Below it, they are treated like any short value (replacing 1-3 characters everywhere would
 * shred every word).
 */
const SHORT_CONFIGURED = 4;
// Stryker disable next-line Regex: a placeholder begins with its `<`.
const CONFIGURED = /^<(?:partner-secret|hook-token|password)#/;
/** A placeholder this redactor writes, read where a `<` stands; kept verbatim when text is redacted again. */
const PLACEHOLDER = /<(?:[a-z-]+#\d+|redacted)>/y;

/**
 * How a registered value was derived from a known one, told without revealing either: the value is
 * `base.slice(0, keep) + insert + base.slice(resume)`, or `base` with every letter's case flipped.
 * Used to write reproducible commands (`${TACK_PARTNER_SECRET:0:5}`) for tampered secrets.
 */
type SecretEdit = { readonly kind: 'edited'; readonly keep: number; readonly insert: string; readonly resume: number } | { readonly kind: 'case-flipped' };

export class Redactor {
  private readonly placeholders = new Map<string, string>();
  private readonly counters = new Map<SecretKind, number>();
  private readonly extraSecretHeaders = new Set<string>();
  /** Placeholder to the value first registered under it (for `editOf`; never printed). */
  private readonly originals = new Map<string, string>();
  /** The registered values indexed by how they begin (`SecretIndex`), built at the first redaction and kept up to date. */
  private index: SecretIndex | undefined;

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
      if (this.placeholders.has(variant)) continue;
      this.placeholders.set(variant, placeholder);
      this.index?.add(variant);
    }
    return placeholder;
  }

  /**
   * How the value behind `placeholder` differs from `base`, when it is a small edit of it (a cut,
   * or at most 8 characters inserted next to kept ones) or `base` in the other letter case;
   * otherwise undefined.
   */
  editOf(placeholder: string, base: string): SecretEdit | undefined {
    const value = this.originals.get(placeholder);
    if (value === undefined || value === base) return undefined;
    if (flipCase(base) === value) return { kind: 'case-flipped' };
    let keep = 0;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: past either end the characters differ; equal values end above.
    while (keep < value.length && keep < base.length && value[keep] === base[keep]) keep++;
    let tail = 0;
    while (tail < value.length - keep && tail < base.length - keep && value[value.length - 1 - tail] === base[base.length - 1 - tail]) tail++;
    const insert = value.slice(keep, value.length - tail);
    // Only `insert` is value text; it must be short and must edit `base`, not replace it.
    // Stryker disable next-line ConditionalExpression,StringLiteral: nothing inserted means the value is kept characters (keep + tail > 0).
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
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: a shortcut; the scan finds nothing there either.
    if (text === '' || this.placeholders.size === 0) return text;
    const whole = this.placeholders.get(text);
    if (whole) return whole;
    const found = this.secretIndex().scan(text);
    let out = '';
    let last = 0;
    for (const m of found) {
      if (m.placeholder === undefined) continue;
      out += text.slice(last, m.start) + m.placeholder;
      last = m.end;
    }
    // Stryker disable next-line ConditionalExpression: a shortcut; nothing replaced, out + text is the text.
    out = last === 0 ? text : out + text.slice(last);
    return this.redactView(out);
  }

  /**
   * Output tack did not write (a client's stdout and stderr): every registered secret, then any word
   * still looking like a token (a piece of a secret, a token tack never saw) masked, and runs of 16
   * or more spaced hex bytes (a piece of a secret as Node prints a Buffer, cut at 50 bytes).
   */
  redactOutput(text: string): string {
    return this.redact(text)
      .replace(TOKEN_LIKE, (word) => (/[A-Za-z]/.test(word) && /\d/.test(word) ? '<masked>' : word))
      .replace(SPACED_BYTES, '<masked>');
  }

  /**
   * A registered value spelled so that only `bytesView` reads it whole (across lines, hex bytes
   * spaced or dumped, every byte `%XX`-escaped, ANSI escapes inside) is replaced where it stands.
   */
  private redactView(text: string): string {
    let out = text;
    for (const read of VIEWS) out = this.redactOneView(out, read(out));
    return out;
  }

  private redactOneView(text: string, view: TextView | undefined): string {
    if (view === undefined) return text;
    const spans: { start: number; end: number; placeholder: string }[] = [];
    for (const m of inTextOrder(this.secretIndex().scan(view.text), view)) {
      if (m.placeholder === undefined || m.end - m.start < SHORT) continue;
      const start = view.from[m.start]!;
      const end = view.to[m.end - 1]!;
      const last = spans.at(-1);
      // Stryker disable next-line ConditionalExpression,MethodExpression: a value the text holds as it is was replaced by the first pass.
      if (text.slice(start, end) === view.text.slice(m.start, m.end)) continue;
      if (last !== undefined && start < last.end) last.end = Math.max(last.end, end);
      else spans.push({ start, end, placeholder: m.placeholder });
    }
    let out = text;
    for (const span of spans.reverse()) out = out.slice(0, span.start) + span.placeholder + out.slice(span.end);
    return out;
  }

  private secretIndex(): SecretIndex {
    this.index ??= new SecretIndex(this.placeholders, (placeholder) => (CONFIGURED.test(placeholder) ? SHORT_CONFIGURED : SHORT));
    return this.index;
  }

  /** Redacts header values: registered secrets by value, credential headers whole. */
  redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, raw] of Object.entries(headers)) {
      if (raw === undefined) continue;
      const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
      out[name] = this.isSecretHeader(name) ? this.redactCredential(value) : this.redactBasic(value);
    }
    return out;
  }

  /**
   * A header value under a name that is not a secret's: registered values replaced, and any `Basic`
   * credential whose decoded `user:password` holds one (`headerTexts`) replaced whole.
   */
  private redactBasic(value: string): string {
    const out = value.replace(BASIC, (credential, encoded: string) => {
      const decoded = Buffer.from(encoded, 'base64').toString('utf8');
      return this.redact(decoded) === decoded ? credential : `${credential.slice(0, credential.length - encoded.length)}<redacted>`;
    });
    return this.redact(out);
  }

  /**
   * Redacts a body: JSON members and form fields by name, then every registered value. A body that
   * looks like JSON is read as JSON whatever its content type (tack reads tokens from it so too), so
   * escapes such as `\/` or `\u002B` cannot hide a token from the value scan.
   */
  redactBody(body: string, contentType: string | undefined): string {
    // Stryker disable next-line StringLiteral: any text but one that says JSON or form answers the same.
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
    // Stryker disable next-line ConditionalExpression: a shortcut; redact() answers a whole registered value with its placeholder too.
    if (known) return known;
    const redacted = this.redact(value);
    return redacted === value ? '<redacted>' : redacted;
  }
}

/**
 * What `scan` found in a view, in the order of where it stands in the text: a view reads some parts out of order
 * (each prefix's lines apart), and overlapping spans are merged in one pass from the start.
 */
function inTextOrder(found: Found[], view: TextView): Found[] {
  return found.sort((a, b) => view.from[a.start]! - view.from[b.start]!);
}

/** Where `scan` found a registered value (`placeholder` its replacement) or a placeholder to keep (undefined). */
interface Found {
  readonly start: number;
  readonly end: number;
  readonly placeholder: string | undefined;
}

/** Length of the beginning the long values are indexed by. */
const PREFIX = 8;

/**
 * The registered values (every form of every secret), found in a text in one left-to-right pass:
 * at each position a placeholder already there is kept; else the longest value starting there is
 * replaced, a value shorter than its kind's minimum (`minimum(placeholder)`) only between quotes.
 * Values are indexed by their first characters, so a position costs a lookup or two whatever the
 * number of secrets (a run registers thousands of forms: one alternation of them all made every
 * redaction slower the longer the run).
 */
class SecretIndex {
  /** First PREFIX characters to the values beginning so, longest first. */
  private readonly long = new Map<string, string[]>();
  /** First character to the values shorter than PREFIX beginning so, longest first. */
  private readonly short = new Map<string, string[]>();
  /** 1 at the code unit of each value's first character: most positions of a text begin none, and cost one read. */
  private readonly firstUnits = new Uint8Array(0x10000);
  /**
   * 1 at `pairOf` the first two code units of each value of two or more; 2 in `firstUnits` marks a value of one.
   * Written backwards, 50 tokens begin with most letters and digits: their first two units still tell a page's
   * words apart at one read more.
   */
  private readonly firstPairs = new Uint8Array(0x10000);

  constructor(
    private readonly placeholders: ReadonlyMap<string, string>,
    private readonly minimum: (placeholder: string) => number,
  ) {
    for (const value of placeholders.keys()) this.add(value);
  }

  /** Indexes one more value (already in `placeholders`), keeping its list longest first. */
  add(value: string): void {
    // Stryker disable next-line ConditionalExpression: every value marked one of one unit is found the same, only slower.
    this.firstUnits[value.charCodeAt(0)]! |= value.length === 1 ? 2 : 1;
    this.firstPairs[pairOf(value.charCodeAt(0), value.charCodeAt(1))] = 1;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: indexed by its first character instead, a value is found the same, only slower.
    const [map, key] = value.length >= PREFIX ? [this.long, value.slice(0, PREFIX)] : [this.short, value[0]!];
    const list = map.get(key);
    if (!list) map.set(key, [value]);
    else {
      // Stryker disable next-line EqualityOperator: two values of one length that start alike at a place are the same value.
      const at = list.findIndex((v) => v.length < value.length);
      list.splice(at === -1 ? list.length : at, 0, value);
    }
  }

  scan(text: string): Found[] {
    // Stryker disable next-line ArrayDeclaration: an entry that is no match has no placeholder: skipped as a placeholder kept.
    const found: Found[] = [];
    let i = 0;
    // Stryker disable next-line EqualityOperator: past the end no value stands.
    while (i < text.length) {
      const match = this.at(text, i);
      if (match === undefined) i++;
      else {
        found.push(match);
        i = match.end;
      }
    }
    return found;
  }

  private at(text: string, i: number): Found | undefined {
    const unit = text.charCodeAt(i);
    // Stryker disable next-line ConditionalExpression: a shortcut; the placeholder's pattern begins with its `<`.
    if (unit === 60 /* < */) {
      PLACEHOLDER.lastIndex = i;
      if (PLACEHOLDER.test(text)) return { start: i, end: PLACEHOLDER.lastIndex, placeholder: undefined };
    }
    // Stryker disable next-line ConditionalExpression: a shortcut; no value is indexed under a beginning none has.
    if (this.firstUnits[unit] === 0) return undefined;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut; no value begins with a pair none has.
    if (this.firstUnits[unit] === 1 && this.firstPairs[pairOf(unit, text.charCodeAt(i + 1))] === 0) return undefined;
    return this.first(this.long.get(text.slice(i, i + PREFIX)), text, i) ?? this.first(this.short.get(text[i]!), text, i);
  }

  /** The first (longest) of `values` that stands at `i`. */
  private first(values: readonly string[] | undefined, text: string, i: number): Found | undefined {
    // Stryker disable next-line ArrayDeclaration: a value never registered has no placeholder: skipped as a placeholder kept.
    for (const value of values ?? []) {
      if (!text.startsWith(value, i)) continue;
      const placeholder = this.placeholders.get(value)!;
      const end = i + value.length;
      if (value.length < this.minimum(placeholder) && !(isQuote(text[i - 1]) && isQuote(text[end]))) continue;
      return { start: i, end, placeholder };
    }
    return undefined;
  }
}

/** A hash of two code units (the second NaN past the end: 0), for `SecretIndex.firstPairs`. */
// Stryker disable next-line BlockStatement: with no hash, no position is passed over: the same values found, only slower.
function pairOf(first: number, second: number): number {
  return ((first << 5) ^ second) & 0xffff;
}

function isQuote(c: string | undefined): boolean {
  return c === '"' || c === "'";
}

function flipCase(s: string): string {
  return [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}
