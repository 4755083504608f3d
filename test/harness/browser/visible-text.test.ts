/**
 * What a person sees on a page (src/harness/browser/visible-text.ts), read in one Chromium from small
 * pages set in place (no server, no tack run): the token in a read-only text box, drawn on a canvas,
 * in generated content, in the title, in an SVG image made in the page are all seen, each named; a
 * password field shows bullets, never its value; a hidden field is not seen; a canvas given pixels
 * and a raster image made in the page are unreadable (an inlined logo is not). The screenshot guard decides on the same: no
 * image is kept of a page that draws the token on a canvas, one is of a clean page. Issue 27: the token in a
 * shadow root (open, closed, declarative) or a frame (same-origin, cross-origin, served on *.localhost names
 * by routes) is seen and withholds the screenshot; a copy helper no person sees is not seen but held; rows of
 * <div>s that say when a token was made are a list of tokens.
 */
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAUNCH_ARGS } from '../../../src/harness/browser/browser-host.js';
import { findBrowser } from '../../../src/harness/browser/executable.js';
import { Locators } from '../../../src/harness/browser/locators.js';
import { shows } from '../../../src/harness/browser/token-page.js';
import { capturePage, WITHHELD_SECRET, WITHHELD_TOKEN_PAGE } from '../../../src/harness/browser/screenshot.js';
import { heldUnseen, SEEN_TAP, seeOnPage, seenElement, shownBy, tokenLists, whereShown } from '../../../src/harness/browser/visible-text.js';
import { Redactor } from '../../../src/harness/redactor.js';
import { scaled } from '../../helpers/time-limits.js';

const TOKEN = 'ipt_Vq3xR8mZ2kL0pT7sW1yB5nC9dF4gH6jK';
const found = findBrowser(process.env['TACK_BROWSER']);
if (!found.found) console.warn(`test/harness/browser/visible-text: not judged: ${found.reason}`);

/** A page that receives the token and shows it as `body` does (`show(token)` is its script). */
function page(body: string, script = ''): string {
  return `<!doctype html><title>Tokens</title><body>${body}<script>(() => { const token = ${JSON.stringify(TOKEN)}; ${script} })();</script></body>`;
}

describe.skipIf(!found.found)('what a person sees, in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: found.found ? found.path : '', args: LAUNCH_ARGS });
    context = await browser.newContext();
    await context.addInitScript(SEEN_TAP);
    tab = await context.newPage();
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
  });

  const seen = async (html: string) => {
    await tab.setContent(html);
    return seeOnPage(tab);
  };

  it('the token beside a masked one: in a text box, on a canvas, in generated content, in the title, in an SVG image', async () => {
    const masked = '<output>************H6jK</output>';
    const cases: [string, string, string][] = [
      ['a form field', `${masked} <input readonly id="t">`, "document.getElementById('t').value = token;"],
      ['a canvas', `${masked} <canvas id="c" width="400" height="20"></canvas>`, "document.getElementById('c').getContext('2d').fillText(token, 2, 12);"],
      [
        'generated content',
        `<style>#a::after { content: attr(data-t); }</style>${masked} <span id="a"></span>`,
        "document.getElementById('a').dataset.t = token;",
      ],
      ['the title', masked, "document.title = 'Your token ' + token;"],
      [
        'an image',
        `${masked} <img id="i" alt="">`,
        'const svg = \'<svg xmlns="http://www.w3.org/2000/svg"><text y="12">\' + token + \'</text></svg>\';' +
          "document.getElementById('i').src = 'data:image/svg+xml,' + encodeURIComponent(svg);",
      ],
    ];
    for (const [where, body, script] of cases) {
      const s = await seen(page(body, script));
      expect({ where, shown: whereShown(s, TOKEN) }).toEqual({ where, shown: [where] });
      expect(s.unreadable).toEqual([]);
    }
  });

  it('a password field shows bullets, a hidden or off-page field nothing; the token element shows what a person sees of it', async () => {
    const s = await seen(
      page(
        '<input type="password" id="p" data-testid="api-token"> <input id="h" style="display:none">' +
          '<input id="o" readonly style="position:absolute; left:-9999px">' +
          '<input id="c" style="position:absolute; width:1px; height:1px; padding:0; border:0; overflow:hidden; clip:rect(0 0 0 0)">',
        'p.value = token; h.value = token; o.value = token; c.value = token;',
      ),
    );
    // Hidden, pushed off the page, clipped to a pixel (a copy helper kept out of sight): not seen.
    expect(whereShown(s, TOKEN)).toEqual([]);
    expect(whereShown(s, '•'.repeat(TOKEN.length))).toEqual(['a form field']);
    expect(await shownBy(tab.getByTestId('api-token'))).toBe('•'.repeat(TOKEN.length));
    await tab.setContent(page('<output data-testid="api-token"> ****H6jK </output>'));
    expect(await shownBy(tab.getByTestId('api-token'))).toBe('****H6jK');
    expect(await shownBy(tab.getByTestId('nothing-here'))).toBe('');
    // An empty box the page always renders shows no token; one with a masked token, or a field with a value inside, does.
    await tab.setContent('<div data-testid="api-token" style="padding:8px; border:1px solid"></div><div data-testid="w"><input value="x"></div>');
    expect(await shows(tab.getByTestId('api-token'))).toBe(false);
    expect(await shows(tab.getByTestId('w'))).toBe(true);
    await tab.setContent('<div data-testid="api-token" style="padding:8px; border:1px solid">****H6jK</div>');
    expect(await shows(tab.getByTestId('api-token'))).toBe(true);
  });

  it('issue 27: the token in a shadow root (open, closed, declarative) or a frame (same-origin, cross-origin) is seen, and no screenshot kept', async () => {
    // Served on loopback names (*.localhost): the page, and a frame of another origin that gets the token in its URL's fragment.
    // Server-rendered components come as declarative shadow roots (made by the parser, no attachShadow to follow).
    const declarative = `<!doctype html><title>Tokens</title><x-token><template shadowrootmode="closed"><b>${TOKEN}</b></template></x-token>`;
    const framed = page('<iframe id="f" width="400" height="60"></iframe>', 'f.src = "http://frame.localhost/#" + token;');
    await context.route('http://page.localhost/**', (r) =>
      r.fulfill({ contentType: 'text/html', body: r.request().url().endsWith('/ssr') ? declarative : framed }),
    );
    await context.route('http://frame.localhost/**', (r) =>
      r.fulfill({
        contentType: 'text/html',
        body: '<body><div id="h"></div><script>h.attachShadow({ mode: "closed" }).innerHTML = "<sl-copy>" + location.hash.slice(1) + "</sl-copy>";</script>',
      }),
    );
    const masked = '<output data-testid="api-token">************H6jK</output>';
    const cases: [string, string, string, string][] = [
      ['an open shadow root (Lit)', `${masked} <x-token id="x"></x-token>`, "x.attachShadow({ mode: 'open' }).innerHTML = '<b>' + token + '</b>';", 'the text'],
      [
        'a closed shadow root (Stencil)',
        `${masked} <x-token id="x"></x-token>`,
        "x.attachShadow({ mode: 'closed' }).innerHTML = '<b>' + token + '</b>';",
        'the text',
      ],
      [
        "a field in a closed shadow root (Shoelace's sl-input)",
        `${masked} <sl-input id="x"></sl-input>`,
        "const root = x.attachShadow({ mode: 'closed' }); root.innerHTML = '<input readonly>'; root.querySelector('input').value = token;",
        'a form field',
      ],
      [
        'slotted into a closed shadow root',
        `${masked} <x-token id="x"><span id="s"></span></x-token>`,
        "x.attachShadow({ mode: 'closed' }).innerHTML = '<i><slot></slot></i>'; s.textContent = token;",
        'the text',
      ],
      ['a same-origin frame', `${masked} <iframe id="f" width="400" height="60"></iframe>`, "f.srcdoc = '<p>' + token + '</p>';", 'the text in a frame'],
    ];
    for (const [what, body, script, where] of cases) {
      await tab.setContent(page(body, script));
      if (what.includes('frame')) await tab.frameLocator('#f').locator('p').waitFor();
      expect({ what, shown: whereShown(await seeOnPage(tab), TOKEN) }).toEqual({ what, shown: [where] });
    }
    await tab.goto('http://page.localhost/ssr');
    expect(whereShown(await seeOnPage(tab), TOKEN)).toEqual(['the text']);
    await tab.goto('http://page.localhost/');
    await tab.frameLocator('#f').locator('body').waitFor();
    expect(whereShown(await seeOnPage(tab), TOKEN)).toEqual(['the text in a frame']);
    // The screenshot guard reads the same: no image of a page that shows the token in a frame or a shadow root.
    const redactor = new Redactor();
    redactor.register('api-token', TOKEN);
    expect(await capturePage(tab, new Locators(tab, {}), redactor, 'masked')).toMatchObject({ withheld: WITHHELD_SECRET });
    await tab.setContent(page(`${masked} <x-token id="x"></x-token>`, "x.attachShadow({ mode: 'closed' }).innerHTML = '<b>' + token + '</b>';"));
    expect(await capturePage(tab, new Locators(tab, {}), redactor, 'masked')).toMatchObject({ withheld: WITHHELD_SECRET });
    // A frame or a shadow root a person cannot see shows nothing.
    // The tab shows the top document's title, not a frame's.
    await tab.setContent(page('<iframe id="f" width="400" height="60"></iframe>', "f.srcdoc = '<title>' + token + '</title><p>Copy it now</p>';"));
    await tab.frameLocator('#f').locator('p').waitFor();
    const framedTitle = await seeOnPage(tab);
    expect({ shown: whereShown(framedTitle, TOKEN), held: heldUnseen(framedTitle, TOKEN) }).toEqual({ shown: [], held: true });
    const hiddenFrame = await seen(
      page(
        '<iframe id="f" style="display:none"></iframe><x-token id="x" hidden></x-token>',
        "f.srcdoc = token; x.attachShadow({ mode: 'closed' }).innerHTML = token;",
      ),
    );
    expect(whereShown(hiddenFrame, TOKEN)).toEqual([]);
  });

  it('issue 27: a copy helper a person cannot see holding the token is not seen, and is held', async () => {
    const helpers: [string, string][] = [
      ['pushed off the page', '<span id="x" style="position:absolute; left:-9999px"></span>'],
      [
        'clipped "sr-only"',
        '<span id="x" style="position:absolute; width:1px; height:1px; padding:0; margin:-1px; overflow:hidden; clip:rect(0,0,0,0); border:0"></span>',
      ],
      ['clip-path inset(50%)', '<span id="x" style="position:absolute; clip-path:inset(50%)"></span>'],
      ['opacity 0 on an ancestor', '<div style="opacity:0"><p><span id="x"></span></p></div>'],
      ['color: transparent', '<span id="x" style="color:transparent"></span>'],
      ['visibility: hidden', '<span id="x" style="visibility:hidden"></span>'],
      ['display: none', '<span id="x" style="display:none"></span>'],
      ['font-size 0', '<span id="x" style="font-size:0"></span>'],
      ['zero size, overflow hidden', '<div style="width:0; height:0; overflow:hidden"><span id="x"></span></div>'],
      ['a transparent text area (a range-select copy)', '<textarea id="x" style="position:fixed; top:0; left:0; opacity:0"></textarea>'],
      ['a text box of transparent text', '<input id="x" readonly style="color:transparent; width:300px">'],
    ];
    for (const [what, helper] of helpers) {
      const s = await seen(
        page(
          `<output data-testid="api-token">************H6jK</output> ${helper}`,
          "x.value = token; if (x.localName !== 'input' && x.localName !== 'textarea') x.textContent = token;",
        ),
      );
      expect({ what, shown: whereShown(s, TOKEN), held: heldUnseen(s, TOKEN) }).toEqual({ what, shown: [], held: true });
      expect(whereShown(s, '************H6jK')).toEqual(['the text']);
    }
    // Found by the token's text once the token element is gone, a helper off the page is "visible" to Playwright, not to a person.
    await tab.setContent(page('<span id="x" style="position:absolute; left:-9999px"></span>', 'x.textContent = token;'));
    const helper = await new Locators(tab, {}).token(TOKEN);
    expect([await helper.isVisible(), await seenElement(helper, await seeOnPage(tab))]).toEqual([true, false]);
    await tab.setContent(page('<output data-testid="api-token">************H6jK</output>'));
    expect(await seenElement(tab.getByTestId('api-token'), await seeOnPage(tab))).toBe(true);
    // What a person does see: aria-hidden text, gradient text (transparent, the background clipped to it),
    // a blurred shadow of it, a positioned box that escapes a zero-size static parent, a line scrolled out of its box.
    const shown: [string, string][] = [
      ['aria-hidden', '<span id="x" aria-hidden="true"></span>'],
      [
        'gradient text',
        '<span id="x" style="color:transparent; background:linear-gradient(red, blue); background-clip:text; -webkit-background-clip:text"></span>',
      ],
      ['a text shadow', '<span id="x" style="color:transparent; text-shadow:0 0 2px #000"></span>'],
      ['out of a zero-size static box', '<div style="width:0; height:0; overflow:hidden"><span id="x" style="position:absolute; top:40px"></span></div>'],
      ['scrolled out of its box', '<div style="height:40px; overflow:auto"><p style="height:200px"></p><span id="x"></span></div>'],
      ['a modal dialog inside a zero-size box', '<div style="width:0; height:0; overflow:hidden"><dialog id="d"><span id="x"></span></dialog></div>'],
      ['SVG text', '<svg width="400" height="30"><text id="x" x="0" y="20"></text></svg>'],
    ];
    for (const [what, helper] of shown) {
      const s = await seen(page(helper, "x.textContent = token; document.querySelector('dialog')?.showModal();"));
      expect({ what, shown: whereShown(s, TOKEN) }).toEqual({ what, shown: ['the text'] });
    }
  });

  it('issue 27: NO-LIST sees token rows of <div>s that show dates but no token characters', async () => {
    const lists = async (body: string) => {
      await tab.setContent(`<!doctype html><title>Personal API tokens</title><h1>Personal API tokens</h1><button>Generate token</button>${body}`);
      return tokenLists(tab, TOKEN, '************H6jK');
    };
    const rows =
      '<div class="rows"><div class="row">created 2026-11-01, last used 2026-11-20</div><div class="row">created 2026-10-12, last used never</div></div>';
    const cells = '<div style="display:flex"><div>Created</div><div>27 Nov 2026</div><div>Expires</div><div>25 Feb 2027</div></div>';
    const named = '<div><span>Token</span> <span>generated 3 minutes ago</span></div>';
    for (const body of [rows, cells, named]) expect({ body, listed: (await lists(body)).length > 0 }).toEqual({ body, listed: true });
    expect((await lists(rows))[0]).toBe('div showing when a token was made or used: "created 2026-11-01, last used 2026-11-20"');
    // A page that only says how tokens work, or when the account was made, lists none.
    const words = '<p>Tokens expire 90 days after they are generated, or after 30 days without use.</p><footer>Account created 2024-01-01</footer>';
    expect(await lists(words)).toEqual([]);
    expect(await lists(`<nav>${rows}</nav>`)).toEqual([]);
    // Rendered by a web component (a closed shadow root) or in a frame: the same.
    await tab.setContent(page('<token-list id="l"></token-list>', `l.attachShadow({ mode: 'closed' }).innerHTML = ${JSON.stringify(rows)};`));
    expect((await tokenLists(tab, TOKEN, '************H6jK'))[0]).toBe('div showing when a token was made or used: "created 2026-11-01, last used 2026-11-20"');
    await tab.setContent(
      page('<iframe id="f" width="500" height="80"></iframe>', `f.srcdoc = ${JSON.stringify(`<ul><li>Token ending ${TOKEN.slice(-4)}</li></ul>`)};`),
    );
    await tab.frameLocator('#f').locator('li').waitFor();
    expect(await tokenLists(tab, TOKEN, '************H6jK')).toEqual([
      'ul of 1 item(s): "Token ending …" (in a frame)',
      'li naming the live token by its last 4 characters: "Token ending …" (in a frame)',
    ]);
  });

  it('the token drawn so the reading missed it is seen: grouped, zero-width spaces, a box a character, reversed, reordered, quotes, markers', async () => {
    const masked = '<output>ipt_••••••••H6jK</output>';
    const chunks = 'const parts = token.match(/.{1,8}/g);';
    const cases: [string, string, string][] = [
      ['groups of 4', '<p id="x"></p>', "x.textContent = token.match(/.{1,4}/g).join(' ');"],
      ['zero-width spaces', '<p id="x"></p>', "x.textContent = [...token].join('\\u200b');"],
      [
        'a span a character in a flex line',
        '<p id="x" style="display:flex"></p>',
        "for (const c of token) x.append(Object.assign(document.createElement('span'), { textContent: c }));",
      ],
      [
        'bidi-override reversed',
        '<p><span id="x" style="unicode-bidi:bidi-override;direction:rtl"></span></p>',
        "x.textContent = [...token].reverse().join('');",
      ],
      [
        'chunks reordered with order',
        '<p id="x" style="display:flex"></p>',
        chunks +
          'parts.map((p, i) => [p, i]).reverse()' +
          ".forEach(([p, i]) => x.append(Object.assign(document.createElement('span'), { textContent: p, style: 'order:' + i })));",
      ],
      ['CSS quotes', '<p><q id="x"></q></p>', 'x.style.quotes = JSON.stringify(token) + \' ""\';'],
      ['a list-style-type string', '<ul id="x" style="padding-left:400px"><li></li></ul>', 'x.style.listStyleType = JSON.stringify(token);'],
      ['a placeholder', '<input id="x" size="60">', 'x.placeholder = token;'],
    ];
    for (const [how, body, script] of cases) {
      const s = await seen(page(`${masked}${body}`, script));
      expect({ how, shown: whereShown(s, TOKEN).length > 0 }).toEqual({ how, shown: true });
    }
    // The masked form alone is still not the token.
    expect(whereShown(await seen(page(masked)), TOKEN)).toEqual([]);
    // An SVG image the page's own origin serves, the token in its text.
    await context.route('http://svg.localhost/**', (r) =>
      r.request().url().endsWith('.svg')
        ? r.fulfill({
            contentType: 'image/svg+xml',
            body: `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="20"><text y="12">${TOKEN}</text></svg>`,
          })
        : r.fulfill({ contentType: 'text/html', body: `<!doctype html><title>Tokens</title>${masked}<img src="/t.svg" alt="">` }),
    );
    await tab.goto('http://svg.localhost/');
    await tab.locator('img').evaluate((img: unknown) => (img as { decode(): Promise<void> }).decode());
    expect(whereShown(await seeOnPage(tab), TOKEN)).toEqual(['an image']);
  });

  it('no false red: a help list about tokens lists none; text under an opaque box or filter: opacity(0) is not seen', async () => {
    await tab.setContent(
      '<!doctype html><title>Tokens</title><h2>About API tokens</h2><ul><li>Tokens expire after 90 days.</li>' +
        '<li>A token unused for 30 days expires.</li><li>Revoke a token with the revoke call.</li></ul>',
    );
    expect(await tokenLists(tab, TOKEN, '************H6jK')).toEqual([]);
    await tab.setContent('<!doctype html><title>Tokens</title><h2>Your API tokens</h2><ul><li>CI token</li><li>Laptop script</li></ul>');
    expect(await tokenLists(tab, TOKEN, '************H6jK')).toHaveLength(1);
    const covered = '<div style="position:relative"><span id="x"></span><div style="position:absolute;inset:0;background:#fff"></div></div>';
    const filtered = '<div style="filter:opacity(0)"><span id="x"></span></div>';
    for (const body of [covered, filtered]) {
      const s = await seen(page(body, 'x.textContent = token;'));
      expect({ body, shown: whereShown(s, TOKEN), held: heldUnseen(s, TOKEN) }).toEqual({ body, shown: [], held: true });
    }
    // A box beside it, or half opaque, hides nothing.
    const beside =
      '<div style="position:relative"><span id="x"></span><div style="position:absolute;top:40px;height:10px;width:10px;background:#fff"></div></div>';
    const veiled = '<div style="position:relative"><span id="x"></span><div style="position:absolute;inset:0;background:rgba(255,255,255,0.5)"></div></div>';
    for (const body of [beside, veiled]) expect(whereShown(await seen(page(body, 'x.textContent = token;')), TOKEN)).toEqual(['the text']);
  });

  it('what cannot be read is said: a canvas given pixels, a raster image made in the page', async () => {
    const drawn = await seen(
      page('<canvas id="c" width="20" height="20"></canvas>', "const x = c.getContext('2d'); x.putImageData(x.createImageData(4, 4), 0, 0);"),
    );
    expect(drawn.unreadable).toEqual(['a canvas given pixels (an image, image data, WebGL or a worker)']);
    const png = await seen(page('<img id="i" alt="">', "i.src = document.createElement('canvas').toDataURL('image/png');"));
    expect(png.unreadable).toEqual(['an image made in the page (image/png)']);
    // A raster image written in the HTML (an inlined logo) is the site's own, as one from a URL.
    const logo = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    expect((await seen(page(`<img src="${logo}" alt="Initrode" width="20" height="20">`))).unreadable).toEqual([]);
  });

  it('no screenshot is kept of a page that draws the token on a canvas; one is of a clean page', async () => {
    const redactor = new Redactor();
    redactor.register('api-token', TOKEN);
    const locators = new Locators(tab, {});
    await tab.setContent(page('<canvas id="c" width="400" height="20"></canvas>', "c.getContext('2d').fillText(token, 2, 12);"));
    expect(await capturePage(tab, locators, redactor, 'masked')).toMatchObject({ withheld: WITHHELD_SECRET });
    await tab.setContent('<!doctype html><title>Tokens</title><output data-testid="api-token">************H6jK</output>');
    expect((await capturePage(tab, locators, redactor, 'masked')).png?.length).toBeGreaterThan(0);
  });

  it('a screenshot keeps no live token the reading misses: a page that received one, or holds one in markup or storage, keeps none', async () => {
    const redactor = new Redactor();
    redactor.register('api-token', TOKEN);
    const locators = new Locators(tab, {});
    const masked = '<output data-testid="api-token">************H6jK</output>';
    // Its own token response carried the token: whatever it draws, no image.
    await tab.setContent(`<!doctype html><title>Tokens</title>${masked}`);
    expect(await capturePage(tab, locators, redactor, 'masked', true)).toMatchObject({ withheld: WITHHELD_TOKEN_PAGE });
    // The token only in a style the reading misses: no image either.
    await tab.setContent(`<!doctype html><title>Tokens</title>${masked}<p><q style="quotes: '${TOKEN}' ''"></q></p>`);
    expect(await capturePage(tab, locators, redactor, 'masked')).toMatchObject({ withheld: expect.stringMatching(/^no screenshot kept/) });
    // A page before any token (sign-in, a message of spec §7) keeps its image.
    await tab.setContent('<!doctype html><title>Sign in</title><p>Sign in to see your tokens</p>');
    expect((await capturePage(tab, locators, redactor, 'sign-in')).png?.length).toBeGreaterThan(0);
  });
});
