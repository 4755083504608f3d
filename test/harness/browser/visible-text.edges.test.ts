/**
 * Reading what was seen, without a browser (src/harness/browser/visible-text.ts): where a value is
 * shown and the text of it all; and reading every document of a page through a fake DevTools protocol
 * session (what Chromium does not show on demand: a frame in another process, a page that navigates
 * while it is read, a script error in the page). Each case pins down what a weaker reading would get
 * wrong, found by mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  heldUnseen,
  type Seen,
  seeOnPage,
  seenElement,
  seenText,
  showsValue,
  shownBy,
  tokenLists,
  whereShown,
} from '../../../src/harness/browser/visible-text.js';

const TOKEN = 'ipt_Vq3xR8mZ2kL0pT7sW1yB5nC9dF4gH6jK';

const seen: Seen = {
  parts: [
    { where: 'an image', text: 'key tpat_123' },
    { where: 'the text', text: 'Your key: tpat_123' },
    { where: 'the title', text: 'Tokens' },
    { where: 'the text', text: 'again tpat_123' },
  ],
  unreadable: [],
  held: '',
};

describe('reading what was seen (src/harness/browser/visible-text.ts)', () => {
  it('each place that shows the value is named once, in the order of the places', () => {
    expect(whereShown(seen, 'tpat_123')).toEqual(['the text', 'an image']);
    expect(whereShown(seen, 'Tokens')).toEqual(['the title']);
    expect(whereShown(seen, 'absent')).toEqual([]);
  });

  it('an empty value is shown nowhere', () => {
    expect(whereShown(seen, '')).toEqual([]);
  });

  it('the text of it all is each part on its own line', () => {
    expect(seenText(seen)).toBe('key tpat_123\nYour key: tpat_123\nTokens\nagain tpat_123');
  });
});

describe('a value shown in pieces (src/harness/browser/visible-text.ts showsValue)', () => {
  const value = 'ABCDEFGHIJKLMNOP';

  it('a value of only undrawn characters (spaces, zero-width) is shown nowhere', () => {
    expect(showsValue('any text at all', ' \u200b ')).toBe(false);
    expect(heldUnseen({ parts: [], unreadable: [], held: 'anything' }, '')).toBe(false);
  });

  it('pieces of 6 covering exactly 75% of a 16-character value, in another order, show it', () => {
    expect(showsValue('GHIJKL•ABCDEF', value)).toBe(true);
  });

  it('the last piece of the value counts as any other', () => {
    expect(showsValue('KLMNOP•ABCDEF', value)).toBe(true);
  });

  it('pieces drawn right to left (each reversed, bidi override) show it too', () => {
    expect(showsValue('PONMLK•FEDCBA', value)).toBe(true);
  });

  it("a value's last characters, fewer than a piece, are no piece", () => {
    expect(showsValue('ABCDEF•GHIJKL•PQRST', 'ABCDEFGHIJKLMNOPQRST')).toBe(false);
  });

  it('a value a person sees is not held unseen, though the page holds it too', () => {
    const seen: Seen = { parts: [{ where: 'the text', text: `Your token ${TOKEN}` }], unreadable: [], held: `<p>Your token ${TOKEN}</p>` };
    expect(heldUnseen(seen, TOKEN)).toBe(false);
    expect(heldUnseen({ ...seen, parts: [] }, TOKEN)).toBe(true);
  });

  it('pieces covering less than 75%, or a value under 16 characters in pieces, show nothing', () => {
    expect(showsValue('ABCDEF•KLMNO', value)).toBe(false);
    expect(showsValue('JKLMNO•ABCDEF', value.slice(0, 15))).toBe(false);
  });
});

describe('an element a person sees (src/harness/browser/visible-text.ts seenElement, shownBy)', () => {
  const seen: Seen = { parts: [{ where: 'the text', text: 'Your key\nipt_Vq3xR8mZ2k' }], unreadable: [], held: '' };
  const locator = (visible: boolean | Error, shows: string[] | Error) =>
    ({
      isVisible: async () => {
        if (visible instanceof Error) throw visible;
        return visible;
      },
      evaluateAll: async () => {
        if (shows instanceof Error) throw shows;
        return shows;
      },
    }) as unknown as Locator;

  it('an element on screen whose line of text (spaces collapsed) is among what is seen is seen', async () => {
    expect(await seenElement(locator(true, ['  Copy\n ipt_Vq3xR8mZ2k  ']), seen)).toBe(true);
    expect(await seenElement(locator(true, ['Copy\nipt_Wq3xR8mZ2k']), seen)).toBe(false);
  });

  it('an element off screen, or gone while asked, is not seen', async () => {
    expect(await seenElement(locator(false, ['ipt_Vq3xR8mZ2k']), seen)).toBe(false);
    expect(await seenElement(locator(new Error('Target closed'), ['ipt_Vq3xR8mZ2k']), seen)).toBe(false);
  });

  it('what an element shows is its first match, trimmed; an element gone shows nothing', async () => {
    expect(await shownBy(locator(true, ['  ipt_Vq3x  ', 'other']))).toBe('ipt_Vq3x');
    expect(await shownBy(locator(true, []))).toBe('');
    expect(await shownBy(locator(true, new Error('Execution context was destroyed')))).toBe('');
  });
});

/** A node of a fake `DOM.getDocument` tree. */
interface Node {
  backendNodeId: number;
  nodeType: number;
  localName?: string;
  frameId?: string;
  shadowRootType?: 'open' | 'closed' | 'user-agent';
  children?: Node[];
  shadowRoots?: Node[];
  contentDocument?: Node;
}

let nextId = 1;
const doc = (children: Node[] = []): Node => ({ backendNodeId: nextId++, nodeType: 9, children });
const el = (localName: string, more: Partial<Node> = {}): Node => ({ backendNodeId: nextId++, nodeType: 1, localName, ...more });

/** What the function run in a document answers: in tack, SEE's answer (or listsIn's, with `found`). */
const answer = (texts: string[], frames: boolean[] = [], more: Record<string, unknown> = {}) => ({
  parts: texts.map((text) => ({ where: 'the text', text })),
  unreadable: [],
  held: texts.join(' '),
  frames,
  ...more,
});

/**
 * A CDP session over a fake document tree: `answers` by the document's node id (a function is
 * called each time: it may throw, as a page that navigates does); `frameId` is what Page.getFrameTree says.
 */
class FakeSession {
  detached = false;
  readonly calls: { objectId: string; arguments: unknown[] }[] = [];
  constructor(
    readonly root: Node,
    readonly answers: Map<number, unknown>,
    readonly frameId?: string,
  ) {}
  async send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    if (this.detached) throw new Error('session detached');
    if (method === 'DOM.getDocument') return { root: this.root };
    if (method === 'DOM.resolveNode') return { object: { objectId: `node-${params['backendNodeId']}` } };
    if (method === 'Page.getFrameTree') {
      if (this.frameId === undefined) throw new Error('no frame tree');
      return { frameTree: { frame: { id: this.frameId } } };
    }
    if (method === 'Runtime.callFunctionOn') {
      const objectId = String(params['objectId']);
      this.calls.push({ objectId, arguments: params['arguments'] as unknown[] });
      const a = this.answers.get(Number(objectId.slice('node-'.length)));
      const value = typeof a === 'function' ? (a as () => unknown)() : a;
      if (value !== null && typeof value === 'object' && 'exceptionDetails' in value) return value;
      return { result: { value } };
    }
    throw new Error(`unexpected ${method}`);
  }
  async detach(): Promise<void> {
    this.detached = true;
    this.detaches++;
  }
  detaches = 0;
  attached(): this {
    this.detached = false;
    return this;
  }
}

/** A page whose own session is `main`; `frames` are its frames, each with a session of its own or none (a frame of the page's process). */
function fakePage(main: FakeSession, frames: (FakeSession | undefined)[] = [], closed = false) {
  const frameObjects = frames.map((session) => ({ session }));
  const page = {
    isClosed: () => closed,
    frames: () => frameObjects,
    context: () => ({
      newCDPSession: async (target: unknown) => {
        // Read again, the page gets a session again.
        if (target === page) return main.attached();
        const session = (target as { session?: FakeSession }).session;
        if (session === undefined) throw new Error('This frame does not have a separate CDP session');
        return session;
      },
    }),
  };
  return page as unknown as Page;
}

describe('reading every document of a page (src/harness/browser/visible-text.ts seeOnPage, tokenLists)', () => {
  it('a frame in another process (site isolation) is read through its own session, and shown in a frame', async () => {
    const frame = el('iframe', { frameId: 'F-other' });
    const top = doc([el('html', { children: [el('body', { children: [frame] })] })]);
    const main = new FakeSession(top, new Map([[top.backendNodeId, answer(['Your token'], [true])]]));
    const framed = doc();
    const other = new FakeSession(framed, new Map([[framed.backendNodeId, answer([TOKEN])]]), 'F-other');
    const unrelatedDoc = doc();
    const unrelated = new FakeSession(unrelatedDoc, new Map([[unrelatedDoc.backendNodeId, answer(['unrelated'])]]), 'F-unrelated');
    const seen = await seeOnPage(fakePage(main, [undefined, unrelated, other]));
    expect(seen.parts).toEqual([
      { where: 'the text', text: 'Your token' },
      { where: 'the text', text: TOKEN, inFrame: true },
    ]);
    expect(whereShown(seen, TOKEN)).toEqual(['the text in a frame']);
    expect(seen.unreadable).toEqual([]);
    // A frame that is not the one left unread is not read, and its session is let go; every session read is let go too.
    expect(unrelated.calls).toEqual([]);
    expect([main.detached, unrelated.detached, other.detached]).toEqual([true, true, true]);
  });

  it('a frame in another process that a person does not see: what it shows is held, not seen', async () => {
    const frame = el('iframe', { frameId: 'F-other' });
    const top = doc([frame]);
    const main = new FakeSession(top, new Map([[top.backendNodeId, answer(['Your token'], [false])]]));
    const framed = doc();
    const other = new FakeSession(framed, new Map([[framed.backendNodeId, answer([TOKEN])]]), 'F-other');
    const seen = await seeOnPage(fakePage(main, [other]));
    expect(whereShown(seen, TOKEN)).toEqual([]);
    expect(heldUnseen(seen, TOKEN)).toBe(true);
    expect(seen.held.split('\n')).toEqual(['Your token', TOKEN, TOKEN]);
  });

  it('a frame a person sees that no session reads is unreadable; one they do not see is not', async () => {
    const shownFrame = el('iframe', { frameId: 'F-gone' });
    const top = doc([shownFrame]);
    const noFrameTree = new FakeSession(doc(), new Map());
    const seen = await seeOnPage(fakePage(new FakeSession(top, new Map([[top.backendNodeId, answer(['Your token'], [true])]])), [undefined, noFrameTree]));
    expect(seen.unreadable).toEqual(['a frame whose page tack could not read']);
    expect(noFrameTree.detached).toBe(true);
    const hidden = await seeOnPage(fakePage(new FakeSession(top, new Map([[top.backendNodeId, answer(['Your token'], [false])]])), [undefined]));
    expect(hidden.unreadable).toEqual([]);
  });

  it('a frame element with no frame behind it (no document, no frame id) is nothing to read', async () => {
    const top = doc([el('iframe')]);
    const seen = await seeOnPage(fakePage(new FakeSession(top, new Map([[top.backendNodeId, answer(['Your token'], [true])]])), [undefined]));
    expect(seen.unreadable).toEqual([]);
  });

  it("frames read in the page's own tree are not opened again through a session of their own", async () => {
    const inner = doc();
    const top = doc([el('iframe', { contentDocument: inner })]);
    const main = new FakeSession(
      top,
      new Map<number, unknown>([
        [top.backendNodeId, answer(['Your token'], [true])],
        [inner.backendNodeId, answer([TOKEN])],
      ]),
    );
    const frameDoc = doc();
    const frameSession = new FakeSession(frameDoc, new Map([[frameDoc.backendNodeId, answer([TOKEN])]]), 'F-inner');
    expect(whereShown(await seeOnPage(fakePage(main, [frameSession])), TOKEN)).toEqual(['the text in a frame']);
    expect(frameSession.detaches).toBe(0);
  });

  it('a frame inside a frame a person does not see is not seen, though it says it is shown', async () => {
    const inner = doc();
    const outer = doc([el('frame', { contentDocument: inner })]);
    const top = doc([el('iframe', { contentDocument: outer })]);
    const main = new FakeSession(
      top,
      new Map<number, unknown>([
        [top.backendNodeId, answer(['Your token'], [false])],
        [outer.backendNodeId, answer(['outer'], [true])],
        [inner.backendNodeId, answer([TOKEN])],
      ]),
    );
    const seen = await seeOnPage(fakePage(main));
    expect(seen.parts).toEqual([{ where: 'the text', text: 'Your token' }]);
    expect(heldUnseen(seen, TOKEN)).toBe(true);
  });

  it('closed shadow roots are handed over first and counted; user-agent roots (a field inside) are the browser own, not walked', async () => {
    const closed = el('#document-fragment', { shadowRootType: 'closed', children: [el('iframe', { frameId: 'F-in-closed' })] });
    const open = el('#document-fragment', { shadowRootType: 'open', children: [el('iframe', { frameId: 'F-in-open' })] });
    const userAgent = el('#document-fragment', {
      shadowRootType: 'user-agent',
      children: [el('iframe', { frameId: 'F-ua' })],
      shadowRoots: [el('#document-fragment', { shadowRootType: 'closed' })],
    });
    const top = doc([
      el('div', { shadowRoots: [closed] }),
      el('div', { shadowRoots: [open] }),
      el('input', { shadowRoots: [userAgent] }),
      el('iframe', { frameId: 'F-plain', children: [el('iframe', { frameId: 'F-fallback' })] }),
    ]);
    const main = new FakeSession(top, new Map([[top.backendNodeId, answer(['x'], [false, false, false])]]));
    await seeOnPage(fakePage(main));
    const frameIds = (n: Node) => `node-${n.backendNodeId}`;
    expect(main.calls).toHaveLength(1);
    expect(main.calls[0]!.objectId).toBe(frameIds(top));
    const [count, ...handles] = main.calls[0]!.arguments as { value?: number; objectId?: string }[];
    expect(count).toEqual({ value: 1 });
    expect(handles.map((h) => h.objectId)).toEqual([
      frameIds(closed),
      frameIds(closed.children![0]!),
      frameIds(open.children![0]!),
      frameIds(top.children![3]!),
    ]);
  });

  it('a script error in the page stops the reading, saying the error (its first line), or the text CDP gives without one', async () => {
    const top = doc();
    const thrown = { exceptionDetails: { text: 'Uncaught', exception: { description: 'TypeError: boom\n    at <anonymous>:1:1' } } };
    await expect(seeOnPage(fakePage(new FakeSession(top, new Map([[top.backendNodeId, thrown]]))))).rejects.toThrow(
      /^the page could not be read: TypeError: boom$/,
    );
    for (const bare of [{ exceptionDetails: { text: 'Uncaught' } }, { exceptionDetails: { text: 'Uncaught', exception: {} } }]) {
      await expect(seeOnPage(fakePage(new FakeSession(top, new Map([[top.backendNodeId, bare]]))))).rejects.toThrow(/^the page could not be read: Uncaught$/);
    }
  });

  it('a page that is navigating is read again: a document gone on the first attempts is read on the next', async () => {
    const top = doc();
    let attempts = 0;
    const flaky = () => {
      attempts++;
      if (attempts < 3) throw new Error('Cannot find context with specified id');
      return answer([TOKEN]);
    };
    const main = new FakeSession(top, new Map([[top.backendNodeId, flaky]]));
    expect(whereShown(await seeOnPage(fakePage(main)), TOKEN)).toEqual(['the text']);
    expect(attempts).toBe(3);
    // Each attempt's session let go.
    expect(main.detaches).toBe(3);
  });

  it('a page that keeps failing is given up after three attempts; a closed page after one', async () => {
    const top = doc();
    let attempts = 0;
    const failing = () => {
      attempts++;
      throw new Error(`gone ${attempts}`);
    };
    const page = (closed: boolean) => fakePage(new FakeSession(top, new Map([[top.backendNodeId, failing]])), [], closed);
    await expect(seeOnPage(page(false))).rejects.toThrow(/^gone 3$/);
    expect(attempts).toBe(3);
    attempts = 0;
    await expect(seeOnPage(page(true))).rejects.toThrow(/^gone 1$/);
    expect(attempts).toBe(1);
  });

  it('tokenLists: only what a person sees is listed, what a frame lists said so', async () => {
    const inner = doc();
    const hiddenDoc = doc();
    const top = doc([el('iframe', { contentDocument: inner }), el('iframe', { contentDocument: hiddenDoc })]);
    const main = new FakeSession(
      top,
      new Map<number, unknown>([
        [top.backendNodeId, { found: ['ul of 2 item(s)'], frames: [true, false] }],
        [inner.backendNodeId, { found: ['table of 3 item(s)'], frames: [] }],
        [hiddenDoc.backendNodeId, { found: ['ol of 9 item(s)'], frames: [] }],
      ]),
    );
    expect(await tokenLists(fakePage(main), TOKEN, '****H6jK')).toEqual(['ul of 2 item(s)', 'table of 3 item(s) (in a frame)']);
  });
});
