import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { capConnectionsPerAddress } from '../../src/server/http/conn-limit';
import { socketGate } from '../../src/server/live/ws-limits';

// Attack finding: the live socket cap and the connection cap counted exact addresses, so
// one IPv6 host, given a /64 as hosts routinely are, held every slot with a new address
// per socket. Both count as the rate limits do: an IPv6 /64 is one client.

class FakeSocket extends EventEmitter {
  answered = '';
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  end(text: string) {
    this.answered = text;
  }
  destroy() {
    this.destroyed = true;
  }
}

describe('the live socket gate', () => {
  const upgrade = (ip: string) => {
    const socket = new FakeSocket(ip);
    return { req: { socket } as unknown as IncomingMessage, socket };
  };

  it('counts an IPv6 /64 as one address, and frees its slots as sockets close', () => {
    const gate = socketGate((req) => req.socket.remoteAddress!, { perIp: 3, total: 100 });
    const open = [1, 2, 3].map((i) => upgrade(`2001:db8:1:2::${i}`));
    for (const o of open) expect(gate.admit(o.req, o.socket as unknown as Duplex)).toBe(true);
    // Another address of the same /64, written another way: refused.
    const fourth = upgrade('2001:0db8:0001:0002:ffff::9');
    expect(gate.admit(fourth.req, fourth.socket as unknown as Duplex)).toBe(false);
    expect(fourth.socket.answered).toMatch(/^HTTP\/1\.1 429 .*Too many live connections from this address\.$/s);
    // The next /64 is another client; IPv4 addresses count one by one.
    const next = upgrade('2001:db8:1:3::1');
    expect(gate.admit(next.req, next.socket as unknown as Duplex)).toBe(true);
    const v4 = upgrade('127.0.0.9');
    expect(gate.admit(v4.req, v4.socket as unknown as Duplex)).toBe(true);
    expect(gate.total).toBe(5);
    open[0].socket.emit('close');
    const again = upgrade('2001:db8:1:2::77');
    expect(gate.admit(again.req, again.socket as unknown as Duplex)).toBe(true);
    expect(gate.total).toBe(5);
  });
});

describe('the connection cap', () => {
  it('counts an IPv6 /64 as one address', () => {
    const server = new EventEmitter();
    capConnectionsPerAddress(server as unknown as Server, 2);
    const connect = (ip: string) => {
      const s = new FakeSocket(ip);
      server.emit('connection', s);
      return s;
    };
    const [a, b] = [connect('2001:db8::1'), connect('2001:db8::2')];
    expect([a.destroyed, b.destroyed]).toEqual([false, false]);
    expect(connect('2001:db8::ffff:1').destroyed).toBe(true);
    expect(connect('2001:db8:0:1::1').destroyed).toBe(false);
    a.emit('close');
    expect(connect('2001:db8::3').destroyed).toBe(false);
  });
});
