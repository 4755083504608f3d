/**
 * What a person sees on a page (src/harness/browser/visible-text.ts), read in one Chromium from small
 * pages set in place (no server, no tack run): the token in a read-only text box, drawn on a canvas,
 * in generated content, in the title, in an SVG image made in the page are all seen, each named; a
 * password field shows bullets, never its value; a hidden field is not seen; a canvas given pixels
 * and a raster image made in the page are unreadable (an inlined logo is not). The screenshot guard decides on the same: no
 * image is kept of a page that draws the token on a canvas, one is of a clean page.
 */
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAUNCH_ARGS } from '../../../src/harness/browser/browser-host.js';
import { findBrowser } from '../../../src/harness/browser/executable.js';
import { Locators } from '../../../src/harness/browser/locators.js';
import { shows } from '../../../src/harness/browser/token-page.js';
import { capturePage, WITHHELD_SECRET } from '../../../src/harness/browser/screenshot.js';
import { SEEN_TAP, seeOnPage, shownBy, whereShown } from '../../../src/harness/browser/visible-text.js';
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
    await tab.setContent(page('<output data-testid="api-token">************H6jK</output>'));
    expect((await capturePage(tab, locators, redactor, 'masked')).png?.length).toBeGreaterThan(0);
  });
});
