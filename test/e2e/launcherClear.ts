import type { Page } from 'playwright-core';

/**
 * The controls the support chat's launcher lies over at some scroll position, computed
 * from element boxes for the whole scroll range, not sampled at a few stops. Each box is
 * either fixed in the window (it or an ancestor is `position: fixed`) or moves with the
 * page. Two boxes of the same kind keep their offset whatever the scroll: they overlap
 * at every scroll position or at none. A fixed box and a moving one overlap at some
 * scroll position s in [0, max] when they overlap sideways and the moving box's band
 * [top - s, bottom - s] meets the fixed box's band for some such s.
 * Controls: links, buttons, form fields, table cells and toasts. The open panel is a
 * dialog the customer asked for, so only the launcher is checked (with the panel closed).
 */
export function launcherOverlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    window.scrollTo({ top: 0, behavior: 'instant' });
    // Found by its accessible name, whatever its markup.
    const launcher = [...document.querySelectorAll<HTMLElement>('button[aria-label]')].find((b) =>
      b.getAttribute('aria-label')!.startsWith('Chat with support'),
    );
    if (!launcher) return ['no support launcher on this page'];
    const max = Math.max(0, document.documentElement.scrollHeight - window.innerHeight);
    const isFixed = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const p = getComputedStyle(e).position;
        if (p === 'fixed' || p === 'sticky') return true;
      }
      return false;
    };
    // Page coordinates (at scroll 0) for moving boxes; window coordinates for fixed ones.
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, fixed: isFixed(el) };
    };
    const l = box(launcher);
    const out: string[] = [];
    const controls = 'a[href], button, input, select, textarea, td, th, .toast, [role="button"]';
    for (const el of document.querySelectorAll<HTMLElement>(controls)) {
      if (launcher.contains(el) || el.contains(launcher) || el.closest('.support-chat, [hidden]')) continue;
      const b = box(el);
      if (b.right - b.left <= 0 || b.bottom - b.top <= 0) continue;
      if (!(b.left < l.right && b.right > l.left)) continue;
      let meets: boolean;
      if (b.fixed === l.fixed) meets = b.top < l.bottom && b.bottom > l.top;
      else {
        const [moving, fixed] = b.fixed ? [l, b] : [b, l];
        // Some s in [0, max] with moving.top - s < fixed.bottom and moving.bottom - s > fixed.top.
        meets = Math.max(0, moving.top - fixed.bottom) < Math.min(max, moving.bottom - fixed.top);
      }
      if (meets) out.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    }
    if (l.fixed) out.push(`the launcher is fixed in the window (scroll range ${max}px)`);
    return out;
  });
}
