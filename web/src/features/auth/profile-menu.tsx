import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useT } from '../../i18n/use-t.ts';
import { SignOutButton } from './sign-out-button.tsx';

/** The traveler's menu: a disclosure with the profile link and sign out (Escape and outside click close it). */
export function ProfileMenu({ name, email }: { name: string; email: string }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const [closedFor, setClosedFor] = useState(location.key);

  if (closedFor !== location.key) {
    setClosedFor(location.key);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const initials = name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();

  return (
    <div className="profile-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="profile-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="avatar" aria-hidden="true">
          {initials}
        </span>
        <span className="profile-button-name">{name}</span>
        <span className="visually-hidden">{t('profileMenu.accountMenu')}</span>
      </button>
      <div id={panelId} className="profile-panel" hidden={!open}>
        <p className="profile-panel-who">
          <strong>{name}</strong>
          <span className="muted small">{email}</span>
        </p>
        <Link to="/profile" className="button button-ghost profile-panel-link">
          {t('profileMenu.profile')}
        </Link>
        <SignOutButton className="button button-secondary profile-panel-link" />
      </div>
    </div>
  );
}
