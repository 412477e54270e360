/**
 * The operator console's answer to an operator whose account has no two-factor
 * authentication: a NOT_FOUND like everyone else's (the console's calls never announce
 * themselves), carrying this message so the console page can tell the operator what to do.
 */
export const CONSOLE_NEEDS_2FA =
  'The operator console needs two-factor authentication on your account. Turn it on under Settings, Two-factor authentication (/dashboard/settings), then open the console again.';
