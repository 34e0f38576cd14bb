const STATUS_TONES: Record<string, string> = {
  confirmed: 'chip-success',
  pending: 'chip-warning',
  cancelled: 'chip-danger',
  completed: '',
};

const STATUS_LABELS: Record<string, string> = {
  confirmed: 'Confirmed',
  pending: 'Pending',
  cancelled: 'Cancelled',
  completed: 'Completed',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status.replaceAll('_', ' ');
}

export function BookingStatusChip({ status }: { status: string }) {
  return (
    <span className={['chip', STATUS_TONES[status] ?? 'chip-info'].join(' ')}>{statusLabel(status)}</span>
  );
}
