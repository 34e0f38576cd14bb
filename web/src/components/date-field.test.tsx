// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { testQueryClient } from '../test-support/render-app.tsx';
import { typeDate } from '../test-support/type-date.ts';
import { DateField, type DateFieldProps } from './date-field.tsx';

afterEach(cleanup);

function Controlled({ onChange, ...props }: Omit<DateFieldProps, 'value'> & { initial: string }) {
  const [value, setValue] = useState(props.initial);
  return (
    <DateField
      {...props}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

function renderField(props: Omit<DateFieldProps, 'value' | 'onChange'> & { initial?: string }) {
  const onChange = vi.fn();
  render(
    <QueryClientProvider client={testQueryClient()}>
      <Controlled initial="" {...props} onChange={onChange} />
    </QueryClientProvider>,
  );
  return { onChange, group: screen.getByRole('group', { name: props.label }) };
}

const segmentTypes = (group: HTMLElement) =>
  within(group)
    .getAllByRole('spinbutton')
    .map((segment) => segment.dataset.type);

describe('DateField', () => {
  it('writes the date in the locale: day, month and year in Spanish order with Spanish placeholders', () => {
    const { group } = renderField({ label: 'Fecha', locale: 'es-ES' });
    expect(segmentTypes(group)).toEqual(['day', 'month', 'year']);
    expect(group).toHaveTextContent('dd/mm/aaaa');
  });

  it('follows the order of an American locale', () => {
    const { group } = renderField({ label: 'Date', locale: 'en-US', initial: '2027-04-12' });
    expect(segmentTypes(group)).toEqual(['month', 'day', 'year']);
    expect(group).toHaveTextContent('04/12/2027');
  });

  it('gives the typed date out as YYYY-MM-DD, and "" while it is incomplete', async () => {
    const { group, onChange } = renderField({ label: 'Date', locale: 'en-GB', initial: '2027-04-12' });
    await typeDate(group, '2028-02-29');
    expect(onChange).toHaveBeenLastCalledWith('2028-02-29');
    const day = within(group)
      .getAllByRole('spinbutton')
      .find((segment) => segment.dataset.type === 'day')!;
    await userEvent.click(day);
    await userEvent.keyboard('{Backspace}{Backspace}');
    expect(group).toHaveTextContent('dd/02/2028');
    expect(onChange).toHaveBeenLastCalledWith('');
    await userEvent.keyboard('29');
    expect(onChange).toHaveBeenLastCalledWith('2028-02-29');
  });

  it('steps the day with the arrow keys', async () => {
    const { group, onChange } = renderField({ label: 'Date', locale: 'en-GB', initial: '2027-04-12' });
    const day = within(group).getAllByRole('spinbutton')[0]!;
    await userEvent.click(day);
    await userEvent.keyboard('{ArrowUp}');
    expect(onChange).toHaveBeenLastCalledWith('2027-04-13');
  });

  it('is invalid exactly when the form says so, with the message as its description', () => {
    const { group } = renderField({
      id: 'trip-date',
      label: 'Date',
      locale: 'en-GB',
      initial: '2027-04-12',
      error: 'Choose a date that is not in the past.',
      isRequired: true,
    });
    expect(group).toHaveAttribute('id', 'trip-date');
    expect(group).toHaveAccessibleDescription(/Choose a date that is not in the past\./);
    for (const segment of within(group).getAllByRole('spinbutton')) {
      expect(segment).toHaveAttribute('aria-invalid', 'true');
      expect(segment).toHaveAttribute('aria-required', 'true');
    }
  });

  it('is not invalid for a date outside min and max while the form has no message for it', () => {
    const { group } = renderField({
      label: 'Date',
      locale: 'en-GB',
      initial: '2020-01-01',
      min: '2027-01-01',
    });
    for (const segment of within(group).getAllByRole('spinbutton')) {
      expect(segment).not.toHaveAttribute('aria-invalid');
    }
  });

  it('opens a calendar with Spanish month and weekday names, and picks a day from it', async () => {
    const { group, onChange } = renderField({
      label: 'Fecha',
      locale: 'es-ES',
      initial: '2027-04-12',
      min: '2027-04-10',
    });
    await userEvent.click(within(group).getByRole('button', { name: /Calendario/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading')).toHaveTextContent('abril de 2027');
    expect(within(dialog).getByText('lun')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: /, 9 de abril de 2027/ })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: /20 de abril de 2027/ }));
    expect(onChange).toHaveBeenLastCalledWith('2027-04-20');
  });
});
