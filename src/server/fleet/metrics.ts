import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The fleet's Prometheus metrics, one registry per server (tests run several in one process). */
export function fleetMetrics() {
  const registry = new Registry();
  return {
    registry,
    nodes: new Gauge({
      name: 'nodekeep_nodes',
      help: 'Hosted nodes by status and coin',
      labelNames: ['status', 'coin'],
      registers: [registry],
    }),
    checkSeconds: new Histogram({
      name: 'nodekeep_monitor_check_seconds',
      help: 'Time of one node check (engine + daemon RPC)',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    }),
    cycleSeconds: new Gauge({
      name: 'nodekeep_monitor_cycle_seconds',
      help: 'Time the last full pass over all nodes took',
      registers: [registry],
    }),
    engineErrors: new Counter({
      name: 'nodekeep_engine_errors_total',
      help: 'Engine operations that failed',
      labelNames: ['host', 'op'],
      registers: [registry],
    }),
    placementFailures: new Counter({
      name: 'nodekeep_placement_failures_total',
      help: 'Node requests refused because no host had capacity',
      registers: [registry],
    }),
    daemonErrors: new Counter({
      name: 'nodekeep_daemon_errors_total',
      help: 'Daemon checks that got no usable answer',
      labelNames: ['kind'],
      registers: [registry],
    }),
  };
}
export type FleetMetrics = ReturnType<typeof fleetMetrics>;
