import { useState, type ReactNode } from 'react';

/** "Details and booking" under an offer or a rate: its contents exist only while it is open. */
export function DetailsDisclosure({ label, children }: { label: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="checkout-disclosure" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{label}</summary>
      {open && children}
    </details>
  );
}
