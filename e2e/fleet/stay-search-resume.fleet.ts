import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { submitIdentitySignIn } from '../fixtures.ts';
import { test } from './fleet-test.ts';
import { ensureTraveler } from '../support/shared-travelers.ts';
import { answeringPort, FLEET_ORIGIN, FLEET_STATE_FILE } from '../support/stack.ts';
import { fillStaySearch, stayCards } from '../support/stays.ts';
import { journeyTraveler } from '../support/test-travelers.ts';
import { readFleetState } from '../../scripts/fleet-state.ts';
import { expectPageAt, withAnyQuery } from '../support/page-location.ts';

/**
 * A traveler's stay search through the front while the travel API is slowed (its latency fault), so that
 * the search is still streaming when the instance serving it is killed with SIGKILL: the app runs the
 * search again on the other instance by itself, every hotel gets its price, the hotels shown keep their
 * cards and their order, the traveler is never told the search was cut short, and the fleet's supervisor
 * brings the killed instance back.
 */

const run = promisify(execFile);
const PRICED_SEARCH = '/api/stays/priced-search';
/** Every event of the travel API's streams is held back this long: the search lasts seconds, not a blink. */
const SLOWED = { latencyMs: 200 };

interface StayListWatch {
  /** The most cards the list has shown. */
  most: number;
  /** Whether the list ever showed fewer cards than it had shown before (emptied, or lost one). */
  fell: boolean;
  /** Whether the cut-short notice was ever on the page. */
  cutShortShown: boolean;
}

/** Records, in every page of `context`, how many hotel cards the results show and whether they were ever said to be cut short. */
async function watchStayList(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const watch: StayListWatch = { most: 0, fell: false, cutShortShown: false };
    (window as unknown as { __stayList: StayListWatch }).__stayList = watch;
    new MutationObserver(() => {
      const list = document.querySelector('ol[aria-label="Stays"]');
      const cards = list ? list.querySelectorAll('article').length : 0;
      if (cards < watch.most) watch.fell = true;
      watch.most = Math.max(watch.most, cards);
      if (document.body.textContent?.includes('The search was cut short')) watch.cutShortShown = true;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

function stayListWatch(page: Page): Promise<StayListWatch> {
  return page.evaluate(() => (window as unknown as { __stayList: StayListWatch }).__stayList);
}

/** The process listening on the loopback `port`, as `ss` names it. */
async function listenerPid(port: number): Promise<number> {
  const { stdout } = await run('ss', ['-Hltnp', `sport = :${port}`]);
  const pid = Number(/pid=(\d+)/.exec(stdout)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0)
    throw new Error(`no process named as listening on ${port}: ${stdout}`);
  return pid;
}

async function answersReady(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/readyz`)
    .then((response) => response.status === 200)
    .catch(() => false);
}

/** The cards' ids (their heading's), in the order the list shows them. */
function cardIds(page: Page): Promise<(string | null)[]> {
  return stayCards(page).evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-labelledby')));
}

/** The hotels' names, in the order the list shows them. */
function cardNames(page: Page): Promise<(string | null | undefined)[]> {
  return stayCards(page).evaluateAll((cards) =>
    cards.map((card) => document.getElementById(card.getAttribute('aria-labelledby') ?? '')?.textContent),
  );
}

/** A card whose hotel has its price, or is known to have no rooms. */
const ANSWERED = /per night · .+ total|No rooms for these dates/;

test('a stay search whose instance is killed mid-stream resumes on another: every hotel priced, none lost or moved, nothing said', async ({
  browser,
  admin,
}) => {
  // A bound for a loaded machine, not a speed claim: a slowed search, run once more, and an instance restarted.
  test.setTimeout(180_000);
  const state = await readFleetState(FLEET_STATE_FILE);
  const traveler = journeyTraveler(test.info().workerIndex, 400 + test.info().repeatEachIndex);
  await ensureTraveler(admin, traveler, { locale: 'en-GB' });
  const context = await browser.newContext();
  await watchStayList(context);
  const page = await context.newPage();
  await page.goto(`/auth/login?returnTo=${encodeURIComponent('/stays')}`);
  await submitIdentitySignIn(page, traveler);
  await expectPageAt(page, FLEET_ORIGIN, withAnyQuery('/stays'));

  const searches: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === PRICED_SEARCH) searches.push(answeringPort(response.headers()));
  });
  const submit = await fillStaySearch(page, { city: 'Paris', checkInInDays: 45, nights: 2 });
  const list = page.getByRole('list', { name: 'Stays' });
  try {
    await admin.put('faults', SLOWED);
    const opened = page.waitForResponse((response) => new URL(response.url()).pathname === PRICED_SEARCH);
    await submit.click();
    const port = answeringPort((await opened).headers());
    expect(state.bffPorts, 'the search went to one of the fleet’s instances').toContain(port);

    // In flight: hotels shown, one priced at least, the rest still coming.
    await expect(
      stayCards(page)
        .filter({ hasText: /per night · .+ total/ })
        .first(),
    ).toBeVisible();
    await expect(list).toHaveAttribute('aria-busy', 'true');
    const shownAtKill = await cardIds(page);
    const pid = await listenerPid(port);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');

    await expect(list).toHaveAttribute('aria-busy', 'false', { timeout: 120_000 });
    const settledAt = Date.now();
    const cards = stayCards(page);
    const final = await cardIds(page);
    const names = await cardNames(page);
    const watch = await stayListWatch(page);
    const answered = (await cards.allTextContents()).filter((text) => ANSWERED.test(text)).length;
    console.log(
      `[stay search resumed] ${shownAtKill.length} hotels shown, one priced at least, when the instance on port ${port} was killed; ` +
        `the list settled ${settledAt - killedAt} ms after the kill with ${final.length} hotels, ${answered} of them priced or with no rooms; ` +
        `priced searches sent to ports ${searches.join(', ')}`,
    );

    expect(searches.length, 'the search was run again').toBeGreaterThanOrEqual(2);
    // The other instance, or the killed one if the fleet had restarted it by then (a second after the
    // kill, sooner than a loaded machine may get the resumed request out): a new process either way,
    // which never held the search.
    const resumedOn = searches.at(-1) ?? 0;
    expect(state.bffPorts, 'the search ran again on one of the fleet’s instances').toContain(resumedOn);
    if (resumedOn === port) {
      expect(await listenerPid(port), 'the search ran again on a restarted process').not.toBe(pid);
    }
    expect(new Set(final).size, 'no hotel has two cards').toBe(final.length);
    expect(new Set(names).size, 'no hotel has two cards').toBe(names.length);
    expect(
      final.filter((id) => shownAtKill.includes(id)),
      'every hotel shown before the kill keeps its card, in its order',
    ).toEqual(shownAtKill);
    for (const card of await cards.all()) {
      await expect(card).toContainText(ANSWERED);
      await expect(card).not.toContainText(/Prices unavailable|Not priced|Checking prices|checking more/);
    }
    await expect(page.getByRole('heading', { name: 'The search was cut short' })).toHaveCount(0);
    expect(watch.cutShortShown, 'the traveler was never told the search was cut short').toBe(false);
    expect(watch.fell, 'the list never emptied or lost a card').toBe(false);

    // The supervisor starts the killed instance again, on its port.
    await expect.poll(() => answersReady(port), { timeout: 60_000 }).toBe(true);
    expect(await listenerPid(port)).not.toBe(pid);
  } finally {
    await admin.delete('faults');
    await context.close();
  }
});
