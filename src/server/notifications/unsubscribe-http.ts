import type { Context as HonoContext, Hono } from 'hono';
import { emailSettings } from '../../shared/notification-kinds';
import { findUserById } from '../auth/users';
import type { AppDeps } from '../rpc/context';
import { escapeHtml } from '../kernel/html';
import { UNSUBSCRIBE_PATH } from './mail';
import { turnOffSetting } from './settings';
import { readUnsubscribeToken } from './unsubscribe-token';

function page(c: HonoContext, status: 200 | 400, title: string, body: string) {
  // No inline style or script: the site's Content-Security-Policy allows neither.
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} - Nodekeep</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="/dashboard/notifications">Notification settings</a></p></main></body></html>`;
  return c.html(html, status, { 'cache-control': 'no-store' });
}

const INVALID =
  '<p>This unsubscribe link is not valid. Open your notification settings to choose which emails you get.</p>';

/**
 * One-click unsubscribe without a login (RFC 8058). The mail's List-Unsubscribe URL is
 * this path with a signed token naming the user and the email setting. GET only shows
 * a confirmation (link scanners and previews fetch URLs; they must not unsubscribe
 * anyone); POST, from that page's button or from the mail client's one-click
 * `List-Unsubscribe=One-Click` request, turns the setting off.
 */
export function mountUnsubscribe(app: Hono<any>, deps: Pick<AppDeps, 'db' | 'log'>) {
  const read = async (c: HonoContext) => {
    const token = c.req.query('t');
    const found = await readUnsubscribeToken(deps.db, token);
    if (!found || !(await findUserById(deps.db, found.userId))) return null;
    return { ...found, token: token!, label: emailSettings[found.setting].label };
  };

  app.get(UNSUBSCRIBE_PATH, async (c) => {
    const t = await read(c);
    if (!t) return page(c, 400, 'Invalid link', INVALID);
    const action = `${UNSUBSCRIBE_PATH}?t=${encodeURIComponent(t.token)}`;
    return page(
      c,
      200,
      'Unsubscribe',
      `<p>Stop emails about "${escapeHtml(t.label)}"? You still see these notifications in your dashboard.</p>` +
        `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  app.post(UNSUBSCRIBE_PATH, async (c) => {
    const t = await read(c);
    if (!t) return page(c, 400, 'Invalid link', INVALID);
    await turnOffSetting(deps.db, t.userId, t.setting);
    deps.log.info('email setting turned off by unsubscribe link', { user_id: t.userId, setting: t.setting });
    return page(
      c,
      200,
      'Unsubscribed',
      `<p>You will no longer get emails about "${escapeHtml(t.label)}". You can turn them on again in your notification settings.</p>`,
    );
  });
}
