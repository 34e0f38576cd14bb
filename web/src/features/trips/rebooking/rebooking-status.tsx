import { useMutationState, type MutationState } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Rebooking } from '#shared/api/rebooking.ts';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { useT } from '../../../i18n/use-t.ts';
import type { Formatters } from '../../../lib/intl-format.ts';
import { BffError } from '../../../lib/bff-error.ts';
import {
  REVIEW_TELLS,
  rebookingMutationKey,
  useRebook,
  type RebookingVariables,
} from './rebooking-queries.ts';

/** While the old booking's cancel is being retried, the rebooking is asked again (same key) this often. */
const PENDING_CANCEL_POLL_MS = 3000;

type RebookingMutation = MutationState<Rebooking, Error, RebookingVariables>;

/**
 * The outcome of the trip's last rebooking, above its timeline, in words: changed (and the refund), both
 * bookings held while the old one's cancel is retried, or left to support. It outlives the at-risk note
 * the rebooking started from, which goes away with the risk.
 */
export function RebookingStatus({ tripId, format }: { tripId: string; format: Formatters }) {
  const t = useT();
  const rebook = useRebook(tripId);
  const states = useMutationState({
    filters: { mutationKey: rebookingMutationKey(tripId) },
    select: (mutation) => mutation.state as RebookingMutation,
  });
  const latest = states.at(-1);
  const settled = states.filter((state) => state.status === 'success' || state.status === 'error').at(-1);
  const pendingCancel = settled?.status === 'success' && settled.data?.state === 'cancel-pending';
  const retry = pendingCancel && latest === settled ? settled.variables : undefined;
  const { mutate } = rebook;

  useEffect(() => {
    if (!retry) return;
    const timer = setTimeout(() => mutate(retry), PENDING_CANCEL_POLL_MS);
    return () => clearTimeout(timer);
  }, [retry, mutate]);

  if (!latest) return null;
  const working = latest.status === 'pending' && settled?.variables?.key !== latest.variables?.key;
  if (working) {
    return (
      <p className="notice rebooking-status" role="status">
        {t('rebooking.status.working', { flight: latest.variables?.flightName ?? '' })}
      </p>
    );
  }
  if (!settled) return null;
  if (settled.status === 'error') {
    if (settled.error instanceof BffError && REVIEW_TELLS.has(settled.error.code)) return null;
    return (
      <ErrorNotice className="rebooking-status" error={settled.error} title={t('rebooking.status.failed')} />
    );
  }
  const result = settled.data;
  if (!result) return null;
  const flight = settled.variables?.flightName ?? '';
  const words = {
    flight,
    newReference: result.newBooking.reference,
    oldReference: result.oldBooking.reference,
  };
  const refund = result.oldBooking.cancellation?.refund;
  return (
    <p
      className={[
        'notice',
        'rebooking-status',
        result.state === 'completed' ? 'notice-success' : 'notice-warning',
      ].join(' ')}
      role="status"
    >
      {result.state === 'completed'
        ? refund && refund.amount > 0
          ? t('rebooking.status.completed', {
              ...words,
              refund: format.money(refund.amount, refund.currency),
            })
          : t('rebooking.status.completedNoRefund', words)
        : t(
            result.state === 'cancel-pending'
              ? 'rebooking.status.cancelPending'
              : 'rebooking.status.needsSupport',
            words,
          )}
    </p>
  );
}
