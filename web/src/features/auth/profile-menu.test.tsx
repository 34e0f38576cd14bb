// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ProfileMenu } from './profile-menu.tsx';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch } from '../../test-support/stub-fetch.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ProfileMenu', () => {
  it('names the account menu button after the traveler even when the visible name is hidden', async () => {
    stubFetch(() => ({ status: 204 }));
    renderApp(<ProfileMenu name="Alex Morgan" email="alex@wayfare.example" />);
    // At phone width the visible name is display:none, so the name must not depend on it.
    const nameText = screen.getByText('Alex Morgan', { selector: '.profile-button-name' });
    nameText.style.display = 'none';
    const button = screen.getByRole('button', { name: 'Alex Morgan, account menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Profile' })).toBeVisible();
  });
});
