import { useFocusOnAppear } from '../lib/use-focus-on-appear.ts';

export interface OutcomeNoticeProps {
  title: string;
  reason: string;
  /** The one way forward, when there is one: choose again, check the price again. */
  action?: { label: string; onClick: () => void } | undefined;
}

/**
 * An outcome a screen knows by its code (a declined card, an expired offer, a conflict, a changed price),
 * told entirely in the traveler's language: the server's English message is never shown for these. It
 * takes the focus the button lost while the request was on its way.
 */
export function OutcomeNotice({ title, reason, action }: OutcomeNoticeProps) {
  const focusOnAppear = useFocusOnAppear<HTMLDivElement>();
  return (
    <div role="alert" className="notice notice-warning" tabIndex={-1} ref={focusOnAppear}>
      <h2>{title}</h2>
      <p>{reason}</p>
      {action && (
        <div className="row">
          <button type="button" className="button" onClick={action.onClick}>
            {action.label}
          </button>
        </div>
      )}
    </div>
  );
}
