import type { ComponentType } from 'react';
import type { NotificationIcon as IconName } from '../../shared/notification-kinds';
import {
  ActionIcon,
  ArrowDownIcon,
  ArrowUpIcon,
  BellIcon,
  CheckIcon,
  GiftIcon,
  RewardIcon,
  ShieldIcon,
  TrashIcon,
  WalletIcon,
  WarningIcon,
} from '../ui/Icons';

type Tone = 'good' | 'bad' | 'warn' | 'info';

/** Every icon name the server may send (notification-kinds.ts), with its picture and colour. */
const ICONS: Record<IconName, { Icon: ComponentType<{ size?: number }>; tone: Tone }> = {
  check: { Icon: CheckIcon, tone: 'good' },
  action: { Icon: ActionIcon, tone: 'warn' },
  down: { Icon: ArrowDownIcon, tone: 'bad' },
  up: { Icon: ArrowUpIcon, tone: 'good' },
  warning: { Icon: WarningIcon, tone: 'bad' },
  reward: { Icon: RewardIcon, tone: 'good' },
  shield: { Icon: ShieldIcon, tone: 'info' },
  wallet: { Icon: WalletIcon, tone: 'good' },
  gift: { Icon: GiftIcon, tone: 'good' },
  trash: { Icon: TrashIcon, tone: 'bad' },
};

/** A notification's icon; a name this build does not know (a newer server) gets the bell. */
export function NotificationIcon({ name }: { name: string }) {
  const { Icon, tone } = Object.hasOwn(ICONS, name)
    ? ICONS[name as IconName]
    : { Icon: BellIcon, tone: 'info' as const };
  return (
    <span className={`notification-icon notification-icon-${tone}`} data-icon={name}>
      <Icon size={18} />
    </span>
  );
}
