import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Runs axe on what the page shows now and fails with a readable list of every violation. */
export async function expectNoAxeViolations(page: Page, screen: string): Promise<void> {
  // Legacy mode runs axe in the page itself: the app has no frames, so the blank page the default mode
  // opens to merge the frames' results (and the second copy of axe it loads there) would add nothing.
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode().analyze();
  const summary = violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help}\n` +
      violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join('\n'),
  );
  expect(summary, `axe violations on ${screen}`).toEqual([]);
}
