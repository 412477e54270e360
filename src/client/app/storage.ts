import type { SupportInfo } from '../../shared/schemas/auth';

// Everything the client keeps in localStorage, under the names the spec uses.
const TOKEN_KEY = 'auth_token';
const QR_KEY = 'qr_key';
const REFERRER_KEY = 'referrer';
const DEVICE_KEY = 'device_token';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled (private mode, policy): behave as a fresh visitor
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Same as above: nothing to keep, the session simply will not survive a reload.
  }
}

const listeners = new Set<() => void>();
let token = read(TOKEN_KEY);

function emit() {
  for (const fn of listeners) fn();
}

// Another tab logging in or out changes this tab's session too.
window.addEventListener('storage', (e) => {
  if (e.key !== TOKEN_KEY && e.key !== null) return;
  token = read(TOKEN_KEY);
  emit();
});

export const tokenStore = {
  get: (): string | null => token,
  subscribe(fn: () => void): () => void {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
  set(next: string, qrKey?: string) {
    write(TOKEN_KEY, next);
    if (qrKey) write(QR_KEY, qrKey);
    token = next;
    emit();
  },
  clear() {
    if (token === null && read(TOKEN_KEY) === null) return;
    write(TOKEN_KEY, null);
    write(QR_KEY, null);
    token = null;
    emit();
  },
};

/** The referral code from a /ref/{code} visit, sent along when the visitor registers. */
export const referralStore = {
  get: (): string | null => read(REFERRER_KEY),
  set: (code: string) => write(REFERRER_KEY, code.slice(0, 64)),
};

/**
 * The signed token the server hands a browser at each login. Sent with the next login,
 * it keeps this device's own allowance of password attempts when strangers exhaust the
 * account's (src/server/auth/README.md). Kept across logouts on purpose.
 */
export const deviceStore = {
  get: (): string | null => read(DEVICE_KEY),
  set: (value: string) => write(DEVICE_KEY, value),
};

const SUPPORT_KEY = 'support_info';
const MAINTENANCE_RETURN_KEY = 'nk_maintenance_return';

/**
 * The operator's support address and community links, as `system.status` last sent
 * them: the error app shows them when the server cannot answer.
 */
export const supportStore = {
  get(): SupportInfo | null {
    try {
      const v = JSON.parse(read(SUPPORT_KEY) ?? 'null') as SupportInfo | null;
      return v && typeof v.email === 'string' && Array.isArray(v.community) ? v : null;
    } catch {
      return null;
    }
  },
  set: (info: SupportInfo) => write(SUPPORT_KEY, JSON.stringify(info)),
};

/** Where this tab was when maintenance began (per tab: sessionStorage), to go back when it ends. */
export const maintenanceReturnStore = {
  get(): string | null {
    try {
      return window.sessionStorage.getItem(MAINTENANCE_RETURN_KEY);
    } catch {
      return null;
    }
  },
  set(path: string) {
    try {
      window.sessionStorage.setItem(MAINTENANCE_RETURN_KEY, path);
    } catch {
      // Without storage the tab goes to the home page instead.
    }
  },
  clear() {
    try {
      window.sessionStorage.removeItem(MAINTENANCE_RETURN_KEY);
    } catch {
      // Nothing stored.
    }
  },
};

const CHAT_KEY = 'support_chat_token';

/** A visitor's key to their support conversation (signed-in customers need none: their account is it). */
export const chatTokenStore = {
  get: (): string | null => read(CHAT_KEY),
  set: (value: string | null) => write(CHAT_KEY, value),
};
