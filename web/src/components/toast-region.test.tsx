// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { useState } from 'react';
import { ToastRegion, type Toast } from './toast-region.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const toast: Toast = {
  id: 't1',
  title: 'Gate changed to B12',
  body: 'Your flight now leaves from B12.',
  tone: 'info',
};

function Harness() {
  const [toasts, setToasts] = useState([toast]);
  return (
    <MemoryRouter>
      <ToastRegion
        toasts={toasts}
        onDismiss={(id) => setToasts((all) => all.filter((item) => item.id !== id))}
      />
    </MemoryRouter>
  );
}

describe('ToastRegion', () => {
  it('keeps a toast while the pointer is on it, and lets it go ten seconds after the pointer leaves', () => {
    vi.useFakeTimers();
    render(<Harness />);
    const card = screen.getByText('Gate changed to B12').closest('.toast')!;
    fireEvent.mouseEnter(card);
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    expect(screen.getByText('Gate changed to B12')).toBeInTheDocument();
    fireEvent.mouseLeave(card);
    act(() => {
      vi.advanceTimersByTime(9_000);
    });
    expect(screen.getByText('Gate changed to B12')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1_500);
    });
    expect(screen.queryByText('Gate changed to B12')).not.toBeInTheDocument();
  });

  it('keeps a toast while focus is inside it', () => {
    vi.useFakeTimers();
    render(<Harness />);
    const dismiss = screen.getByRole('button', { name: 'Dismiss: Gate changed to B12' });
    act(() => {
      dismiss.focus();
    });
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    expect(screen.getByText('Gate changed to B12')).toBeInTheDocument();
    act(() => {
      dismiss.blur();
    });
    act(() => {
      vi.advanceTimersByTime(10_500);
    });
    expect(screen.queryByText('Gate changed to B12')).not.toBeInTheDocument();
  });
});
