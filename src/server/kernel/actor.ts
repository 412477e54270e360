/**
 * Who changed something the operator must be able to account for. The console's
 * operator procedures put one in `ctx.by`; the CLI hands one to every command in
 * `io.by`; the platform's own jobs (the control loop, the daily charge) name themselves.
 */
export type OperatorActor =
  | { kind: 'operator'; userId: number; username: string; ip: string }
  | { kind: 'cli'; osUser: string }
  | { kind: 'system'; name: string };
