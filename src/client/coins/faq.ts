/**
 * The FAQ's questions and answers, by topic. The rules come from the spec
 * (deployment-and-nodes.md section 4 "Node status", "Network status colours",
 * "Classic status flow", "Billing rules"; sections 1 and 9 of both documents); keep
 * them in step with the server's constants when those change.
 */
import { NODE_STATUSES, nodeStatusColour, nodeStatusLabel, type StatusColour } from '../../shared/node-status';

export type FaqItem = { id: string; q: string; a: string[] };
export type FaqTopic = { title: string; items: FaqItem[] };

const COLOUR_MEANING: Record<StatusColour, string> = {
  green: 'the node is up and working',
  warning: 'the node is catching up with the chain or waits to be started from your wallet',
  red: 'something is wrong; a removed node has to be deleted and deployed again',
  grey: 'the node is being set up or has not been seen on the network yet',
};
const COLOUR_NAME: Record<StatusColour, string> = { green: 'green', warning: 'yellow', red: 'red', grey: 'grey' };

/** One line per colour, from the shared status catalogue the node pages use too. */
function statusLines(): string[] {
  const colours: StatusColour[] = ['green', 'warning', 'red', 'grey'];
  return colours.map((c) => {
    const names = NODE_STATUSES.filter((s) => nodeStatusColour(s) === c).map(nodeStatusLabel);
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
    return `${list} (${COLOUR_NAME[c]}): ${COLOUR_MEANING[c]}.`;
  });
}

export const FAQ: FaqTopic[] = [
  {
    title: 'Billing',
    items: [
      {
        id: 'daily-charge',
        q: 'How am I charged for hosting?',
        a: [
          'Every node is charged its daily price at 00:00 UTC from your prepaid account balance. When a node is created, a partial-day "Initial Charge" covers the rest of that day.',
          'A node is charged whatever its status until you delete it.',
        ],
      },
      {
        id: 'monthly-fee',
        q: 'How is the monthly fee calculated?',
        a: ['The monthly fee is 30 × the daily price of the node’s plan.'],
      },
      {
        id: 'low-balance',
        q: 'What happens when my balance runs out?',
        a: [
          'Reminder emails start 3 days before your balance runs out.',
          'Nodes whose fees are not covered are destroyed, partly or fully, and destroyed nodes cannot be recovered. Keep your balance funded to keep your nodes running.',
        ],
      },
      { id: 'refunds', q: 'Can I get a refund?', a: ['No. Deposits and hosting fees are not refunded.'] },
      {
        id: 'minimum-deposit',
        q: 'What is the minimum deposit?',
        a: [
          'The minimum deposit is $5 by card and $0.01 by crypto. A crypto deposit is credited once it has enough confirmations on its network.',
        ],
      },
      {
        id: 'referral-bonus',
        q: 'How does the referral bonus work?',
        a: [
          'You get a $10 bonus when someone you referred first deposits at least $10. Only the first deposit counts. The bonus shows as pending for 14 days, then is added to your balance, unless it needs a review first (it then stays pending until we have checked it); it pays for hosting and cannot be withdrawn. Accounts of one person (the same address or card) earn no bonus.',
        ],
      },
    ],
  },
  {
    title: 'Nodes',
    items: [
      {
        id: 'node-status',
        q: 'What do the node statuses mean?',
        a: statusLines(),
      },
      {
        id: 'status-flow',
        q: 'What is the usual status flow of a new node?',
        a: [
          'Deploying → Unknown → Syncing/Pending → Start required → Running. A short Error right after the deploy is normal.',
          'The node status refreshes every 60 seconds and the network status every 15 minutes.',
        ],
      },
      {
        id: 'network-status',
        q: 'What does the network status mean?',
        a: [
          'Green: PRE_ENABLED, ENABLED, ACTIVE or ACTIVE_ONGOING. Yellow: WATCHDOG_EXPIRED, WITHDRAWAL_POSSIBLE, or any status containing EXITING or PENDING. Grey: UNKNOWN, WITHDRAWAL_DONE, or any status containing EXITED. Any other status is red.',
          'PRE_ENABLED means the node was just broadcast and will soon get rewards. A DOWN or POSE_BANNED node is re-enabled automatically.',
        ],
      },
      {
        id: 'deploy-time',
        q: 'How long does a deploy take?',
        a: [
          'A deploy usually takes under 90 seconds, sometimes up to 60 minutes. After that the node’s wallet syncs the chain, which may take up to an hour.',
        ],
      },
    ],
  },
  {
    title: 'Rewards',
    items: [
      {
        id: 'first-reward',
        q: 'When will I get my first reward?',
        a: [
          'The first reward often takes about 3 times the coin’s average reward time. Horizen nodes get their first reward after 1 week, then one every 24 hours.',
        ],
      },
      {
        id: 'roi',
        q: 'Why does my income differ from the ROI shown?',
        a: [
          'ROI is our own estimate from the block time, the block reward, the nodes’ share of it and the number of nodes on the network. Actual returns may differ by ±10%.',
        ],
      },
    ],
  },
  {
    title: 'Support and security',
    items: [
      {
        id: 'support-hours',
        q: 'When is support available?',
        a: ['Our live chat support answers every day from 7:00 to 21:00 UTC.'],
      },
      {
        id: 'cold-model',
        q: 'Do you hold my coins?',
        a: [
          'No. We use a cold model: your coins never leave your wallet. We only run the node; your balance only pays for hosting.',
        ],
      },
      {
        id: 'bulk-install',
        q: 'Do you offer anything for large fleets?',
        a: ['Yes: for more than 20 nodes we offer a bulk install. Contact us for an offer.'],
      },
    ],
  },
];

/** Items whose question or answer contains the search text, topic by topic; empty topics are left out. */
export function searchFaq(query: string): FaqTopic[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return FAQ;
  return FAQ.map((t) => ({
    ...t,
    items: t.items.filter((i) => [i.q, ...i.a].join(' ').toLowerCase().includes(needle)),
  })).filter((t) => t.items.length > 0);
}
