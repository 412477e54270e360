import { Redirect } from 'wouter';

/**
 * /dashboard/view_coin?coin={id}. No coin or an unknown coin goes back to
 * /dashboard (spec section 2); with an empty catalog every coin is unknown, so this
 * page only redirects until the catalog arrives with the next issue.
 */
export function ViewCoin() {
  return <Redirect to="/dashboard" replace />;
}
