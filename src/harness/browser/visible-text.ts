/**
 * What a person sees on a page, as text: the one definition the token-page verdicts (masked,
 * cleared, shown once, no list) and the screenshot guard share.
 *
 * - the title (the tab shows it) and the visible text (as it renders, a line break around each block; SVG text included);
 * - the values of visible form fields: text boxes, read-only ones included, text areas, the chosen
 *   option, button labels; a password field shows one bullet per character, never its value;
 * - generated content (`::before`, `::after`, `::marker`: quoted strings and `attr()`, as the browser
 *   computes them; the `quotes` strings of open-quote and close-quote; a list marker given as a string);
 *   a text box's placeholder while it is empty; the text of an SVG image its own origin serves;
 * - text drawn on a visible canvas (`fillText`, `strokeText`), and the text of an SVG image given
 *   as a `data:` or `blob:` URL (an `<img>` or a CSS background);
 * - in every shadow root, open or closed, and every frame a person sees, of any origin (`seeOnPage`).
 *
 * Only what a person can see counts: not what is hidden, transparent (`filter: opacity(0)` too), of
 * size 0, clipped to a pixel, under an opaque box or pushed off the page (a copy helper). What the page holds out of their sight is `held`, for an
 * observation, never a failure.
 *
 * A canvas or an image cannot be read like text (no OCR): what a page draws is learnt as it draws,
 * by `SEEN_TAP`, an init script every context of the run gets (web.ts). What tack cannot read, a
 * canvas given pixels (`drawImage`, `putImageData`, a WebGL or bitmap context, one drawn in a
 * worker) or a raster image made in the page (a `blob:` URL, a `data:` URL its script made of a
 * canvas or a blob), is listed as `unreadable`: a verdict that depends on it is not verified, and no
 * screenshot is kept of it. Images loaded from a URL or written in the HTML as a `data:` URL are the
 * site's own assets (icons, logos): not what a page makes of a token it just received.
 */
import type { CDPSession, Locator, Page } from 'playwright-core';

/** One place of the page that shows text, and the text. */
export const PLACES = ['the title', 'the text', 'a form field', 'generated content', 'a canvas', 'an image'] as const;

export interface SeenPart {
  readonly where: (typeof PLACES)[number];
  readonly text: string;
  /** Shown inside a frame (an iframe of the page, of any origin). */
  readonly inFrame?: boolean;
}

export interface Seen {
  readonly parts: readonly SeenPart[];
  /** Canvases and images on screen whose content tack cannot read, in words. */
  readonly unreadable: readonly string[];
  /**
   * Everything the page holds, seen or not (markup, shadow roots, frames, field values but a
   * password's, session and local storage): where a token nobody sees can still be noticed.
   */
  readonly held: string;
}

/** Everything of `seen` as one text. */
export function seenText(seen: Seen): string {
  return seen.parts.map((p) => p.text).join('\n');
}

/** White space, zero-width and format characters (U+200B–U+200F, U+2060, U+FEFF) and soft hyphens: not drawn between a value's characters. */
// Stryker disable next-line Regex: taken out one by one or in runs, the same characters are gone.
const UNDRAWN = /[\s\u00ad\u200b-\u200f\u2060\ufeff]+/g;

/** Text as matched: without the characters a page can put between a value's characters unseen (one character a line, a space every 4). */
export function drawnText(text: string): string {
  return text.replace(UNDRAWN, '');
}

/** Pieces of a value a person reads as part of it, and the part of it they must cover to count as the whole (pieces put in another order). */
const PIECE = 6;
const COVERED = 0.75;

/**
 * `text` shows `value`: as it is, or reversed (bidi override), once undrawn characters are gone
 * (`drawnText`); or a value of 16 characters and more in pieces of 6 characters and more that
 * together cover 75% of its characters, in any order. A masked form (4 characters, bullets,
 * 4 characters) shows no piece of 6.
 */
export function showsValue(text: string, value: string): boolean {
  const wanted = drawnText(value);
  if (wanted === '') return false;
  const drawn = drawnText(text);
  const reversed = [...wanted].reverse().join('');
  if (drawn.includes(wanted) || drawn.includes(reversed)) return true;
  if (wanted.length < 16) return false;
  const cover = (v: string, t: string): number => {
    const covered = new Uint8Array(v.length);
    for (let i = 0; i + PIECE <= v.length; i++) if (t.includes(v.slice(i, i + PIECE))) covered.fill(1, i, i + PIECE);
    return covered.reduce((sum, c) => sum + c, 0) / v.length;
  };
  return cover(wanted, drawn) >= COVERED || cover(reversed, drawn) >= COVERED;
}

/** Where `value` is shown (each place once), in the order of `SeenPart.where`; inside a frame, said so. */
export function whereShown(seen: Seen, value: string): string[] {
  const places = new Set(seen.parts.filter((p) => showsValue(p.text, value)).map((p) => (p.inFrame ? `${p.where} in a frame` : p.where)));
  return PLACES.flatMap((place) => [place, `${place} in a frame`]).filter((place) => places.has(place));
}

/** `value` is in the page (`Seen.held`) but nowhere a person sees it. */
export function heldUnseen(seen: Seen, value: string): boolean {
  return value !== '' && seen.held.includes(value) && whereShown(seen, value).length === 0;
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

/**
 * Runs in a document (`this`), given its closed shadow roots and its frame elements (a string, so
 * that tack's own code needs no DOM types). Walks the document as it renders (the flat tree: shadow
 * roots in place of their hosts' children, slotted nodes in their slots) and keeps what a person
 * sees; says which frame elements are seen; `held` is everything the document holds, seen or not.
 */
const SEE = `async function (closedCount, ...handles) {
  const doc = this;
  const win = doc.defaultView;
  const tap = win.__tackSeen;
  const closed = handles.slice(0, closedCount);
  const frameElements = handles.slice(closedCount);
  const closedOf = new Map(closed.map((root) => [root.host, root]));
  const rootOf = (el) => el.shadowRoot || closedOf.get(el) || null;
  const parts = [];
  const unreadable = [];
  const add = (where, text) => { if (text && String(text).trim() !== '') parts.push({ where, text: String(text) }); };
  const css = (el, pseudo) => win.getComputedStyle(el, pseudo);
  // The parent each node renders in (a slot, a shadow host): learnt by the walk below.
  const flatParent = new Map();
  const up = (el) => flatParent.get(el) || el.parentElement || (el.parentNode && el.parentNode.host) || null;
  const alpha = (color) => {
    if (!color || color === 'transparent') return 0;
    const rgba = /^rgba?\\(([^)]*)\\)/.exec(color);
    const values = rgba ? rgba[1].split(/[\\s,\\/]+/).filter(Boolean) : [];
    if (rgba) return values.length > 3 ? parseFloat(values[3]) * (values[3].endsWith('%') ? 0.01 : 1) : 1;
    const slash = /\\/\\s*([\\d.]+%?)\\s*\\)$/.exec(color);
    return slash ? parseFloat(slash[1]) * (slash[1].endsWith('%') ? 0.01 : 1) : 1;
  };
  // Ink: text drawn in a colour a person can see (color, -webkit-text-fill-color; a shadow, a stroke
  // or a background clipped to the text draw it too), at a size above 0.
  const inked = (s) => parseFloat(s.fontSize) > 0
    && (alpha(s.webkitTextFillColor || s.color) > 0 || s.textShadow !== 'none' || parseFloat(s.webkitTextStrokeWidth) > 0);
  const clippedText = (el) => {
    for (let a = el; a; a = up(a)) if (/text/.test(css(a).backgroundClip || css(a).webkitBackgroundClip || '')) return true;
    return false;
  };
  // Rendered: not display: none, visibility: hidden, opacity: 0 (on it or an ancestor, across shadow roots).
  // filter: opacity(0) on it or an ancestor hides it as opacity: 0 does.
  const filteredOut = (el) => {
    for (let a = el; a; a = up(a)) if (/opacity\\(\\s*0*(\\.0*)?%?\\s*\\)/.test(css(a).filter || '')) return true;
    return false;
  };
  const rendered = (el) =>
    (typeof el.checkVisibility !== 'function' || el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) && !filteredOut(el);
  const box = (r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
  const meet = (a, b) =>
    ({ left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) });
  const px = (v, whole) => (v.endsWith('%') ? (parseFloat(v) / 100) * whole : parseFloat(v) || 0);
  // clip: rect(top, right, bottom, left) of an absolutely positioned element; clip-path: inset(), circle(0), ellipse(0).
  const clipBox = (el, s) => {
    const r = box(el.getBoundingClientRect());
    let out = null;
    if ((s.position === 'absolute' || s.position === 'fixed') && s.clip && s.clip.startsWith('rect(')) {
      const [t, ri, b, l] = s.clip.slice(5, -1).split(/[\\s,]+/).filter(Boolean);
      const at = (v, edge, from) => (v === undefined || v === 'auto' ? edge : from + parseFloat(v));
      out = { left: at(l, r.left, r.left), top: at(t, r.top, r.top), right: at(ri, r.right, r.left), bottom: at(b, r.bottom, r.top) };
    }
    const path = s.clipPath || 'none';
    if (path.startsWith('inset(')) {
      const v = path.slice(6, -1).split(/\\s+round\\s+/)[0].split(/\\s+/).filter(Boolean);
      const [t, ri = t, b = t, l = ri] = v;
      const w = r.right - r.left;
      const h = r.bottom - r.top;
      const inset = { left: r.left + px(l, w), top: r.top + px(t, h), right: r.right - px(ri, w), bottom: r.bottom - px(b, h) };
      out = out ? meet(out, inset) : inset;
    } else if (/^(circle|ellipse)\\(0(px|%)?[\\s)]/.test(path)) out = { left: r.left, top: r.top, right: r.left, bottom: r.top };
    return out;
  };
  // A box that hides what overflows it (a box a person can scroll hides nothing, unless it is a pixel wide).
  const hides = (s) => /hidden|clip/.test(s.overflowX + s.overflowY);
  const scrollable = (s) => /auto|scroll/.test(s.overflowX + s.overflowY);
  const topLayer = (el) => {
    try {
      return el.matches(':modal, :popover-open');
    } catch (e) {
      return false;
    }
  };
  const overflows = (s, r) => hides(s) || (scrollable(s) && (r.width <= 1 || r.height <= 1));
  const boxless = (s) => s.display === 'contents' || s.display === 'inline';
  const containsFixed = (s) => s.transform !== 'none' || s.filter !== 'none' || s.perspective !== 'none' || /paint|layout|strict|content/.test(s.contain || '');
  // Where a box (a text's, or an element's own) can be seen once every ancestor that clips it has:
  // its own overflow when it holds the text, clip and clip-path of it and its ancestors, the overflow
  // of each ancestor its containing block lies in (an absolutely positioned box escapes static ones).
  const clipped = (el, r, ownContent) => {
    let b = box(r);
    let s = css(el);
    const mine = el.getBoundingClientRect();
    if (ownContent && overflows(s, mine) && !boxless(s) && el !== doc.body && el !== doc.documentElement) b = meet(b, box(mine));
    const own = clipBox(el, s);
    if (own) b = meet(b, own);
    let position = s.position;
    // A modal dialog or an open popover is drawn above the page: no ancestor clips it.
    for (let node = el; !topLayer(node); node = up(node)) {
      const a = up(node);
      if (!a || a === doc.body || a === doc.documentElement) break;
      s = css(a);
      const contains = position === 'fixed' ? containsFixed(s) : position === 'absolute' ? s.position !== 'static' || containsFixed(s) : true;
      const r = a.getBoundingClientRect();
      if (contains && overflows(s, r) && !boxless(s)) b = meet(b, box(r));
      const c = clipBox(a, s);
      if (c) b = meet(b, c);
      if (contains) position = s.position;
    }
    return b;
  };
  // On the page where a person can see it: larger than a pixel, not pushed off it (left: -9999px).
  const onPage = (b) => {
    const width = Math.max(doc.documentElement.scrollWidth, win.innerWidth);
    const height = Math.max(doc.documentElement.scrollHeight, win.innerHeight);
    return b.right - b.left > 1 && b.bottom - b.top > 1
      && b.right + win.scrollX > 0 && b.bottom + win.scrollY > 0 && b.left + win.scrollX < width && b.top + win.scrollY < height;
  };
  const seenBox = (el) => rendered(el) && onPage(clipped(el, el.getBoundingClientRect(), false));
  const inkSeen = (el) => inked(css(el)) || clippedText(el);
  // An opaque element drawn over all of a text's box (a white box at inset: 0) hides it: the topmost
  // element at its centre and corners is another, fully opaque, with an opaque background. Text that
  // lets the pointer through (pointer-events: none) is never taken for covered.
  const opaque = (el) => {
    if (alpha(css(el).backgroundColor) < 1) return false;
    for (let a = el; a; a = up(a)) if (parseFloat(css(a).opacity) < 1 || css(a).filter !== 'none' || css(a).mixBlendMode !== 'normal') return false;
    return true;
  };
  const covered = (el, r) => {
    if (css(el).pointerEvents === 'none' || r.width < 2 || r.height < 2) return false;
    const scope = typeof el.getRootNode === 'function' && el.getRootNode().elementFromPoint ? el.getRootNode() : doc;
    const points = [[0.5, 0.5], [0.05, 0.1], [0.95, 0.1], [0.05, 0.9], [0.95, 0.9]];
    for (const [fx, fy] of points) {
      const x = r.left + fx * r.width;
      const y = r.top + fy * r.height;
      if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return false;
      const hit = scope.elementFromPoint(x, y);
      if (!hit || hit === el || hit.contains(el) || el.contains(hit) || !opaque(hit)) return false;
      const h = hit.getBoundingClientRect();
      if (x < h.left || x > h.right || y < h.top || y > h.bottom) return false; // a backdrop, not the box
    }
    return true;
  };
  // The nearest element with a box of its own (a slot, an element of display: contents, has none).
  const boxed = (el) => { let b = el; while (b && css(b).display === 'contents') b = up(b); return b || el; };
  const textSeen = (node, el) => {
    if (!rendered(boxed(el)) || !inkSeen(el)) return false;
    const range = doc.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) if (onPage(clipped(el, r, true)) && !covered(el, r)) return true;
    return false;
  };
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
  const element = async (el) => {
    if (!seenBox(el)) return;
    const tag = el.localName;
    const ink = inkSeen(el);
    if (tag === 'input') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      if (type === 'password') add('a form field', '•'.repeat(el.value.length));
      else if (ink && !['hidden', 'checkbox', 'radio', 'file', 'range', 'color', 'image'].includes(type)) add('a form field', el.value);
    } else if (tag === 'textarea' && ink) add('a form field', el.value);
    else if (tag === 'select' && ink) add('a form field', Array.from(el.selectedOptions).map((o) => o.text).join(' '));
    // A text box shows its placeholder while empty.
    if ((tag === 'input' || tag === 'textarea') && el.value === '' && el.getAttribute('placeholder') && inked(css(el, '::placeholder'))) {
      add('a form field', el.getAttribute('placeholder'));
    }
    for (const pseudo of ['::before', '::after', '::marker']) {
      const s = css(el, pseudo);
      const content = s.content;
      const drawn = s.display !== 'none' && (inked(s) || clippedText(el));
      if (!drawn || (pseudo === '::marker' && css(el).display !== 'list-item')) continue;
      if (content && content !== 'none' && content !== 'normal') add('generated content', cssStrings(content));
      // open-quote and close-quote draw the strings of \`quotes\` (a <q> does by default).
      const quoted = /open-quote|close-quote/.test(content || '') && s.quotes && s.quotes !== 'none' && s.quotes !== 'auto';
      if (quoted) add('generated content', cssStrings(s.quotes));
    }
    // A list item's marker given as a string (list-style-type: 'text').
    const itemStyle = css(el);
    if (itemStyle.display === 'list-item' && /^["']/.test(itemStyle.listStyleType || '')) add('generated content', cssStrings(itemStyle.listStyleType));
    if (tag === 'canvas') {
      const n = tap && tap.canvases.get(el);
      if (!tap) unreadable.push('a canvas (its drawing could not be followed)');
      else if (n) {
        for (const t of n.texts) add('a canvas', t);
        if (n.opaque) unreadable.push('a canvas given pixels (an image, image data, WebGL or a worker)');
      }
    }
    if (tag === 'img' && el.currentSrc) await image(el.currentSrc, 'an image');
    // An SVG image served by the page's own origin: its text, as the browser fetched it (from its cache).
    if (tag === 'img' && /^https?:/.test(el.currentSrc) && new URL(el.currentSrc).origin === win.location.origin) {
      try {
        const response = await win.fetch(el.currentSrc, { signal: AbortSignal.timeout(2000) });
        if (/svg/i.test(response.headers.get('content-type') || '')) add('an image', svgText(await response.text()));
      } catch (e) {}
    }
    const background = css(el).backgroundImage;
    const urls = background && background !== 'none' ? background.match(/url\\("([^"]*)"\\)/g) || [] : [];
    for (const u of urls) await image(u.slice(5, -2), 'a background image');
  };
  // The text as it renders, a line break around each block, only the parts a person sees.
  let text = '';
  const SKIP = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'frame', 'object', 'embed', 'head', 'title']);
  const walk = async (node, parent) => {
    if (parent) flatParent.set(node, parent);
    if (node.nodeType === 3) {
      if (parent && textSeen(node, parent)) text += /^pre/.test(css(parent).whiteSpace) ? node.data : node.data.replace(/\\s+/g, ' ');
      return;
    }
    if (node.nodeType !== 1 || SKIP.has(node.localName)) return;
    if (node.localName === 'br') { text += '\\n'; return; }
    await element(node);
    const block = !/^inline|^contents$|^none$/.test(css(node).display);
    if (block) text += '\\n';
    const root = rootOf(node);
    const assigned = node.localName === 'slot' && typeof node.assignedNodes === 'function' ? node.assignedNodes() : [];
    const children = root ? root.childNodes : assigned.length > 0 ? assigned : node.childNodes;
    for (const child of Array.from(children)) await walk(child, node);
    if (block) text += '\\n';
  };
  // The tab shows the title of the top document only.
  if (win === win.top) add('the title', doc.title);
  if (doc.body) await walk(doc.body, null);
  add('the text', text.split('\\n').map((line) => line.replace(/ +/g, ' ').trim()).filter((line) => line !== '').join('\\n'));
  // Everything the document holds, seen or not: its markup, that of every shadow root, every field's value but a password.
  const held = [doc.documentElement ? doc.documentElement.outerHTML : ''];
  const scopes = [doc];
  for (let i = 0; i < scopes.length; i++) {
    for (const el of scopes[i].querySelectorAll('*')) {
      const root = rootOf(el);
      if (root) { scopes.push(root); held.push(root.innerHTML); }
      if ((el.localName === 'input' && (el.getAttribute('type') || '').toLowerCase() !== 'password') || el.localName === 'textarea') held.push(el.value);
    }
  }
  // And the document's storage (a token kept there to be drawn again).
  for (const area of ['sessionStorage', 'localStorage']) {
    try {
      const store = win[area];
      for (let i = 0; i < store.length; i++) held.push(store.getItem(store.key(i)) || '');
    } catch (e) {}
  }
  return { parts, unreadable, held: held.join('\\n'), frames: frameElements.map((f) => seenBox(f)) };
}`;

/** A node of CDP's `DOM.getDocument` (the fields read here). */
interface DomNode {
  readonly backendNodeId: number;
  readonly nodeType: number;
  readonly localName?: string;
  readonly frameId?: string;
  readonly shadowRootType?: 'open' | 'closed' | 'user-agent';
  readonly children?: readonly DomNode[];
  readonly shadowRoots?: readonly DomNode[];
  readonly contentDocument?: DomNode;
}

interface DocumentSeen {
  readonly parts: SeenPart[];
  readonly unreadable: string[];
  readonly held: string;
  readonly frames: boolean[];
}

/** A document's closed shadow roots and frame elements (user-agent roots are the browser's: a field's value is read as a value). */
function scan(doc: DomNode): { closed: DomNode[]; frames: DomNode[] } {
  const closed: DomNode[] = [];
  const frames: DomNode[] = [];
  const visit = (node: DomNode): void => {
    for (const root of node.shadowRoots ?? []) {
      if (root.shadowRootType === 'user-agent') continue;
      if (root.shadowRootType === 'closed') closed.push(root);
      visit(root);
    }
    if (node.localName === 'iframe' || node.localName === 'frame') frames.push(node);
    else for (const child of node.children ?? []) visit(child);
  };
  visit(doc);
  return { closed, frames };
}

/**
 * What a person sees on a page now: every frame shown on it (same-origin or not) and every shadow
 * root, open or closed. The tree is read through the browser's own DevTools protocol (CDP
 * `DOM.getDocument` with `pierce`): a closed shadow root is out of a page script's reach, and of
 * Playwright's selectors, but not of the protocol; declarative shadow roots (server-rendered
 * components) included, and nothing of the page changed. A frame in another process (site
 * isolation; tack's browser runs without it) is read through its own session; one that cannot be
 * read is `unreadable`.
 */
export async function seeOnPage(page: Page): Promise<Seen> {
  const { documents, unreachable } = await inEveryDocument<DocumentSeen>(page, SEE);
  const parts: SeenPart[] = [];
  const unreadable: string[] = [];
  const held: string[] = [];
  for (const { value, shown, inFrame } of documents) {
    held.push(value.held);
    if (shown) {
      parts.push(...value.parts.map((p) => (inFrame ? { ...p, inFrame } : p)));
      unreadable.push(...value.unreadable);
    } else held.push(...value.parts.map((p) => p.text));
  }
  if (unreachable) unreadable.push('a frame whose page tack could not read');
  return { parts, unreadable, held: held.join('\n') };
}

/** What a function answered in one document of the page, and whether a person sees that document. */
interface InDocument<T> {
  readonly value: T;
  readonly shown: boolean;
  readonly inFrame: boolean;
}

/**
 * Runs `fn` in every document of the page, frames of any origin included, and says which a person
 * sees. `fn` is a function's source: `this` is the document; its arguments are the number of the
 * document's closed shadow roots, those roots, then its frame elements; it answers with `frames`,
 * whether a person sees each of them. `unreachable`: a frame a person sees could not be read.
 */
async function inEveryDocument<T extends { readonly frames: readonly boolean[] }>(
  page: Page,
  fn: string,
): Promise<{ documents: InDocument<T>[]; unreachable: boolean }> {
  // A node removed, or a frame gone, between reading the tree and running in it: read again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await inEveryDocumentOnce<T>(page, fn);
    } catch (error) {
      if (attempt >= 3 || page.isClosed()) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

async function inEveryDocumentOnce<T extends { readonly frames: readonly boolean[] }>(
  page: Page,
  fn: string,
): Promise<{ documents: InDocument<T>[]; unreachable: boolean }> {
  const documents: InDocument<T>[] = [];
  /** Frames whose document was not in the tree read (another process): frame id → seen. */
  const elsewhere = new Map<string, boolean>();
  const read = async (session: CDPSession, doc: DomNode, shown: boolean, inFrame: boolean): Promise<void> => {
    const { closed, frames } = scan(doc);
    const handle = async (node: DomNode) => ({ objectId: (await session.send('DOM.resolveNode', { backendNodeId: node.backendNodeId })).object.objectId });
    const self = await handle(doc);
    const args = await Promise.all([...closed, ...frames].map(handle));
    const answer = await session.send('Runtime.callFunctionOn', {
      ...self,
      functionDeclaration: fn,
      arguments: [{ value: closed.length }, ...args],
      awaitPromise: true,
      returnByValue: true,
    });
    if (answer.exceptionDetails)
      throw new Error(`the page could not be read: ${answer.exceptionDetails.exception?.description?.split('\n')[0] ?? answer.exceptionDetails.text}`);
    const value = answer.result.value as T;
    documents.push({ value, shown, inFrame });
    for (const [i, frame] of frames.entries()) {
      const frameShown = shown && value.frames[i] === true;
      if (frame.contentDocument) await read(session, frame.contentDocument, frameShown, true);
      else if (frame.frameId !== undefined) elsewhere.set(frame.frameId, frameShown);
    }
  };
  const tree = async (session: CDPSession, shown: boolean, inFrame: boolean) => {
    try {
      const { root } = await session.send('DOM.getDocument', { depth: -1, pierce: true });
      await read(session, root as DomNode, shown, inFrame);
    } finally {
      await session.detach().catch(() => undefined);
    }
  };
  await tree(await page.context().newCDPSession(page), true, false);
  if (elsewhere.size > 0) {
    for (const frame of page.frames()) {
      const session = await page
        .context()
        .newCDPSession(frame)
        .catch(() => undefined); // a frame in the page's own process has no session of its own
      if (session === undefined) continue;
      const id = ((await session.send('Page.getFrameTree').catch(() => undefined))?.frameTree.frame.id ?? '') as string;
      if (!elsewhere.has(id)) {
        await session.detach().catch(() => undefined);
        continue;
      }
      await tree(session, elsewhere.get(id) === true, true);
      elsewhere.delete(id);
    }
  }
  return { documents, unreachable: [...elsewhere.values()].some((shown) => shown) };
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

/**
 * The element is on screen and a person sees what it shows (a line of its text or its value is
 * among `seen`): a copy helper off the page or transparent that holds the token is not a token shown.
 */
export async function seenElement(locator: Locator, seen: Seen): Promise<boolean> {
  if (!(await locator.isVisible().catch(() => false))) return false;
  const lines = (await shownBy(locator)).split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
  return lines.some((line) => line !== '' && whereShown(seen, line).length > 0);
}

/**
 * What lists tokens on the page, in every shadow root and every frame a person sees, outside
 * navigation, described in a few words: visible lists,
 * tables and grids (by element or role) that speak of tokens, but lists of help sentences; and any visible element, however it
 * is built (rows of `<div>`s), that names the live token by its last 4 characters, other than the
 * token shown again in its masked form (TOKEN-PAGE-SHOWN-ONCE's to judge). The 4 characters are
 * left out of the description.
 */
export async function tokenLists(page: Page, token: string, masked: string): Promise<string[]> {
  const { documents } = await inEveryDocument<{ found: string[]; frames: boolean[] }>(page, listsIn(token, masked));
  return documents.filter((d) => d.shown).flatMap((d) => d.value.found.map((found) => (d.inFrame ? `${found} (in a frame)` : found)));
}

/** The function `tokenLists` runs in each document (./visible-text.ts `inEveryDocument`): every shadow root's elements too. */
function listsIn(token: string, masked: string): string {
  const tail = JSON.stringify(token.slice(-4));
  return `function (closedCount, ...handles) {
    const doc = this;
    const closedOf = new Map(handles.slice(0, closedCount).map((root) => [root.host, root]));
    const scopes = [doc];
    for (let i = 0; i < scopes.length; i++) {
      for (const el of scopes[i].querySelectorAll('*')) { const root = el.shadowRoot || closedOf.get(el); if (root) scopes.push(root); }
    }
    const all = scopes.flatMap((scope) => Array.from(scope.querySelectorAll('*')));
    const tail = ${tail};
    const masked = ${JSON.stringify(masked.trim())};
    const shown = (el) => (typeof el.checkVisibility === 'function'
      ? el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
      : el.offsetParent !== null);
    const inNav = (el) => {
      for (let a = el; a; a = a.parentElement || (a.parentNode && a.parentNode.host) || null) if (a.matches('nav, [role=navigation]')) return true;
      return false;
    };
    // Its text without that of the navigation inside it.
    const outsideNav = (el) => {
      let text = el.innerText || '';
      for (const nav of el.querySelectorAll('nav, [role=navigation]')) text = text.replace(nav.innerText || '', ' ');
      return text;
    };
    const month = /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?/.source;
    const date = '(?:' + [
      /\\d{4}-\\d{2}-\\d{2}|\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}/.source,
      /\\d{1,2}\\s+/.source + month,
      month + /\\s+\\d{1,2}\\b/.source,
      /today|yesterday|just now|never|(?:\\d+|an?|one)\\s+(?:second|minute|hour|day|week|month|year)s?\\s+ago|in\\s+\\d+\\s+(?:day|week|month)s?/.source,
    ].join('|') + ')';
    // A list of help (sentences about tokens): every item a sentence, without a date, a control, a
    // token's characters or a masked form. A list of tokens has items about distinct tokens: names,
    // dates, characters, a revoke or delete control each.
    const helpList = (list) => {
      if (!list.matches('ul, ol, [role=list]')) return false;
      const items = Array.from(list.querySelectorAll('li, [role=listitem]'));
      const dated = new RegExp(date, 'i');
      return items.length > 0 && items.every((item) => {
        const text = (item.innerText || '').replace(/\\s+/g, ' ').trim();
        return /[.!?]$/.test(text) && text.split(' ').length >= 4 && !dated.test(text) && !/[•●*]{4,}/.test(text) && !text.includes(tail)
          && !item.querySelector('button, input, select, [role=button], [role=checkbox], [role=switch]');
      });
    };
    const out = [];
    const lists = 'ul, ol, dl, table, [role=list], [role=table], [role=grid], [role=treegrid], [role=listbox], [role=feed], [role=rowgroup]';
    for (const el of all) {
      if (!el.matches(lists) || inNav(el) || !shown(el)) continue;
      const text = (el.innerText || '').replace(/\\s+/g, ' ').trim();
      if (!/token|generated|created|expires|last used|revoke|[•●*]{4,}/i.test(text)) continue;
      const items = el.querySelectorAll('li, tr, dt, [role=listitem], [role=row], [role=option], [role=article]').length;
      if (helpList(el)) continue;
      out.push(el.tagName.toLowerCase() + ' of ' + items + ' item(s): "' + text.split(tail).join('…').slice(0, 80) + '"');
    }
    const part = (c) => c !== undefined && /[A-Za-z0-9_-]/.test(c);
    // The 4 characters as a word of their own (not inside a longer run of token characters).
    const names = { test: (text) => {
      for (let i = text.indexOf(tail); i >= 0; i = text.indexOf(tail, i + 1)) if (!part(text[i - 1]) && !part(text[i + 4])) return true;
      return false;
    } };
    const naming = [];
    for (const el of all) {
      if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'HTML', 'HEAD', 'TITLE', 'BODY'].includes(el.tagName) || inNav(el) || !shown(el)) continue;
      const text = outsideNav(el);
      if (!names.test(text) || (masked !== '' && text.includes(masked))) continue;
      naming.push(el);
    }
    for (const el of naming) {
      if (naming.some((other) => other !== el && el.contains(other))) continue;
      const text = (el.innerText || '').replace(/\\s+/g, ' ').trim();
      out.push(el.tagName.toLowerCase() + ' naming the live token by its last 4 characters: "' + text.split(tail).join('…').slice(0, 80) + '"');
    }
    // Rows of any markup that say when a token was made or used, without a character of it: a date
    // (or "today", "3 minutes ago", "never") after "created", "last used", "expires"...: two of them,
    // or one on a line that says token or key. The smallest element that does.
    const detail = /\\b(?:created|generated|issued|added|last used|used|expires|expired|expiry|revoked)\\b[\\s:,–-]{0,4}(?:on\\s+|at\\s+)?/.source + date;
    const word = /\\b(?:tokens?|keys?)\\b/.source;
    const details = (text) => (text.match(new RegExp(detail, 'gi')) || []).length;
    const aboutToken = new RegExp(word + '[^\\n]*' + detail + '|' + detail + '[^\\n]*' + word, 'i');
    const dated = [];
    for (const el of all) {
      if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'HTML', 'HEAD', 'TITLE', 'BODY'].includes(el.tagName) || inNav(el) || !shown(el)) continue;
      const text = outsideNav(el);
      if (details(text) >= 2 || aboutToken.test(text)) dated.push(el);
    }
    for (const el of dated) {
      if (dated.some((other) => other !== el && el.contains(other))) continue;
      const text = (el.innerText || '').replace(/\\s+/g, ' ').trim();
      out.push(el.tagName.toLowerCase() + ' showing when a token was made or used: "' + text.split(tail).join('…').slice(0, 80) + '"');
    }
    const frames = handles.slice(closedCount).map((f) => {
      const r = f.getBoundingClientRect();
      return shown(f) && r.width > 1 && r.height > 1;
    });
    return { found: out, frames };
  }`;
}
