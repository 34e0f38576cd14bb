// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../test-support/render-app.tsx';
import { envelope, stubFetch } from '../../test-support/stub-fetch.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';
import { DemoPanel } from './demo-panel.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  activateEnglishForTests();
});

/** The travel API's answer once every upcoming connection of the traveler is already broken. */
function noConnectionLeft() {
  return stubFetch(() => ({
    status: 404,
    json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION', {
      message: 'The traveler has no upcoming flight or train with a connection that a delay can break',
    }),
  }));
}

describe('DemoPanel: Break a connection with none left to break', () => {
  it.each([
    {
      language: 'English',
      activate: activateEnglishForTests,
      open: 'Demo controls',
      press: 'Break a connection',
      title: 'No connection left to break',
      guidance: /already late enough to miss it/,
      wrong: 'We could not find that',
    },
    {
      language: 'Spanish',
      activate: activateSpanishForTests,
      open: 'Controles de demostración',
      press: 'Romper una conexión',
      title: 'No queda ninguna conexión por romper',
      guidance: /ya va con retraso suficiente para perderla/,
      wrong: 'No lo hemos encontrado',
    },
  ])('in $language, says that every connection is already broken and what to do', async (words) => {
    words.activate();
    const fetch = noConnectionLeft();
    const user = userEvent.setup();
    renderApp(<DemoPanel />);
    await user.click(screen.getByRole('button', { name: words.open }));
    await user.click(screen.getByRole('button', { name: words.press }));
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent(words.title);
    expect(notice).toHaveTextContent(words.guidance);
    expect(notice).not.toHaveTextContent(words.wrong);
    expect(fetch).toHaveBeenCalledWith('/api/demo/segment-delay', expect.anything());
  });
});
