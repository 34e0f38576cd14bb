import '@testing-library/jest-dom/vitest';
import { activateEnglishForTests } from './web/src/test-support/languages-for-tests.ts';

activateEnglishForTests();

// jsdom lays nothing out, so it has no scrollIntoView; pages that bring a part of themselves into view
// call it, and scrolling has nothing to show in a test.
if (typeof Element !== 'undefined' && !('scrollIntoView' in Element.prototype)) {
  Object.defineProperty(Element.prototype, 'scrollIntoView', { value() {}, configurable: true });
}
