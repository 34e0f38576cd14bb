import { useLocation } from 'react-router';
import { useT } from '../../i18n/use-t.ts';

export interface SignInButtonProps {
  /** Where to come back after signing in; defaults to the current page (from the start page: home, the next trip). */
  returnTo?: string;
  className?: string;
  /** The button's words; "Sign in" in the traveler's language by default. */
  label?: string;
}

/** Sign-in is a full-page trip through the BFF and the identity platform, so it is a plain GET form. */
export function SignInButton({ returnTo, className = 'button', label }: SignInButtonProps) {
  const t = useT();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const target = returnTo ?? here;
  return (
    <form method="get" action="/auth/login" className="inline-form">
      <input type="hidden" name="returnTo" value={target} />
      <button type="submit" className={className}>
        {label ?? t('start.signIn')}
      </button>
    </form>
  );
}
