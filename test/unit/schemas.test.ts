import { describe, expect, it } from 'vitest';
import {
  changePasswordForm,
  loginInput,
  registerForm,
  registerInput,
  updateTfaInput,
} from '../../src/shared/schemas/auth';

const ok = { username: 'node_runner-1', email: 'a@b.io', password: 'secret1' };

describe('account schemas', () => {
  it('accepts a valid registration and trims', () => {
    expect(registerInput.parse({ ...ok, username: '  abc ' }).username).toBe('abc');
  });

  it.each([
    [{ username: 'ab' }, 'username'],
    [{ username: 'a'.repeat(33) }, 'username'],
    [{ username: 'bad name' }, 'username'],
    [{ username: 'émile' }, 'username'],
    [{ email: 'nope' }, 'email'],
    [{ password: '12345' }, 'password'],
    [{ password: 'x'.repeat(129) }, 'password'],
    [{ extra: 1 }, ''],
  ])('rejects %j naming the field', (patch, field) => {
    const r = registerInput.safeParse({ ...ok, ...patch });
    expect(r.success).toBe(false);
    if (field) expect(r.error!.issues[0].path).toEqual([field]);
    else expect(r.error!.issues[0].code).toBe('unrecognized_keys');
  });

  it('2FA codes are six digits, given as text or number', () => {
    expect(loginInput.parse({ username: 'a', password: 'b', tfa: 123456 }).tfa).toBe('123456');
    expect(updateTfaInput.safeParse({ enable: true, code: '12345' }).success).toBe(false);
    expect(updateTfaInput.safeParse({ enable: true, code: 'abcdef' }).success).toBe(false);
    expect(updateTfaInput.safeParse({ enable: 'yes', code: '123456' }).success).toBe(false);
  });

  it("forms add the spec's mismatch messages", () => {
    const r = registerForm.safeParse({ ...ok, confirm: 'other' });
    expect(r.error?.issues[0].message).toBe('Passwords do not match');
    const c = changePasswordForm.safeParse({ current_password: 'a', new_password: 'secret1', confirm: 'secret2' });
    expect(c.error?.issues[0].message).toBe('Please make sure your passwords match.');
  });
});
