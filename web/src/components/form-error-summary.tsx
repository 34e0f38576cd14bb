import { useEffect, useRef } from 'react';
import { fieldId } from '../lib/error-grammar.ts';
import { focusField } from '../lib/focus-field.ts';
import { useT } from '../i18n/use-t.ts';

export interface FormErrorSummaryProps {
  /** Problems by field path, in the order the fields appear in the form. */
  errors: Record<string, string>;
  /** Human label of each field path. */
  labelFor: (path: string) => string;
  /** Changes on every submit attempt, so focus moves to the first problem each time. */
  attempt: number;
}

/** After a failed submit: a summary of every problem and focus on the first field to fix. */
export function FormErrorSummary({ errors, labelFor, attempt }: FormErrorSummaryProps) {
  const entries = Object.entries(errors);
  const focusedAttempt = useRef(0);
  const t = useT();

  useEffect(() => {
    if (attempt === focusedAttempt.current || entries.length === 0) return;
    focusedAttempt.current = attempt;
    const [firstPath] = entries[0] ?? [];
    if (firstPath) focusField(firstPath);
  }, [attempt, entries]);

  if (entries.length === 0 || attempt === 0) return null;
  return (
    <div className="notice notice-warning" role="alert">
      <h2>{t('forms.errorSummary.title', { count: entries.length })}</h2>
      <ul className="stack-sm">
        {entries.map(([path, message]) => (
          <li key={path}>
            <a
              href={`#${fieldId(path)}`}
              onClick={(event) => {
                event.preventDefault();
                focusField(path);
              }}
            >
              {labelFor(path)}
            </a>
            : {message}
          </li>
        ))}
      </ul>
    </div>
  );
}
