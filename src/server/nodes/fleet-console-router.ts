import { committedOn } from './placement';
import { messageResponse, okResponse } from '../../shared/schemas/common';
import {
  addHostInput,
  destroyNodeInput,
  failedJobs,
  hostList,
  hostNameInput,
  jobIdInput,
  nodeIdInput,
  nodeLogsInput,
  nodeLogsOutput,
  nodePage,
  nodeSearchInput,
  setHostInput,
} from '../../shared/schemas/console-fleet';
import { operatorProcedure, router } from '../rpc/trpc';
import { fail } from '../kernel/errors';
import { activateHost, addHost, drainHost, hostsWithUsage, removeHost, setHost } from './hosts';
import { destroyNode, failedQueue, nodeLogs, restartNode, retryFailedJob } from './node-ops';
import { searchNodes } from './fleet-queries';

const ok = { success: true as const };
const iso = (ms: number) => new Date(ms).toISOString();

/** The console's Fleet page: the services the CLI's `hosts …`, `fleet …` and `jobs …` call. */
export const fleetConsoleRouter = router({
  hosts: operatorProcedure.output(hostList).query(async ({ ctx }) =>
    (await hostsWithUsage(ctx.db)).map(({ host: h, used }) => ({
      name: h.name,
      engine: h.engine,
      url: h.url,
      ipv4: h.ipv4,
      state: h.state,
      last_error: h.last_error,
      has_credentials: h.credentials !== null,
      dedicated: {
        used: used.dedicated,
        slots: h.dedicated_slots,
        free: Math.max(0, h.dedicated_slots - used.dedicated),
      },
      cloud: { used: used.cloud, slots: h.cloud_slots, free: Math.max(0, h.cloud_slots - used.cloud) },
      committed: (() => {
        const c = committedOn(used, ctx.fleet.profiles);
        const gb = (bytes: number | null) => (bytes === null ? null : Math.round((bytes / 1024 ** 3) * 10) / 10);
        return {
          disk_gb: c.diskGb,
          memory_gb: c.memoryGb,
          disk_total_gb: gb(h.disk_total_bytes),
          memory_total_gb: gb(h.memory_total_bytes),
        };
      })(),
    })),
  ),
  add_host: operatorProcedure
    .input(addHostInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await addHost({ db: ctx.db, box: ctx.secrets, log: ctx.log }, ctx.by, {
        name: input.name,
        url: input.url,
        ipv4: input.ipv4,
        dedicated: input.dedicated,
        cloud: input.cloud,
        tls: input.tls,
        sshKey: input.ssh_key,
      });
      return ok;
    }),
  set_host: operatorProcedure
    .input(setHostInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await setHost(ctx.db, ctx.by, input.name, { dedicated: input.dedicated, cloud: input.cloud });
      return ok;
    }),
  drain_host: operatorProcedure
    .input(hostNameInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await drainHost(ctx.db, ctx.by, input.name);
      return ok;
    }),
  activate_host: operatorProcedure
    .input(hostNameInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await activateHost(ctx.db, ctx.by, input.name);
      return ok;
    }),
  remove_host: operatorProcedure
    .input(hostNameInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await removeHost(ctx.db, ctx.by, input.name);
      return ok;
    }),
  nodes: operatorProcedure
    .input(nodeSearchInput)
    .output(nodePage)
    .query(async ({ ctx, input }) => {
      const { rows, total } = await searchNodes(ctx.db, {
        q: input.q || undefined,
        status: input.status || undefined,
        coin: input.coin || undefined,
        page: input.page,
        perPage: input.per_page,
      });
      return {
        nodes: rows.map((n) => ({
          mn_id: n.mn_id,
          coin: n.coin_id,
          user_id: n.user_id,
          // Every node has an owner: the subquery names it (auth owns users).
          username: n.username ?? '',
          plan: n.package,
          status: n.status,
          state: n.state,
          ip: n.simulated ? null : n.server_ip,
          host: n.host_name,
          simulated: n.simulated === 1,
          failed_reason: n.failed_reason,
          created_at: iso(n.created_at),
        })),
        total,
        page: input.page,
        per_page: input.per_page,
      };
    }),
  node_logs: operatorProcedure
    .input(nodeLogsInput)
    .output(nodeLogsOutput)
    .query(async ({ ctx, input }) => ({
      text: await nodeLogs({ db: ctx.db, box: ctx.secrets, config: ctx.config, log: ctx.log }, input.mn_id, input.tail),
    })),
  restart_node: operatorProcedure
    .input(nodeIdInput)
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      const r = await restartNode(ctx.db, ctx.by, input.mn_id);
      if (r.outcome !== 'answering') fail('SERVICE_UNAVAILABLE', r.message);
      return { success: true as const, message: r.message };
    }),
  destroy_node: operatorProcedure
    .input(destroyNodeInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await destroyNode(ctx.db, ctx.by, input.mn_id, input.reason);
      return ok;
    }),
  failed_jobs: operatorProcedure.output(failedJobs).query(async ({ ctx }) =>
    (await failedQueue(ctx.db)).map((j) => ({
      id: j.id,
      name: j.name,
      attempts: j.attempts,
      reason: j.last_error,
      failed_at: iso(j.updated_at),
    })),
  ),
  retry_job: operatorProcedure
    .input(jobIdInput)
    .output(okResponse)
    .mutation(async ({ ctx, input }) => {
      await retryFailedJob(ctx.db, ctx.by, input.id);
      return ok;
    }),
});
