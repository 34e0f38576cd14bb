import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmUpIntl } from './warm-up-intl.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('warming up Intl', () => {
  it('makes a formatter of the language in a task of its own, not in the task that asks for it', () => {
    vi.useFakeTimers();
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    warmUpIntl('es');
    expect(made).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(made).toHaveBeenCalledOnce();
    expect(made).toHaveBeenCalledWith('es');
  });
});
