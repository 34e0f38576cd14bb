import { useContext, useEffect, useMemo, useState, type ComponentProps } from 'react';
import { parseDate, type CalendarDate } from '@internationalized/date';
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateFieldStateContext,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog,
  Group,
  Heading,
  I18nProvider,
  Label,
  Popover,
} from 'react-aria-components';
import { useTravelerFormatters } from '../lib/use-traveler-formatters.ts';
import { FieldTexts } from './field-texts.tsx';
import './date-field.css';

export interface DateFieldProps {
  /** The DOM id of the field, so error summaries can link to it (focus lands on its first segment). */
  id?: string;
  label: string;
  /** The date as `YYYY-MM-DD`, or '' when none is chosen. */
  value: string;
  /** Called with the new date as `YYYY-MM-DD`, or '' while it is empty or not completely typed. */
  onChange: (value: string) => void;
  /** The first and last choosable days (`YYYY-MM-DD`), as the calendar offers them. */
  min?: string | undefined;
  max?: string | undefined;
  isRequired?: boolean;
  /** The form's own message for this field; the field is invalid exactly when there is one. */
  error?: string | undefined;
  hint?: string | undefined;
  /** When focus leaves the field (not when it moves into its calendar), e.g. to mark it touched. */
  onBlur?: () => void;
  className?: string;
  /** The locale to write the date in; the traveler's formatting locale by default. */
  locale?: string;
}

type Segment = ComponentProps<typeof DateSegment>['segment'];

/**
 * One segment of the date; the first one also reports the date the field shows, `YYYY-MM-DD` or '' when a
 * segment is empty. react-aria keeps its value at the last complete date while a segment is cleared and
 * retyped, and says nothing when the same date is typed again: the form must see what is on screen.
 */
function Segment({ segment, onShown }: { segment: Segment; onShown: (isoDate: string) => void }) {
  const state = useContext(DateFieldStateContext);
  const editable = state?.segments.filter((part) => part.isEditable) ?? [];
  const reports = editable[0] === segment;
  const shown =
    state?.value && editable.every((part) => !part.isPlaceholder) ? state.value.toString().slice(0, 10) : '';
  useEffect(() => {
    if (reports) onShown(shown);
  }, [reports, shown, onShown]);
  return <DateSegment segment={segment} className="date-segment" />;
}

function calendarDate(isoDate: string | undefined): CalendarDate | null {
  if (!isoDate) return null;
  try {
    return parseDate(isoDate);
  } catch {
    return null;
  }
}

/**
 * A date input in the traveler's language: day, month and year segments in the locale's order and words
 * (dd/mm/aaaa in Spanish), typed or stepped with the arrow keys, and a calendar in a popover. Its value in
 * and out is a `YYYY-MM-DD` string, like a native `<input type="date">`; validity comes from the form
 * (`error`), shown below the field and tied to it with aria-invalid and aria-describedby:
 *
 *   <DateField id={fieldId('checkIn')} label={t('stays.checkIn')} value={form.checkIn} min={today}
 *     error={errors.checkIn} onChange={(checkIn) => ...} onBlur={() => touch('checkIn')} />
 *
 * Journeys fill it with `fillDate(group, isoDate)` from e2e/support/dates.ts.
 */
export function DateField({
  id,
  label,
  value,
  onChange,
  min,
  max,
  isRequired = false,
  error,
  hint,
  onBlur,
  className,
  locale,
}: DateFieldProps) {
  const format = useTravelerFormatters({ enabled: locale === undefined });
  // The date react-aria holds for the value the form has: the form's '' for a partly typed date keeps the
  // last complete date underneath, so the segments the traveler typed stay on screen.
  const [held, setHeld] = useState({ value, date: calendarDate(value) });
  const date = held.value === value ? held.date : calendarDate(value);
  if (held.value !== value) setHeld({ value, date });
  const emit = (isoDate: string, next: CalendarDate | null) => {
    if (isoDate === value) return;
    setHeld({ value: isoDate, date: next });
    onChange(isoDate);
  };
  const minValue = useMemo(() => calendarDate(min) ?? undefined, [min]);
  const maxValue = useMemo(() => calendarDate(max) ?? undefined, [max]);

  return (
    <I18nProvider locale={locale ?? format.locale}>
      <DatePicker
        className={['field', 'date-field', className].filter(Boolean).join(' ')}
        value={date}
        onChange={(next) => emit(next ? next.toString() : '', next)}
        isRequired={isRequired}
        isInvalid={Boolean(error)}
        validationBehavior="aria"
        onBlur={onBlur}
        shouldForceLeadingZeros
      >
        <Label className="field-label">{label}</Label>
        <Group id={id} className="input date-control">
          <DateInput className="date-input">
            {(segment) => (
              <Segment
                segment={segment}
                onShown={(shown) => emit(shown, shown ? calendarDate(shown) : date)}
              />
            )}
          </DateInput>
          <Button className="date-button">
            <span aria-hidden="true">▦</span>
          </Button>
        </Group>
        <FieldTexts hint={hint} error={error} />
        <Popover className="date-popover" offset={4} placement="bottom start">
          <Dialog className="date-dialog">
            {/* The range limits the calendar only: whether the typed date is acceptable is the form's call. */}
            <Calendar className="date-calendar" minValue={minValue} maxValue={maxValue}>
              <header className="date-calendar-header">
                <Button slot="previous" className="date-calendar-nav">
                  <span aria-hidden="true">‹</span>
                </Button>
                <Heading className="date-calendar-heading" />
                <Button slot="next" className="date-calendar-nav">
                  <span aria-hidden="true">›</span>
                </Button>
              </header>
              <CalendarGrid className="date-calendar-grid" weekdayStyle="short">
                {(day) => <CalendarCell date={day} className="date-calendar-cell" />}
              </CalendarGrid>
            </Calendar>
          </Dialog>
        </Popover>
      </DatePicker>
    </I18nProvider>
  );
}
