/** Who the accounts are, for the domains above auth (SQL stays in auth/queries.ts). */
export {
  customerCounts,
  findUserById,
  findUserByLogin,
  knownAddresses,
  lastUserId,
  listUserSessions,
  newestUsers,
  operatorIds,
  referredCount,
  referredUserIds,
  userIdsMatching,
  referredUsersSql,
  searchUsers,
  usernameOf,
  usernamesByIds,
} from './queries';
