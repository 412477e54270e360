import { describe, expect, it } from 'vitest';
import { notificationTime } from './notificationTime';

describe('notificationTime', () => {
  it('reads the UTC hour and shows only the time on the same day', () => {
    const at = new Date('2026-11-23T14:05:00Z');
    const t = notificationTime('2026-11-23 14:05', at);
    expect(t.iso).toBe('2026-11-23T14:05:00.000Z');
    expect(t.label).toBe(at.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }));
    expect(t.label).not.toMatch(/Nov/);
  });

  it('adds the day for an older notification', () => {
    const t = notificationTime('2026-11-20 09:30', new Date('2026-11-23T14:05:00Z'));
    expect(t.iso).toBe('2026-11-20T09:30:00.000Z');
    expect(t.label).toMatch(/^Nov (19|20|21), \d{2}:\d{2}$/);
  });

  it('shows text it cannot read as it came', () => {
    expect(notificationTime('yesterday')).toEqual({ iso: null, label: 'yesterday' });
    expect(notificationTime('2026-13-45 99:99')).toEqual({ iso: null, label: '2026-13-45 99:99' });
  });
});
