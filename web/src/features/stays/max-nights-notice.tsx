export interface MaxNightsNoticeProps {
  maxNights: number | undefined;
  nights: number;
  onShorten: (nights: number) => void;
}

/** MAX_NIGHTS_EXCEEDED: the maximum, and a one-step way to shorten the stay to it. */
export function MaxNightsNotice({ maxNights, nights, onShorten }: MaxNightsNoticeProps) {
  return (
    <div className="notice notice-warning" role="alert">
      <h3>This stay is too long to price</h3>
      <p>
        {maxNights
          ? `Hotels can be priced for at most ${maxNights} nights; this stay has ${nights}.`
          : `Hotels cannot be priced for a ${nights}-night stay.`}{' '}
        Shorten the stay, or split it into two searches.
      </p>
      {maxNights && (
        <div className="row">
          <button type="button" className="button" onClick={() => onShorten(maxNights)}>
            Shorten to {maxNights} nights
          </button>
        </div>
      )}
    </div>
  );
}
