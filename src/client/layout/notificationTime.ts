/**
 * A notification's `hour` is UTC text fixed when it was raised ("2026-11-23 14:05",
 * src/server/notifications/README.md). The menu shows it in the reader's own time zone: the time alone
 * for today, the day and time before that.
 */
export function notificationTime(hour: string, now = new Date()): { iso: string | null; label: string } {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})$/.exec(hour);
  const at = m ? new Date(`${m[1]}T${m[2]}:00Z`) : null;
  if (!at || Number.isNaN(at.getTime())) return { iso: null, label: hour };
  const time = at.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const sameDay = at.toDateString() === now.toDateString();
  const label = sameDay ? time : `${at.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })}, ${time}`;
  return { iso: at.toISOString(), label };
}
