import { Text } from 'react-aria-components';

/**
 * The hint and the error message of a react-aria field, in the slots that tie them to the field
 * (`aria-describedby`), styled as every other field's.
 */
export function FieldTexts({ hint, error }: { hint?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {hint && (
        <Text slot="description" className="field-hint">
          {hint}
        </Text>
      )}
      {error && (
        <Text slot="errorMessage" className="field-error">
          {error}
        </Text>
      )}
    </>
  );
}
