import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CURRENCIES } from '#shared/api/flight-values.ts';
import type { Profile, ProfilePatch } from '#shared/api/profile.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useFocusOnAppear } from '../../lib/use-focus-on-appear.ts';
import { FormField } from '../../components/form-field.tsx';
import { FormErrorSummary } from '../../components/form-error-summary.tsx';
import { LastUpdated } from '../../components/last-updated.tsx';
import type { MessageId } from '../../i18n/i18n.ts';
import { useT } from '../../i18n/use-t.ts';
import { fieldId, fieldProblemsByPath } from '../../lib/error-grammar.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AirportField, type AirportChoice } from '../flights/index.ts';
import { profileQueries } from '../../lib/profile-query.ts';
import { useUpdateProfile } from './profile-queries.ts';
import { CalendarFeedSection } from './calendar-feed-section.tsx';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import './profile.css';

/** The locales offered: regions of the languages the interface is written in (i18n/languages.ts) only. */
const LOCALES = [
  { tag: 'en-GB', label: 'English (United Kingdom)' },
  { tag: 'en-US', label: 'English (United States)' },
  { tag: 'es-ES', label: 'Español (España)' },
];

const FIELD_LABELS: Record<string, MessageId> = {
  name: 'profile.name',
  homeAirport: 'profile.homeAirport',
  currency: 'profile.currency',
  locale: 'profile.locale',
  bookingProfile: 'profile.bookingProfile',
};

export function ProfilePage() {
  const t = useT();
  useDocumentTitle(t('profile.title'));
  const profile = useQuery(profileQueries.current());
  // The form remounts with each saved profile (its key): which version was just saved lives here.
  const [savedVersion, setSavedVersion] = useState<string | null>(null);
  const format = useTravelerFormatters();

  return (
    <div className="page">
      <div className="page-header">
        <h1>{t('profile.title')}</h1>
        <LastUpdated queryKey={profileQueries.current().queryKey} format={format} />
      </div>
      {profile.isPending ? (
        <div className="card stack" role="status" aria-busy="true" aria-label={t('profile.loading')}>
          <span className="skeleton skeleton-line" />
          <span className="skeleton skeleton-line" />
          <span className="skeleton skeleton-line" />
        </div>
      ) : profile.isError ? (
        <ErrorNotice error={profile.error} onRetry={() => void profile.refetch()} />
      ) : (
        <ProfileForm
          key={profile.data.updatedAt}
          profile={profile.data}
          justSaved={savedVersion === profile.data.updatedAt}
          onSaved={(saved) => setSavedVersion(saved.updatedAt)}
        />
      )}
      <CalendarFeedSection />
    </div>
  );
}

function ProfileForm({
  profile,
  justSaved,
  onSaved,
}: {
  profile: Profile;
  justSaved: boolean;
  onSaved: (profile: Profile) => void;
}) {
  const t = useT();
  const [name, setName] = useState(profile.name ?? '');
  const [homeAirport, setHomeAirport] = useState<AirportChoice | null>(
    profile.homeAirport ? { code: profile.homeAirport, label: profile.homeAirport } : null,
  );
  const [currency, setCurrency] = useState(profile.currency);
  const [locale, setLocale] = useState(profile.locale);
  const [bookingProfile, setBookingProfile] = useState(profile.bookingProfile);
  const [attempt, setAttempt] = useState(0);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(justSaved);
  // "Saved" takes the focus the Save button lost while saving (the form remounts with the saved version).
  const focusOnAppear = useFocusOnAppear<HTMLSpanElement>();
  // A save the service answers with the same version keeps this form mounted: it says so itself.
  const update = useUpdateProfile((savedProfile) => {
    setSaved(true);
    onSaved(savedProfile);
  });

  const serverErrors = update.isError ? fieldProblemsByPath(update.error) : {};
  const errors = { ...serverErrors, ...localErrors };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = t('profile.nameMissing');
    const typedAirport = document.getElementById(fieldId('homeAirport'))?.querySelector('input')?.value ?? '';
    if (!homeAirport && typedAirport.trim() !== '') problems.homeAirport = t('profile.homeAirportUnchosen');
    setLocalErrors(problems);
    setAttempt((value) => value + 1);
    if (Object.keys(problems).length > 0) return;
    const patch: ProfilePatch = {
      name: name.trim(),
      homeAirport: homeAirport?.code ?? null,
      currency: currency as ProfilePatch['currency'],
      locale,
      bookingProfile,
    };
    update.mutate(patch);
  };

  const currencies: string[] = CURRENCIES.includes(profile.currency as never)
    ? [...CURRENCIES]
    : [profile.currency, ...CURRENCIES];
  const locales = LOCALES.some((entry) => entry.tag === profile.locale)
    ? LOCALES
    : [{ tag: profile.locale, label: profile.locale }, ...LOCALES];

  return (
    <form className="form card" onSubmit={submit} noValidate aria-labelledby="profile-form-title">
      <h2 id="profile-form-title" className="visually-hidden">
        {t('profile.yourDetails')}
      </h2>
      <FormErrorSummary
        errors={errors}
        labelFor={(path) => {
          const label = FIELD_LABELS[path];
          return label ? t(label) : path;
        }}
        attempt={attempt}
      />
      {update.isError && Object.keys(serverErrors).length === 0 && (
        <ErrorNotice error={update.error} onRetry={() => update.reset()} takeFocus />
      )}
      <div className="form-grid profile-grid">
        <FormField id={fieldId('name')} label={t('profile.name')} error={errors.name}>
          {(control) => (
            <input
              {...control}
              className="input"
              autoComplete="name"
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </FormField>
        <FormField id="profile-email" label={t('profile.email')} hint={t('profile.emailHint')}>
          {(control) => <input {...control} className="input" value={profile.email ?? ''} readOnly />}
        </FormField>
        <AirportField
          id={fieldId('homeAirport')}
          label={t('profile.homeAirport')}
          value={homeAirport}
          onChange={setHomeAirport}
          error={errors.homeAirport}
        />
        <FormField id={fieldId('currency')} label={t('profile.currency')} error={errors.currency}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={currency}
              onChange={(event) => setCurrency(event.target.value)}
            >
              {currencies.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField
          id={fieldId('locale')}
          label={t('profile.locale')}
          hint={t('profile.localeHint')}
          error={errors.locale}
        >
          {(control) => (
            <select
              {...control}
              className="select"
              value={locale}
              onChange={(event) => setLocale(event.target.value)}
            >
              {locales.map((entry) => (
                <option key={entry.tag} value={entry.tag}>
                  {entry.label}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>
      <fieldset id={fieldId('bookingProfile')} tabIndex={-1}>
        <legend>{t('profile.bookingProfile')}</legend>
        <p className="field-hint">{t('profile.bookingProfileHint')}</p>
        <div className="choice-group">
          <label className="choice">
            <input
              type="radio"
              name="bookingProfile"
              checked={!bookingProfile}
              onChange={() => setBookingProfile(false)}
            />
            {t('profile.business')}
          </label>
          <label className="choice">
            <input
              type="radio"
              name="bookingProfile"
              checked={bookingProfile}
              onChange={() => setBookingProfile(true)}
            />
            {t('profile.personal')}
          </label>
        </div>
      </fieldset>
      {profile.loyaltyPrograms.length > 0 && (
        <section aria-labelledby="loyalty-title" className="stack-sm">
          <h2 id="loyalty-title">{t('profile.loyalty')}</h2>
          <dl className="definition-list">
            {profile.loyaltyPrograms.map((program) => (
              <div key={`${program.program}-${program.memberNumber}`} className="contents">
                <dt>{program.program}</dt>
                <dd>{program.memberNumber}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <div className="row">
        <button type="submit" className="button" disabled={update.isPending}>
          {update.isPending ? t('profile.saving') : t('profile.save')}
        </button>
        <span role="status" className="muted">
          {saved && (
            <span tabIndex={-1} ref={focusOnAppear}>
              {t('profile.saved')}
            </span>
          )}
        </span>
      </div>
    </form>
  );
}
