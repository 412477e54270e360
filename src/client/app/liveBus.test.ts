import { describe, expect, it } from 'vitest';
import { publishLive, serverCreatedSeen } from './liveBus';

describe('the in-tab live bus', () => {
  it('remembers server_created ids, so a deploy answered after its event still sees it', () => {
    expect(serverCreatedSeen('dash-early')).toBe(false);
    publishLive({ type: 'server_created', payload: { server_id: 'dash-early' } });
    expect(serverCreatedSeen('dash-early')).toBe(true);
    publishLive({ type: 'refresh_masternode', payload: { mn_id: 'dash-other' } });
    expect(serverCreatedSeen('dash-other')).toBe(false);
  });

  it('keeps the last 200 only', () => {
    for (let i = 0; i < 201; i++) publishLive({ type: 'server_created', payload: { server_id: `n-${i}` } });
    expect(serverCreatedSeen('n-0')).toBe(false);
    expect(serverCreatedSeen('n-1')).toBe(true);
    expect(serverCreatedSeen('n-200')).toBe(true);
  });
});
