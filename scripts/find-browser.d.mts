// The shape of find-browser.mjs, plain JavaScript so that ensure-browser.mjs can run it before the
// dependencies (and Node's TypeScript support) are there.

/** The features Playwright turns off in every Chromium it launches, carried by our own --disable-features. */
export declare const PLAYWRIGHT_DISABLED_FEATURES: readonly string[];
/** Pages of Chromium's own interface a headless browser loads but never shows. */
export declare const UNSEEN_INTERFACE_FEATURES: readonly string[];
/** The arguments the suites and the screenshots launch Chromium with. */
export declare const CHROMIUM_ARGS: string[];
/** Where the system's Chromium may be, first choice first: the headless shell's first for 'shell'. */
export declare function systemCandidates(build: 'shell' | 'full'): string[];
/**
 * CHROMIUM_PATH, the system's Chromium, Playwright's managed one, or null when there is none: its headless
 * shell where there is one (`build: 'shell'`, the default), or the full browser (`build: 'full'`).
 */
export declare function findBrowser(options?: { build?: 'shell' | 'full' }): Promise<{
  kind: 'configured' | 'system' | 'managed';
  executablePath?: string;
} | null>;
