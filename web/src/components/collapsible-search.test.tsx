// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CollapsibleSearch } from './collapsible-search.tsx';

afterEach(cleanup);

/** A page with a search form: Search folds it, Edit search opens it. */
function SearchPage({ searched }: { searched: boolean }) {
  const [collapsed, setCollapsed] = useState(searched);
  return (
    <CollapsibleSearch
      collapsed={collapsed}
      summary="Rome · 2 adults"
      editLabel="Edit search"
      onEdit={() => setCollapsed(false)}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setCollapsed(true);
        }}
      >
        <label>
          City <input />
        </label>
        <button type="submit">Search</button>
      </form>
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
});
