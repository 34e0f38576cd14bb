// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { preloadable, type Preloadable } from '../lib/preloadable.tsx';
import { CollapsibleSearch } from './collapsible-search.tsx';

afterEach(cleanup);

/** A city search form: Search folds it. */
function CityForm({ onSearch }: { onSearch: () => void }) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSearch();
      }}
    >
      <label>
        City <input />
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

/** A page with a search form: Search folds it, Edit search opens it. */
function SearchPage({
  searched,
  formApart,
}: {
  searched: boolean;
  formApart?: Preloadable<{ onSearch: () => void }>;
}) {
  const [collapsed, setCollapsed] = useState(searched);
  const Form = formApart?.Component ?? CityForm;
  return (
    <CollapsibleSearch
      collapsed={collapsed}
      summary="Rome · 2 adults"
      editLabel="Edit search"
      onEdit={() => setCollapsed(false)}
      {...(formApart ? { formCode: formApart } : {})}
    >
      <Form onSearch={() => setCollapsed(true)} />
    </CollapsibleSearch>
  );
}

describe('CollapsibleSearch', () => {
  it('opened folded, as from a results link, draws the form only when the traveler opens it', async () => {
    render(<SearchPage searched />);
    expect(screen.getByText('Rome · 2 adults')).toBeInTheDocument();
    expect(screen.queryByLabelText('City')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Edit search' }));
    expect(screen.getByLabelText('City')).toHaveFocus();
  });

  it('keeps a drawn form, and what was typed in it, while it is folded', async () => {
    render(<SearchPage searched={false} />);
    await userEvent.type(screen.getByLabelText('City'), 'Rome');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('button', { name: 'Edit search' })).toBeInTheDocument();
    expect(screen.getByLabelText('City')).toHaveValue('Rome');

    await userEvent.click(screen.getByRole('button', { name: 'Edit search' }));
    expect(screen.getByLabelText('City')).toHaveValue('Rome');
  });

  it('fetches a form whose code comes apart when the pointer reaches Edit, and opens it once it arrived', async () => {
    let deliver: () => void = () => undefined;
    const asked: string[] = [];
    const cityForm = preloadable(
      () =>
        new Promise<typeof CityForm>((resolve) => {
          asked.push('form code');
          deliver = () => resolve(CityForm);
        }),
    );
    render(<SearchPage searched formApart={cityForm} />);
    expect(asked).toEqual([]);
    const edit = screen.getByRole('button', { name: 'Edit search' });
    await userEvent.hover(edit);
    expect(asked).toEqual(['form code']);

    // Clicked before the code arrived: the button says it is busy, and the form opens once it has.
    await userEvent.click(edit);
    expect(edit).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByLabelText('City')).not.toBeInTheDocument();
    deliver();
    await act(() => Promise.resolve());
    expect(screen.getByLabelText('City')).toHaveFocus();
    expect(asked).toEqual(['form code']);
  });
});
