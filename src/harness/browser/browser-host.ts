/**
 * The one browser of a run: launched by the first test that needs it, closed when the run ends.
 * Tests get browser contexts (one per case, so cookies, permissions and clock never leak between
 * cases); the contexts a test opened are closed when it ends, whatever happened.
 *
 * Chromium is launched as the token-page smoke test of the reference server does, headless, with
 * `*.localhost` mapped to loopback (RFC 6761) and nothing else: traffic goes only where a URL says.
 *
 * A caller may lend the run a browser it launched itself (tack's own tests share one between runs,
 * launched by `launchBrowser` with the same arguments): the run then opens and closes only its own
 * contexts in it, and leaves the browser to its owner.
 */
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { playwrightChromium } from './playwright.js';
import { stopHandled } from '../interrupt.js';
import { type BrowserLookup, findBrowser } from './executable.js';

/**
 * The features Playwright itself disables (playwright-core 1.65's `--disable-features`). Chromium reads only the
 * last `--disable-features` of its command line, so tack's own (below) would otherwise switch these back on:
 * HTTPS upgrades of the target's http:// pages, Translate, the media router, paint holding. With them off
 * again a run's pages cost Chromium about 7% less CPU.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

export const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP *.localhost 127.0.0.1',
  // One renderer process per page rather than one per site: the pages tack opens are the target's
  // own (its tenant host and sign-in server), and a run in Chromium costs a tenth less CPU.
  '--disable-site-isolation-trials',
  // The address bar's drop-down is a web page of the browser's own (chrome://omnibox-popup.top-chrome),
  // loaded, with a renderer of its own, for every window: for every browser context tack opens,
  // though headless shows no address bar. Without it Chromium spends half the CPU on a run. No page
  // of a target can tell.
  `--disable-features=${[
    'IsolateOrigins',
    'site-per-process',
    'WebUIOmniboxPopup',
    'WebUIOmniboxFullPopup',
    'WebUIOmniboxAimPopup',
    ...PLAYWRIGHT_DISABLED_FEATURES,
  ].join(',')}`,
];

/** A browser a caller launched (`launchBrowser`) and lends to runs, which leave it open. */
export type LentBrowser = () => Promise<Browser>;

export class BrowserHost {
  private lookup: BrowserLookup | undefined;
  private launching: Promise<Browser> | undefined;
  private readonly open = new Set<BrowserContext>();
  /** Real time spent launching the browser, in ms (0 until launched). */
  launchMs = 0;

  constructor(
    private readonly configured: string | undefined,
    /** Time limit of one browser action (click, fill, wait), in ms. */
    readonly actionTimeoutMs: number,
    /** A browser lent by the caller (launched by `launchBrowser`), used instead of launching one; never closed here. */
    private readonly lent?: LentBrowser,
  ) {}

  /** Whether a browser executable exists (cached; launching may still fail). */
  get found(): BrowserLookup {
    this.lookup ??= findBrowser(this.configured);
    return this.lookup;
  }

  get launched(): boolean {
    return this.launching !== undefined;
  }

  browser(): Promise<Browser> {
    const found = this.found;
    if (!found.found) return Promise.reject(new Error(`no browser: ${found.reason}`));
    this.launching ??= (async () => {
      const started = performance.now();
      try {
        return await (this.lent ?? (() => launchBrowser(found.path)))();
      } catch (error) {
        throw new Error(`could not start ${found.path} (${found.how}): ${firstLine(error)}`);
      } finally {
        this.launchMs = Math.round(performance.now() - started);
      }
    })();
    return this.launching;
  }

  /** A new context, closed by `closeContexts()` (after each test) or `close()`. */
  async newContext(options: BrowserContextOptions): Promise<BrowserContext> {
    const context = await (await this.browser()).newContext(options);
    context.setDefaultTimeout(this.actionTimeoutMs);
    context.setDefaultNavigationTimeout(this.actionTimeoutMs * 2);
    this.open.add(context);
    context.on('close', () => this.open.delete(context));
    return context;
  }

  async closeContexts(keep: ReadonlySet<BrowserContext> = new Set()): Promise<void> {
    await Promise.all([...this.open].filter((c) => !keep.has(c)).map((c) => c.close().catch(() => undefined)));
  }

  async close(): Promise<void> {
    const launching = this.launching;
    this.launching = undefined;
    if (!launching) return;
    await this.closeContexts();
    if (this.lent) return;
    const browser = await launching.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}

/** Launches the browser at `path` as a run does: headless, with LAUNCH_ARGS. */
export function launchBrowser(path: string): Promise<Browser> {
  // Where the command handles SIGINT and SIGTERM itself (src/harness/interrupt.ts), the browser
  // lives on until the pages gave up the tokens they hold (Playwright kills it when the process
  // exits); elsewhere Playwright closes it on a signal.
  const own = !stopHandled();
  const signals = { handleSIGINT: own, handleSIGTERM: own, handleSIGHUP: own };
  return playwrightChromium().launch({ executablePath: path, args: LAUNCH_ARGS, timeout: 30_000, ...signals });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
