import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { OutboundRefused, takeRefusals } from '../support/outbound';

// The unit and procedure tiers run with NODEKEEP_TEST_NO_SOCKETS=1 (vitest.config.ts):
// their guard refuses even loopback and unix sockets, so `npm run test:fast` stays free
// of servers. A file that needs one belongs in the http tier.
describe('the fast tiers open no sockets', () => {
  it.each([
    ['loopback TCP', () => net.connect({ host: '127.0.0.1', port: 9 }), 'tcp 127.0.0.1:9'],
    ['a unix socket', () => net.connect('/nonexistent/nodekeep.sock'), 'unix /nonexistent/nodekeep.sock'],
  ])('%s is refused before a handle exists', async (_name, open, what) => {
    const socket = open();
    expect(takeRefusals().map((r) => r.what.split(';')[0])).toEqual([what]);
    expect(socket.connecting).toBe(false);
    expect(
      await new Promise((resolve) => socket.once('error', resolve).once('connect', () => resolve('connected'))),
    ).toBeInstanceOf(OutboundRefused);
  });
});
