import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../support/harness.js';

/**
 * The dashboard builds control-API paths from data (account ids from a restored snapshot,
 * values of its filters): each piece goes in encoded, so no value can reach another path.
 * Before, an account id `../../_sim/reset#` made an account's Reset button reset the whole
 * simulator (the browser resolves the dots and drops the fragment). Driven here in Node with
 * the few DOM calls the dashboard's modules make; the Chromium test drives the real page.
 */
class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly dataset: Record<string, string> = {};
  readonly children: Array<FakeElement | string> = [];
  readonly listeners = new Map<string, Array<() => unknown>>();
  value = '';
  constructor(readonly tag: string) {}
  setAttribute(name: string, value: string) {
    this.attributes.set(name, value);
  }
  addEventListener(type: string, listener: () => unknown) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  append(...nodes: Array<FakeElement | string>) {
    this.children.push(...nodes);
  }
  /** Nothing drawn before: the first fill of a table keeps no scroll position. */
  querySelector(_selector: string): FakeElement | null {
    return null;
  }
  replaceChildren(...nodes: Array<FakeElement | string>) {
    this.children.splice(0, this.children.length, ...nodes);
  }
  /** Runs the click listeners, as a click does, and waits for them. */
  async click() {
    await Promise.all((this.listeners.get('click') ?? []).map((listener) => listener()));
  }
  find(match: (el: FakeElement) => boolean): FakeElement | undefined {
    if (match(this)) return this;
    for (const child of this.children) {
      const found = typeof child === 'object' ? child.find(match) : undefined;
      if (found) return found;
    }
    return undefined;
  }
}

const HOSTILE = '../../_sim/reset#';
const saved = { document: globalThis.document, confirm: (globalThis as { confirm?: unknown }).confirm, requestAnimationFrame: globalThis.requestAnimationFrame, cancelAnimationFrame: globalThis.cancelAnimationFrame, ResizeObserver: (globalThis as { ResizeObserver?: unknown }).ResizeObserver };
/** A table wider than the screen gets a hint that follows the box's size: nothing to follow here. */
class NoResizeObserver {
  observe() {}
  disconnect() {}
}
beforeAll(() => {
  // No frames here: what a panel draws on the next frame is never drawn.
  Object.assign(globalThis, { document: { createElement: (tag: string) => new FakeElement(tag) }, confirm: () => true, requestAnimationFrame: () => 0, cancelAnimationFrame: () => {}, ResizeObserver: NoResizeObserver });
});
afterAll(() => {
  Object.assign(globalThis, saved);
});

/** A control API that records the paths it is asked for. */
function recordingApi() {
  const calls: Array<{ method: string; path: string }> = [];
  const record = (method: string) => async (path: string) => void calls.push({ method, path });
  return { calls, api: { post: record('POST'), delete: record('DELETE'), get: record('GET') } };
}
/** The dashboard's plain ES modules (served as they are, untyped for TypeScript). */
function dashboardModule(file: string): Promise<Record<string, any>> {
  return import(new URL(`../../src/web/dashboard/${file}`, import.meta.url).href);
}
const app = { refresh: () => {}, report: (error: unknown) => { throw error; } };

describe('the dashboard\'s control calls built from data', () => {
  it('reset only the account whose id they were given, whatever the id holds', async () => {
    const { accountsPanel } = await dashboardModule('accounts-panel.js');
    const { calls, api } = recordingApi();
    const panel = accountsPanel(api as never, app);
    panel.show({ total: 1, data: [{ accountId: HOSTILE, name: 'Restored', balance: 0, builds: 0, keys: [] }] });
    const reset = (panel.element as unknown as FakeElement).find((el) => el.attributes.get('class') === 'account-reset');
    await reset!.click();
    expect(calls).toEqual([{ method: 'POST', path: '/_sim/accounts/..%2F..%2F_sim%2Freset%23/reset' }]);
    // As the browser resolves it: still that account's reset, not the simulator's.
    const url = new URL(calls[0]!.path, 'http://127.0.0.1:4010');
    expect(url.pathname).toBe('/_sim/accounts/..%2F..%2F_sim%2Freset%23/reset');
    expect(new URL(`/_sim/accounts/${HOSTILE}/reset`, 'http://127.0.0.1:4010').pathname).toBe('/_sim/reset'); // what the bare id did

    // The simulator refuses that id (not a UUID) and resets nothing.
    const h = harness();
    const target = await h.target();
    const res = await h.post(url.pathname, {}, { key: null });
    expect(res.status).toBe(400);
    expect((await h.get(`/api/v1/targets/${target}`)).status).toBe(200);
  });

  it('clear the journal of the chosen account only, its id sent as a query value', async () => {
    const { journalPanel } = await dashboardModule('journal-panel.js');
    const { calls, api } = recordingApi();
    const panel = journalPanel(api as never, app);
    const element = panel.element as unknown as FakeElement;
    element.find((el) => el.attributes.get('id') === 'journal-account')!.value = 'a&accountId=b#x';
    await element.find((el) => el.attributes.get('id') === 'journal-clear')!.click();
    expect(calls).toEqual([{ method: 'DELETE', path: '/_sim/journal?accountId=a%26accountId%3Db%23x' }]);
    expect(new URL(calls[0]!.path, 'http://127.0.0.1:4010').searchParams.getAll('accountId')).toEqual(['a&accountId=b#x']);
  });
});
