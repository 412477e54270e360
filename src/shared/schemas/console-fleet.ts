import { z } from 'zod';
import { pageQuery } from './common';

// The console's Fleet page (issue 11): hosts, nodes and failed jobs.

const slots = z
  .number()
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(100_000, 'must be at most 100000');
const pem = z.string().max(20_000, 'must be at most 20000 characters');

export const hostRow = z.object({
  name: z.string(),
  engine: z.enum(['local', 'docker']),
  url: z.string().nullable(),
  ipv4: z.string(),
  state: z.enum(['active', 'draining', 'gone']),
  last_error: z.string().nullable(),
  /** Sealed TLS or SSH material is held for it (never sent back). */
  has_credentials: z.boolean(),
  dedicated: z.object({ used: z.number().int(), slots: z.number().int(), free: z.number().int() }),
  cloud: z.object({ used: z.number().int(), slots: z.number().int(), free: z.number().int() }),
  /**
   * What the host's nodes commit of its disk and memory (GB, each node's profile resources),
   * and what the host has (null: not reported yet; placement then passes it for real daemons).
   */
  committed: z.object({
    disk_gb: z.number(),
    memory_gb: z.number(),
    disk_total_gb: z.number().nullable(),
    memory_total_gb: z.number().nullable(),
  }),
});
export const hostList = z.array(hostRow);

export const hostName = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be 1-32 lowercase letters, digits and -');

/** `url`: unix:///…sock, https:// or tcp+tls:// (with ca, cert, key), ssh://user@host, or tcp:// on loopback. */
export const addHostInput = z
  .object({
    name: hostName,
    url: z.string().trim().min(1, 'must not be empty').max(300),
    ipv4: z.string().trim().min(1, 'must not be empty').max(15),
    dedicated: slots.default(10),
    cloud: slots.default(50),
    tls: z.object({ ca: pem, cert: pem, key: pem }).strict().optional(),
    ssh_key: pem.optional(),
  })
  .strict();
export type AddHostInput = z.infer<typeof addHostInput>;

export const setHostInput = z.object({ name: hostName, dedicated: slots.optional(), cloud: slots.optional() }).strict();
export const hostNameInput = z.object({ name: hostName }).strict();

export const nodeSearchInput = pageQuery
  .extend({
    q: z.string().trim().max(100, 'must be at most 100 characters').optional(),
    status: z.string().trim().max(40, 'must be at most 40 characters').optional(),
    coin: z.string().trim().max(32, 'must be at most 32 characters').optional(),
  })
  .strict();
export type NodeSearchInput = z.infer<typeof nodeSearchInput>;

export const consoleNode = z.object({
  mn_id: z.string(),
  coin: z.string(),
  user_id: z.number().int(),
  username: z.string(),
  plan: z.string(),
  status: z.string(),
  state: z.string(),
  ip: z.string().nullable(),
  host: z.string().nullable(),
  simulated: z.boolean(),
  failed_reason: z.string().nullable(),
  created_at: z.string(),
});
export const nodePage = z.object({
  nodes: z.array(consoleNode),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});

const mnId = z.string().trim().min(1).max(120);
export const nodeIdInput = z.object({ mn_id: mnId }).strict();
export const nodeLogsInput = z
  .object({ mn_id: mnId, tail: z.number().int().min(1, 'must be 1-2000').max(2000, 'must be 1-2000').default(200) })
  .strict();
export const nodeLogsOutput = z.object({ text: z.string() });
export const destroyNodeInput = z
  .object({ mn_id: mnId, reason: z.string().trim().min(1, 'give a reason').max(500, 'must be at most 500 characters') })
  .strict();

export const failedJob = z.object({
  id: z.number().int(),
  name: z.string(),
  attempts: z.number().int(),
  reason: z.string().nullable(),
  failed_at: z.string(),
});
export const failedJobs = z.array(failedJob);
export const jobIdInput = z.object({ id: z.number().int().positive() }).strict();
