import type { z } from 'zod';
import type { ApiKeyRow, createApiKeyInput, CreateApiKeyOutput, saveApiKeyInput } from '../../shared/schemas/apikeys';
import type { DB } from '../db/open';
import { fail } from '../kernel/errors';
import { canonicalAllowList, createApiKey, handleOf, publicPart, API_KEY_PREFIX } from './keys';
import { deleteApiKey, listApiKeys, updateApiKey } from './queries';

const NOT_FOUND = 'API key not found. It may have been deleted already.';

export async function getApiKeys(db: DB, userId: number): Promise<{ success: true; keys: ApiKeyRow[] }> {
  const rows = await listApiKeys(db, userId);
  return {
    success: true,
    keys: rows.map((k) => ({
      name: k.name,
      auth_key: `${API_KEY_PREFIX}${k.key_prefix}`,
      allowed: k.allowed,
      read_only: k.read_only === 1,
      created_at: k.created_at,
      last_used_at: k.last_used_at,
      last_used_ip: k.last_used_ip,
    })),
  };
}

export async function createKey(
  db: DB,
  userId: number,
  input: z.output<typeof createApiKeyInput>,
): Promise<CreateApiKeyOutput> {
  const { key } = await createApiKey(db, userId, input);
  return {
    success: true,
    message: 'API key created. Copy it now: it will not be shown again.',
    key,
    auth_key: publicPart(key),
  };
}

export async function saveKey(db: DB, userId: number, input: z.output<typeof saveApiKeyInput>) {
  const allowed = canonicalAllowList(input.allowed);
  const set = {
    name: input.name,
    allowed,
    ...(input.read_only === undefined ? {} : { read_only: input.read_only ? 1 : 0 }),
  };
  if (!(await updateApiKey(db, userId, handleOf(input.auth_key), set))) fail('NOT_FOUND', NOT_FOUND, 'auth_key');
  return { success: true as const, message: 'API key saved.' };
}

export async function deleteKey(db: DB, userId: number, authKey: string) {
  if (!(await deleteApiKey(db, userId, handleOf(authKey)))) fail('NOT_FOUND', NOT_FOUND, 'auth_key');
  return { success: true as const, message: 'API key deleted.' };
}
