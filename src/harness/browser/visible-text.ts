/**
 * What a person sees on a page, as text: the one definition the token-page verdicts (masked,
 * cleared, shown once, no list) and the screenshot guard share.
 *
 * - the title (the tab shows it) and the visible text (`innerText`, SVG text included);
 * - the values of visible form fields: text boxes, read-only ones included, text areas, the chosen
 *   option, button labels; a password field shows one bullet per character, never its value;
 * - generated content (`::before`, `::after`: quoted strings and `attr()`, as the browser computes them);
 * - text drawn on a visible canvas (`fillText`, `strokeText`), and the text of an SVG image given
 *   as a `data:` or `blob:` URL (an `<img>` or a CSS background).
 *
 * A canvas or an image cannot be read like text (no OCR): what a page draws is learnt as it draws,
 * by `SEEN_TAP`, an init script every context of the run gets (web.ts). What tack cannot read, a
 * canvas given pixels (`drawImage`, `putImageData`, a WebGL or bitmap context, one drawn in a
 * worker) or a raster image made in the page (a `blob:` URL, a `data:` URL its script made of a
 * canvas or a blob), is listed as `unreadable`: a verdict that depends on it is not verified, and no
 * screenshot is kept of it. Images loaded from a URL or written in the HTML as a `data:` URL are the
 * site's own assets (icons, logos): not what a page makes of a token it just received.
 */
import type { Locator, Page } from 'playwright-core';

/** One place of the page that shows text, and the text. */
export const PLACES = ['the title', 'the text', 'a form field', 'generated content', 'a canvas', 'an image'] as const;

export interface SeenPart {
  readonly where: (typeof PLACES)[number];
  readonly text: string;
}

export interface Seen {
  readonly parts: readonly SeenPart[];
  /** Canvases and images on screen whose content tack cannot read, in words. */
  readonly unreadable: readonly string[];
}

/** Everything of `seen` as one text. */
export function seenText(seen: Seen): string {
  return seen.parts.map((p) => p.text).join('\n');
}

/** Where `value` is shown (each place once), in the order of `SeenPart.where`. */
export function whereShown(seen: Seen, value: string): string[] {
  const places = new Set(seen.parts.filter((p) => value !== '' && p.text.includes(value)).map((p) => p.where));
  return PLACES.filter((place) => places.has(place));
}

/**
 * The init script: records what each canvas is given (text, or pixels tack cannot read) and the
 * blobs behind `blob:` URLs. Installed in every context before any page script runs.
 */
export const SEEN_TAP = `(() => {
  if (globalThis.__tackSeen) return;
  const canvases = new WeakMap();
  const blobs = new Map();
  const note = (canvas) => {
    let n = canvases.get(canvas);
    if (!n) { n = { texts: [], opaque: false }; canvases.set(canvas, n); }
    return n;
  };
  const forget = (canvas) => { const n = canvases.get(canvas); if (n) { n.texts = []; n.opaque = false; } };
  const wrap = (proto, name, before) => {
    const original = proto && proto[name];
    if (typeof original !== 'function') return;
    proto[name] = function (...args) { try { before(this, args); } catch (e) {} return original.apply(this, args); };
  };
  const c2d = globalThis.CanvasRenderingContext2D && CanvasRenderingContext2D.prototype;
  wrap(c2d, 'fillText', (ctx, args) => note(ctx.canvas).texts.push(String(args[0])));
  wrap(c2d, 'strokeText', (ctx, args) => note(ctx.canvas).texts.push(String(args[0])));
  wrap(c2d, 'drawImage', (ctx) => { note(ctx.canvas).opaque = true; });
  wrap(c2d, 'putImageData', (ctx) => { note(ctx.canvas).opaque = true; });
  wrap(c2d, 'clearRect', (ctx, [x, y, w, h]) => {
    if (x <= 0 && y <= 0 && x + w >= ctx.canvas.width && y + h >= ctx.canvas.height) forget(ctx.canvas);
  });
  const canvasProto = globalThis.HTMLCanvasElement && HTMLCanvasElement.prototype;
  wrap(canvasProto, 'getContext', (canvas, args) => { if (String(args[0]) !== '2d') note(canvas).opaque = true; });
  wrap(canvasProto, 'transferControlToOffscreen', (canvas) => { note(canvas).opaque = true; });
  for (const size of ['width', 'height']) {
    const d = canvasProto && Object.getOwnPropertyDescriptor(canvasProto, size);
    if (d && d.set) Object.defineProperty(canvasProto, size, { ...d, set(v) { forget(this); d.set.call(this, v); } });
  }
  const createObjectURL = URL.createObjectURL;
  URL.createObjectURL = function (object) {
    const url = createObjectURL.call(URL, object);
    try { if (object instanceof Blob) blobs.set(url, object); } catch (e) {}
    return url;
  };
  // data: URLs the page's script makes of pixels (a canvas, a blob read back); others are the site's assets.
  const made = new Set();
  if (canvasProto && typeof canvasProto.toDataURL === 'function') {
    const toDataURL = canvasProto.toDataURL;
    canvasProto.toDataURL = function (...args) { const url = toDataURL.apply(this, args); made.add(url); return url; };
  }
  const readerProto = globalThis.FileReader && FileReader.prototype;
  wrap(readerProto, 'readAsDataURL', (reader) => reader.addEventListener('load', () => made.add(String(reader.result))));
  Object.defineProperty(globalThis, '__tackSeen', { value: { canvases, blobs, made } });
})();`;

/** Runs in the page (a string, so that tack's own code needs no DOM types). */
const SEE = `(async () => {
  const tap = globalThis.__tackSeen;
  const parts = [];
  const unreadable = [];
  const add = (where, text) => { if (text && String(text).trim() !== '') parts.push({ where, text: String(text) }); };
  // Rendered, and on the page where a person can see it: not pushed off it (left: -9999px) nor
  // clipped to a pixel (the usual ways to keep a copy helper out of sight).
  const onPage = (el) => {
    const r = el.getBoundingClientRect();
    const width = Math.max(document.documentElement.scrollWidth, innerWidth);
    const height = Math.max(document.documentElement.scrollHeight, innerHeight);
    return r.width > 1 && r.height > 1 && r.right + scrollX > 0 && r.bottom + scrollY > 0 && r.left + scrollX < width && r.top + scrollY < height;
  };
  const shown = (el) => (typeof el.checkVisibility === 'function'
    ? el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
    : el.getClientRects().length > 0) && onPage(el);
  const cssStrings = (content) => {
    const out = [];
    const re = /"((?:[^"\\\\]|\\\\.)*)"|'((?:[^'\\\\]|\\\\.)*)'/g;
    let m;
    while ((m = re.exec(content)) !== null) {
      out.push((m[1] ?? m[2]).replace(/\\\\([0-9a-fA-F]{1,6})\\s?/g, (_, h) => String.fromCodePoint(parseInt(h, 16))).replace(/\\\\(.)/g, '$1'));
    }
    return out.join('');
  };
  const svgText = (markup) => markup.replace(/<style[\\s\\S]*?<\\/style>/gi, ' ').replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  const image = async (url, what) => {
    if (url.startsWith('data:')) {
      const comma = url.indexOf(',');
      const head = url.slice(5, comma);
      if (!/^image\\/svg\\+xml/i.test(head) && !/^text\\//i.test(head)) {
        // A raster image written in the HTML (an inlined logo) is the site's, as one loaded from a URL.
        if (!tap || tap.made.has(url)) unreadable.push(what + ' made in the page (' + (head.split(';')[0] || 'data') + ')');
        return;
      }
      const body = url.slice(comma + 1);
      let text;
      try {
        text = /;base64/i.test(head) ? new TextDecoder().decode(Uint8Array.from(atob(body), (c) => c.charCodeAt(0))) : decodeURIComponent(body);
      } catch (e) {
        return unreadable.push(what + ' (undecodable data: URL)');
      }
      return add('an image', svgText(text));
    }
    if (url.startsWith('blob:')) {
      const blob = tap && tap.blobs.get(url);
      const readable = blob && (/^image\\/svg\\+xml/i.test(blob.type) || /^text\\//i.test(blob.type));
      if (!readable) return unreadable.push(what + ' made in the page (' + ((blob && blob.type) || 'blob') + ')');
      return add('an image', svgText(await blob.text()));
    }
  };
  add('the title', document.title);
  if (!document.body) return { parts, unreadable };
  add('the text', document.body.innerText);
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el)) continue;
    const tag = el.tagName.toLowerCase();
    if (tag === 'input') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      if (type === 'password') add('a form field', '•'.repeat(el.value.length));
      else if (!['hidden', 'checkbox', 'radio', 'file', 'range', 'color', 'image'].includes(type)) add('a form field', el.value);
    } else if (tag === 'textarea') add('a form field', el.value);
    else if (tag === 'select') add('a form field', Array.from(el.selectedOptions).map((o) => o.text).join(' '));
    for (const pseudo of ['::before', '::after']) {
      const content = getComputedStyle(el, pseudo).content;
      if (content && content !== 'none' && content !== 'normal') add('generated content', cssStrings(content));
    }
    if (tag === 'canvas') {
      const n = tap && tap.canvases.get(el);
      if (!tap) unreadable.push('a canvas (its drawing could not be followed)');
      else if (n) {
        for (const t of n.texts) add('a canvas', t);
        if (n.opaque) unreadable.push('a canvas given pixels (an image, image data, WebGL or a worker)');
      }
    }
    if (tag === 'img' && el.currentSrc) await image(el.currentSrc, 'an image');
    const background = getComputedStyle(el).backgroundImage;
    const urls = background && background !== 'none' ? background.match(/url\\("([^"]*)"\\)/g) || [] : [];
    for (const u of urls) await image(u.slice(5, -2), 'a background image');
  }
  return { parts, unreadable };
})()`;

/** What a person sees on the page now. */
export function seeOnPage(page: Page): Promise<Seen> {
  return page.evaluate<Seen>(SEE);
}

/**
 * What an element shows a person: a field's value (a password field: one bullet a character), or
 * its text. Empty when it is gone.
 */
export async function shownBy(locator: Locator): Promise<string> {
  // evaluateAll: a gone element answers at once (evaluate would wait for it).
  // Stryker disable all: this function runs in the page, where Stryker's mutant switches do not exist.
  const texts = await locator
    .evaluateAll((nodes: unknown[]) =>
      nodes.slice(0, 1).map((node) => {
        const el = node as { tagName: string; value: string; innerText?: string; textContent: string | null; getAttribute(name: string): string | null };
        const tag = el.tagName.toLowerCase();
        if (tag === 'textarea') return el.value;
        if (tag === 'input') return (el.getAttribute('type') ?? '').toLowerCase() === 'password' ? '•'.repeat(el.value.length) : el.value;
        return el.innerText ?? el.textContent ?? '';
      }),
    )
    // Stryker restore all
    .catch(() => [] as string[]);
  return (texts[0] ?? '').trim();
}
