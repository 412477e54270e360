import { z } from 'zod';
import { pageQuery } from './common';

// The operator console's contract (issue 11). Customers never call these; the console's
// chunk and the server share them.

/**
 * `console.access`: the console opens (the caller is an operator with 2FA on).
 * `executable`: the server runs as the single executable, so its texts name commands as
 * `nodekeep …` (src/shared/operator-command.ts), else as a checkout's `npm run nodekeep -- …`.
 */
export const consoleAccessOutput = z.object({
  username: z.string(),
  maintenance: z.boolean(),
  executable: z.boolean(),
});

export const bannerTones = ['info', 'success', 'warning', 'danger'] as const;

/**
 * The alert banner every customer sees at the top of the dashboard. `link`: empty, a
 * path in the app ("/dashboard/billing") or an http(s) address.
 */
export const banner = z
  .object({
    text: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    link: z
      .string()
      .trim()
      .max(300, 'must be at most 300 characters')
      .refine(
        (l) => l === '' || (l.startsWith('/') && !l.startsWith('//')) || /^https?:\/\/[^\s/]+\S*$/i.test(l),
        'must be empty, a path such as /dashboard/billing, or an http(s) address',
      ),
    bg: z.enum(bannerTones, { error: `must be one of ${bannerTones.join(', ')}` }),
  })
  .strict();
export type Banner = z.infer<typeof banner>;

export const platformSettings = z.object({
  maintenance: z.boolean(),
  banner: banner.nullable(),
  signup_open: z.boolean(),
});
export type PlatformSettings = z.infer<typeof platformSettings>;

export const setMaintenanceInput = z.object({ on: z.boolean() }).strict();
export const setBannerInput = z.object({ banner: banner.nullable() }).strict();
export const setSignupInput = z.object({ open: z.boolean() }).strict();

const day = z.iso.date({ error: 'must be a date such as 2026-11-23' });

/** `console.log`: newest first; `from`/`to` are UTC days, both included. */
export const operatorLogQuery = pageQuery
  .extend({
    action: z.string().max(64).optional(),
    operator_id: z.number().int().positive().optional(),
    from: day.optional(),
    to: day.optional(),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'must not be before the From day', path: ['to'] });
export type OperatorLogQuery = z.infer<typeof operatorLogQuery>;

export const operatorLogLine = z.object({
  id: z.number().int(),
  at: z.string(),
  action: z.string(),
  detail: z.record(z.string(), z.unknown()),
  /** operator: from the console; cli: the command line; system: the platform itself. */
  actor: z.enum(['operator', 'cli', 'system', 'unknown']),
  /** The operator's account, for lines written from the console. */
  operator: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  /** The CLI's OS user, the platform job, or the operator's username at the time. */
  actor_name: z.string(),
  /** The request's IP, 'cli' or 'system'. */
  address: z.string(),
});
export type OperatorLogLine = z.infer<typeof operatorLogLine>;

export const operatorLogPage = z.object({
  lines: z.array(operatorLogLine),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});

export const operatorLogFilters = z.object({
  actions: z.array(z.string()),
  operators: z.array(z.object({ id: z.number().int(), username: z.string() })),
});

const slots = z.object({ slots: z.number().int(), used: z.number().int(), free: z.number().int() });

/** `console.overview`: the platform at a glance. Money in integer micro-dollars. */
export const consoleOverview = z.object({
  at: z.string(),
  nodes: z.array(z.object({ status: z.string(), coin_id: z.string(), count: z.number().int() })),
  deploys_24h: z.object({ total: z.number().int(), failed: z.number().int() }),
  hosts: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      engine: z.string(),
      state: z.string(),
      dedicated: slots,
      cloud: slots,
    }),
  ),
  /** Nodes asked for and not placed yet, per plan. */
  unplaced: z.object({ dedicated: z.number().int(), cloud: z.number().int() }),
  /** lag_seconds: how long ago the least recently checked live node was checked. */
  monitor: z.object({ live: z.number().int(), unchecked: z.number().int(), lag_seconds: z.number().nullable() }),
  revenue: z.object({ today_micros: z.number().int(), month_micros: z.number().int() }),
  deposits_pending: z.object({ count: z.number().int(), usd_micros: z.number().int() }),
  mail: z.object({ pending: z.number().int(), failed: z.number().int(), oldest_pending_at: z.string().nullable() }),
  /** Recurring jobs that keep failing (several runs in a row; one for a daily job), and why. */
  failing_jobs: z.array(
    z.object({ name: z.string(), failures: z.number().int(), last_error: z.string(), since: z.string() }),
  ),
  /** Why the daily charge is late (today's not completed by 01:00 UTC), or null. */
  daily_charge_late: z.string().nullable(),
  /** What needs the operator, each figure with its console page (the overview links them). */
  attention: z.object({
    /** Queued jobs that gave up (the Fleet page retries them); the newest few, with whose they are. */
    failed_jobs: z.object({
      count: z.number().int(),
      newest: z.array(
        z.object({
          id: z.number().int(),
          name: z.string(),
          /** The customer's email and where it was going ("ann@example.com's webhook https://…"), when it is a customer's. */
          whose: z.string().nullable(),
          reason: z.string().nullable(),
          failed_at: z.string(),
        }),
      ),
    }),
    support_unread: z.object({ conversations: z.number().int(), messages: z.number().int() }),
    debts: z.object({ count: z.number().int(), owed_micros: z.number().int() }),
    /** Charge days late (the first is the one that blocks the rest). */
    charge_days_stuck: z.object({ count: z.number().int(), first: z.string().nullable() }),
    hosts_low_disk: z.array(z.object({ name: z.string(), free_bytes: z.number().nullable() })),
  }),
  /** The last 30 UTC days, oldest first: nodes hosted at the day's end (now for today) and the day's revenue. */
  history: z.array(z.object({ day: z.string(), hosted: z.number().int(), revenue_micros: z.number().int() })),
});
export type ConsoleOverview = z.infer<typeof consoleOverview>;
