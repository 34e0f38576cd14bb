// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
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
  it('names the account menu button after the traveler, from its own text', async () => {
    stubFetch(() => ({ status: 204 }));
    renderApp(<ProfileMenu name="Alex Morgan" email="alex@wayfare.example" />);
    const button = screen.getByRole('button', { name: 'Alex Morgan, account menu' });
    expect(button).not.toHaveAttribute('aria-label');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Profile' })).toBeVisible();
  });

  it('keeps the name in the accessibility tree at phone width (hidden visually, not with display: none)', () => {
    const css = readFileSync('web/src/styles/layout.css', 'utf8'); // vitest runs from the project root
    const phoneRule = /@media \(max-width: 30rem\) \{\s*\.profile-button-name \{([^}]*)\}/.exec(css);
    expect(phoneRule?.[1]).toBeDefined();
    expect(phoneRule?.[1]).not.toMatch(/display:\s*none/);
    expect(phoneRule?.[1]).toMatch(/clip: rect\(0 0 0 0\)/);
  });
});
