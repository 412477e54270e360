import type { AlertChannelType } from '../../../shared/schemas/alert-channels';
import type { SecretBox } from '../../secrets/box';

/** Binds a sealed channel secret to its owner and type: copied to another user's row, it does not open. */
const aad = (userId: number, type: string) => `alert-channel:${userId}:${type}`;

export function sealChannelSecret(
  box: Pick<SecretBox, 'seal'>,
  userId: number,
  type: AlertChannelType,
  secret: string,
): string {
  return box.seal(secret, aad(userId, type));
}

export function openChannelSecret(
  box: Pick<SecretBox, 'open'>,
  row: { user_id: number; type: string; secret: string },
): string {
  return box.open(row.secret, aad(row.user_id, row.type));
}
