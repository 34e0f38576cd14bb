import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/dom';
import { inject, vi } from 'vitest';
import { activateEnglishForTests } from './web/src/test-support/languages-for-tests.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** How long a test waits for something to happen (vitest.config.ts says why). */
    eventuallyMs: number;
  }
}

activateEnglishForTests();

const eventuallyMs = inject('eventuallyMs');
configure({ asyncUtilTimeout: eventuallyMs });
// vi.waitFor has no setting of its own: a call without a timeout gets the suite's.
const waitFor = vi.waitFor;
vi.waitFor = (callback, options) =>
  waitFor(callback, typeof options === 'number' ? options : { timeout: eventuallyMs, ...options });

// jsdom lays nothing out, so it has no scrollIntoView; pages that bring a part of themselves into view
// call it, and scrolling has nothing to show in a test.
if (typeof Element !== 'undefined' && !('scrollIntoView' in Element.prototype)) {
  Object.defineProperty(Element.prototype, 'scrollIntoView', { value() {}, configurable: true });
}
