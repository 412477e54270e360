import { describe, expect, it } from 'vitest';
import { canonicalMailbox } from '../../src/server/support/mailbox';

// The key of the per-mailbox limit on chat confirmation mails: every spelling that
// delivers to one mailbox is one key, so plus-addresses cannot multiply the limit.
describe('canonicalMailbox', () => {
  it('lower-cases and drops a +tag', () => {
    expect(canonicalMailbox('Victim@Example.com')).toBe('victim@example.com');
    expect(canonicalMailbox('victim+1@example.com')).toBe('victim@example.com');
    expect(canonicalMailbox('VICTIM+a+b@EXAMPLE.COM')).toBe('victim@example.com');
  });
  it('keeps dots outside Gmail: they name other mailboxes there', () => {
    expect(canonicalMailbox('first.last+x@example.com')).toBe('first.last@example.com');
  });
  it('Gmail: dots dropped, googlemail.com is gmail.com', () => {
    expect(canonicalMailbox('J.Doe+news@gmail.com')).toBe('jdoe@gmail.com');
    expect(canonicalMailbox('j.d.o.e@GoogleMail.com')).toBe('jdoe@gmail.com');
  });
  it('distinct mailboxes stay distinct', () => {
    expect(canonicalMailbox('a@example.com')).not.toBe(canonicalMailbox('b@example.com'));
    expect(canonicalMailbox('a@example.com')).not.toBe(canonicalMailbox('a@example.org'));
  });
});
