import { fieldId } from './error-grammar.ts';

const FOCUSABLE = 'input, select, textarea, button, [tabindex]';

/** Moves focus to the control of a field path (or the first control inside a field group). */
export function focusField(path: string): void {
  const element = document.getElementById(fieldId(path));
  if (!element) return;
  const target = element.matches(FOCUSABLE) ? element : element.querySelector<HTMLElement>(FOCUSABLE);
  target?.focus();
}
