// A node's alias, set at deploy and renamed later: the node schemas, the deploy form and the
// alias editor all check it.

/** Alias rule (section 5): letters, digits, hyphen, underscore, space; at most 48; empty removes. */
export const ALIAS_PATTERN = /^[A-Za-z0-9 _-]*$/;
export const ALIAS_MAX = 48;
