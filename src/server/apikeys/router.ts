import {
  createApiKeyInput,
  createApiKeyOutput,
  deleteApiKeyInput,
  getApiKeysOutput,
  saveApiKeyInput,
} from '../../shared/schemas/apikeys';
import { messageResponse } from '../../shared/schemas/common';
import { authedProcedure, router } from '../rpc/trpc';
import { createKey, deleteKey, getApiKeys, saveKey } from './service';

// Session only: a key that could manage keys could make itself an unlimited, writable
// key from any address (src/server/apikeys/README.md).
export const apikeysRouter = router({
  get_api_keys: authedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_api_keys',
        summary:
          "`{success, keys[{name, auth_key, allowed, read_only, created_at, last_used_at, last_used_ip}]}`: `auth_key` is the key's public prefix, never the whole key",
      },
    })
    .output(getApiKeysOutput)
    .query(({ ctx }) => getApiKeys(ctx.db, ctx.user.id)),
  create_api_key: authedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/create_api_key',
        summary:
          '`{success, message, key, auth_key}`: `{name, allowed, read_only?}`; `key` is the whole key, shown this once',
      },
    })
    .input(createApiKeyInput)
    .output(createApiKeyOutput)
    .mutation(({ ctx, input }) => createKey(ctx.db, ctx.user.id, input)),
  save_api_key: authedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/save_api_key',
        summary: '`{success, message}`: `{auth_key, name, allowed, read_only?}` changes the key named by its prefix',
      },
    })
    .input(saveApiKeyInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => saveKey(ctx.db, ctx.user.id, input)),
  delete_api_key: authedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/delete_api_key',
        summary: '`{success, message}`: `{auth_key}`; the key is refused from the next call',
      },
    })
    .input(deleteApiKeyInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => deleteKey(ctx.db, ctx.user.id, input.auth_key)),
});
