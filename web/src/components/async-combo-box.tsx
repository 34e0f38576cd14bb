import { useEffect, useRef, type Key, type ReactNode } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { useT } from '../i18n/use-t.ts';
import { FieldTexts } from './field-texts.tsx';
import './async-combo-box.css';

export interface AsyncComboBoxProps<T> {
  /** The DOM id of the field wrapper, so error summaries can link to it. */
  id: string;
  label: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  itemText: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  inputValue: string;
  onInputChange: (value: string) => void;
  selectedKey: string | null;
  onSelect: (item: T | null) => void;
  isLoading?: boolean;
  error?: string | undefined;
  hint?: string;
  placeholder?: string;
  emptyText?: string;
  /**
   * The option the typed text stands for when nothing is chosen (an exact code, the only match): chosen on
   * Enter and when the field loses focus, so typing "LHR" and pressing Enter or Search picks it.
   */
  resolveTyped?: () => T | undefined;
  /** Focus coming into the field, and leaving it (the list with it). */
  onFocus?: () => void;
  onBlur?: () => void;
}

/**
 * A combobox whose options come from the server as the traveler types (react-aria-components: the
 * roles, keyboard and screen-reader behaviour of the ARIA combobox pattern).
 */
export function AsyncComboBox<T extends object>({
  id,
  label,
  items,
  itemKey,
  itemText,
  renderItem,
  inputValue,
  onInputChange,
  selectedKey,
  onSelect,
  isLoading = false,
  error,
  hint,
  placeholder,
  emptyText,
  resolveTyped,
  onFocus,
  onBlur,
}: AsyncComboBoxProps<T>) {
  const t = useT();
  // The text the traveler asked to choose (Enter, or leaving the field) while its search was still under
  // way: it is chosen as soon as the search answers, unless the text changed or something was picked.
  const chooseWhenAnswered = useRef<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  /** Leaving and coming back closes the list the way a choice from it does; focus stays in the field. */
  const closeList = () => {
    const input = inputRef.current;
    if (!input || document.activeElement !== input) return;
    input.blur();
    input.focus();
  };
  const chooseTyped = (): boolean => {
    if (selectedKey !== null || !resolveTyped) return false;
    const item = resolveTyped();
    if (item) onSelect(item);
    else if (isLoading) chooseWhenAnswered.current = inputValue;
    return item !== undefined;
  };
  useEffect(() => {
    const asked = chooseWhenAnswered.current;
    if (asked === null || isLoading) return;
    chooseWhenAnswered.current = null;
    if (asked !== inputValue || selectedKey !== null) return;
    const item = resolveTyped?.();
    if (!item) return;
    onSelect(item);
    closeList();
  }, [isLoading, inputValue, selectedKey, resolveTyped, onSelect]);
  const onSelectionChange = (key: Key | null) => {
    if (key === null) {
      onSelect(null);
      return;
    }
    onSelect(items.find((item) => itemKey(item) === String(key)) ?? null);
  };

  return (
    <ComboBox
      id={id}
      className="field combo"
      items={items}
      inputValue={inputValue}
      onInputChange={onInputChange}
      selectedKey={selectedKey}
      onSelectionChange={onSelectionChange}
      isInvalid={Boolean(error)}
      allowsEmptyCollection
      menuTrigger="input"
      onFocus={onFocus}
      onBlur={onBlur}
    >
      <Label className="field-label">{label}</Label>
      <div className="combo-control">
        <Input
          className="input combo-input"
          placeholder={placeholder}
          // While what was typed waits for its search, the options shown can be those of what was typed
          // before: the field says it is still busy, and Enter picks the typed one once it has answered.
          aria-busy={isLoading || undefined}
          ref={inputRef}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            const chosen = chooseTyped();
            // Enter on what is still being searched waits for the answer instead of doing anything else.
            if (!chosen && !isLoading) return;
            event.preventDefault();
            if (chosen) closeList();
          }}
          onBlur={() => void chooseTyped()}
        />
        <Button
          className="combo-button"
          aria-label={t('forms.combo.showOptions', { label: label.toLowerCase() })}
        >
          <span aria-hidden="true">▾</span>
        </Button>
      </div>
      <FieldTexts hint={hint} error={error} />
      <Popover className="combo-popover" offset={4}>
        <ListBox<T>
          className="combo-list"
          renderEmptyState={() => (
            <p className="combo-empty">
              {isLoading ? t('forms.combo.searching') : (emptyText ?? t('forms.combo.noMatches'))}
            </p>
          )}
        >
          {(item) => (
            <ListBoxItem id={itemKey(item)} textValue={itemText(item)} className="combo-option">
              {renderItem(item)}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
