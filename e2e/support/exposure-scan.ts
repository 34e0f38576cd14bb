import type { BrowserContext, Page, Response } from '@playwright/test';
import { STACK } from './stack.ts';

/** What must never reach a browser: the stack's secrets, and anything shaped like a token. */
const FORBIDDEN: { name: string; pattern: RegExp }[] = [
  { name: 'consumer secret', pattern: new RegExp(STACK.consumerSecret) },
  { name: 'OIDC client secret', pattern: new RegExp(STACK.oidcClientSecret) },
  { name: 'push webhook secret', pattern: new RegExp(STACK.pushWebhookSecret) },
  { name: 'admin token', pattern: new RegExp(STACK.adminToken) },
  { name: 'a JWT', pattern: /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/ },
  {
    name: 'a token field',
    pattern:
      /["'](?:access_token|refresh_token|id_token|accessToken|refreshToken|idToken|guestToken)["']\s*:/,
  },
  { name: 'a bearer credential', pattern: /Bearer\s+[\w.~+/-]{16,}/ },
];

export interface Exposure {
  where: string;
  what: string;
}

export interface ScannedItem {
  where: string;
  text: string;
}

const READABLE = /json|javascript|text\/(?!event-stream)|html|xml|css|manifest/;

/**
 * Records every response a browser context receives (headers and readable bodies, scripts included)
 * so that, at the end of a journey, they can be scanned together with cookies and storage. Streams
 * (text/event-stream) never end on their own, so their bodies are left out here.
 */
export class ExposureRecorder {
  readonly items: ScannedItem[] = [];
  readonly #pending: Promise<void>[] = [];
  readonly #scriptUrls = new Set<string>();
  readonly #context: BrowserContext;
  readonly #onResponse = (response: Response) => {
    this.#pending.push(this.#record(response));
  };

  constructor(context: BrowserContext) {
    this.#context = context;
    context.on('response', this.#onResponse);
  }

  /** URLs of every script the pages loaded (same-origin and not). */
  get scriptUrls(): string[] {
    return [...this.#scriptUrls];
  }

  async #record(response: Response): Promise<void> {
    const where = `${response.request().method()} ${response.url()} (${response.status()})`;
    const headers = await response.allHeaders();
    this.items.push({ where: `${where} headers`, text: JSON.stringify(headers) });
    if (response.request().resourceType() === 'script') this.#scriptUrls.add(response.url());
    const type = headers['content-type'] ?? '';
    if (response.status() >= 300 && response.status() < 400) return;
    if (!READABLE.test(type) && response.request().resourceType() !== 'script') return;
    try {
      this.items.push({ where: `${where} body`, text: (await response.body()).toString('utf8') });
    } catch {
      // The page navigated away before the body arrived: nothing reached the page to scan.
    }
  }

  /**
   * Stops recording, waits for the bodies still being read, then adds cookies and every storage of
   * `pages`. A response that arrives from here on (a request the app sends in the background) is not
   * recorded: its headers would be read while the journey's context closes, and the scan has begun.
   */
  async collect(context: BrowserContext, pages: Page[]): Promise<ScannedItem[]> {
    this.#context.off('response', this.#onResponse);
    await Promise.all(this.#pending);
    for (const cookie of await context.cookies()) {
      this.items.push({
        where: `cookie ${cookie.name} (${cookie.domain})`,
        text: `${cookie.name}=${cookie.value}`,
      });
    }
    for (const page of pages) {
      if (page.isClosed()) continue;
      const stores = await page.evaluate(readAllStorage);
      for (const [where, text] of Object.entries(stores))
        this.items.push({ where: `${page.url()} ${where}`, text });
    }
    return this.items;
  }
}

/** Runs in the page: localStorage, sessionStorage, Cache Storage and IndexedDB as text. */
async function readAllStorage(): Promise<Record<string, string>> {
  const found: Record<string, string> = {
    localStorage: JSON.stringify({ ...localStorage }),
    sessionStorage: JSON.stringify({ ...sessionStorage }),
  };
  if ('caches' in self) {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      const texts = await Promise.all(
        (await cache.keys()).map(
          async (request) => `${request.url}\n${await (await cache.match(request))?.text()}`,
        ),
      );
      found[`cache ${name}`] = texts.join('\n');
    }
  }
  const databases = 'databases' in indexedDB ? await indexedDB.databases() : [];
  for (const { name } of databases) {
    if (!name) continue;
    found[`indexedDB ${name}`] = await new Promise<string>((resolve) => {
      const open = indexedDB.open(name);
      open.onerror = () => resolve('');
      open.onsuccess = () => {
        const db = open.result;
        const storeNames = [...db.objectStoreNames];
        if (storeNames.length === 0) return resolve('');
        const transaction = db.transaction(storeNames, 'readonly');
        const all: unknown[] = [];
        for (const storeName of storeNames) {
          const request = transaction.objectStore(storeName).getAll();
          request.onsuccess = () => all.push(request.result);
        }
        transaction.oncomplete = () => resolve(JSON.stringify(all));
        transaction.onerror = () => resolve(JSON.stringify(all));
      };
    });
  }
  return found;
}

/** Every place a forbidden value appears in what was collected. */
export function findExposures(items: ScannedItem[]): Exposure[] {
  const exposures: Exposure[] = [];
  for (const item of items) {
    for (const { name, pattern } of FORBIDDEN) {
      if (pattern.test(item.text)) exposures.push({ where: item.where, what: name });
    }
  }
  return exposures;
}
