import { coinWords, familyOf } from '../../shared/families';
import { FEE_ADDRESS_TOKEN } from '../../shared/quick-setup';
import type { NodeSetup } from '../../shared/schemas/nodes';
import type { CoinRecord, Masternode } from '../db/schema';
import { blsPublicKeyHex, isBlsSecretKey } from './bls';
import type { NodeSecrets } from './node-secrets';
import { START_CLAIM_MS } from './repository';
import { blsPublicKeyOf, collateralOf, defiOutput, registerCommand, startMarker, validatorOutput } from './output-read';

/**
 * What the node's Configuration tab and details table need, per family (section 2,
 * "Node page"; issue 8, "Per family, what the node's views need"): the commands the owner
 * runs in their own wallet with this node's values filled in, and the values to show.
 * Values only the owner knows stay placeholders in angle brackets.
 */
type Input = {
  node: Masternode;
  coin: Pick<CoinRecord, 'id' | 'ticker' | 'family'>;
  secrets: NodeSecrets | null;
  /** Classic and SIN: the sealed masternode key, opened for the owner (null: not shown). */
  masternodeKey?: string | null;
  /** When the node's start was claimed (a start under way), if it was (repository `startClaimOf`). */
  startClaimAt?: number | null;
};

const MARKERS = new Set(['not_active', 'active', 'migrated']);

/** The node's name in the owner's wallet: its alias, else its id (spaces are not allowed there). */
const walletName = (n: Masternode) => (n.alias ?? n.mn_id).replace(/\s+/g, '_');

/** `ip:port` of the node: where it was placed and the coin's P2P port (nodes/service.ts `withPublicAddress`). */
function service(n: Masternode): string {
  const host = n.server_ip && n.server_ip.includes(':') ? `[${n.server_ip}]` : n.server_ip;
  return `${host ?? '<ip>'}:${n.p2p_port ?? '<port>'}`;
}

/**
 * Classic coins' masternode.conf line: `<alias> <ip>:<port> <privkey> <txid> <index>`. The
 * output text keeps only a slot for the key (output-text.ts); `key` is the sealed one,
 * opened for the owner, else a placeholder.
 */
export function masternodeConfLine(n: Masternode, key: string | null = null): string {
  const privkey = key ?? '<masternodeprivkey>';
  const words = (n.output_text ?? '')
    .trim()
    .split(/\s+/)
    .filter((w) => w && !MARKERS.has(w));
  if (words.length >= 5) return [walletName(n), words[1], privkey, ...words.slice(3)].join(' ');
  const c = collateralOf(n.output_text) ?? (n.entry ? { txid: n.entry, index: null } : null);
  return [walletName(n), service(n), privkey, c?.txid ?? '<txid>', c?.index ?? '<index>'].join(' ');
}

/** The start command of a classic coin, in its wallet's words (NIX calls its nodes ghostnodes). */
export function classicStartCommand(coinId: string, n: Masternode): string {
  return `${coinWords(coinId).nodeWord} start-alias ${walletName(n)}`;
}

function operatorPublicKey(n: Masternode, secrets: NodeSecrets | null): string | null {
  const fromText = blsPublicKeyOf(n.output_text);
  if (fromText) return fromText;
  const s = secrets?.operatorSecret;
  return s && isBlsSecretKey(s) ? blsPublicKeyHex(Buffer.from(s.replace(/^0x/, ''), 'hex')) : null;
}

export function buildSetup({ node: n, coin, secrets, masternodeKey = null, startClaimAt = null }: Input): {
  setup: NodeSetup;
  start_cmd: string;
} {
  const family = familyOf(coin.family);
  const marker = startMarker(n.output_text);
  const setup: NodeSetup = {
    view: family.configView,
    commands: [],
    fields: [],
    started: marker === 'active' || marker === 'migrated' || n.started_at !== null,
    starting: n.started_at === null && startClaimAt !== null && startClaimAt > Date.now() - START_CLAIM_MS,
    fee_recipient: null,
    withdrawal_address: null,
    pose_penalty: n.pose_penalty,
    last_paid_block: n.last_paid_height,
  };
  const field = (label: string, value: string | null | undefined, secret = false) => {
    if (value) setup.fields.push({ label, value, secret });
  };
  let start_cmd = '';
  const c = collateralOf(n.output_text) ?? (n.entry ? { txid: n.entry, index: null } : null);

  switch (family.configView) {
    case 'dip003':
    case 'dip003_restrict': {
      const operatorPub = operatorPublicKey(n, secrets);
      const payout = n.payee || '<payoutAddress>';
      const prepare = `protx register_prepare ${c?.txid ?? '<collateralHash>'} ${c?.index ?? '<collateralIndex>'} ${service(n)} <ownerAddress> ${operatorPub ?? '<operatorPubKey>'} <votingAddress> 0 ${payout}`;
      setup.commands.push(
        { label: 'Find the collateral output index', text: 'masternode outputs' },
        { label: 'Prepare the registration', text: prepare },
        { label: 'Sign the message it printed', text: 'signmessage <collateralAddress> <signMessage>' },
        {
          label: 'Paste back: the register_prepare output, then the signature',
          text: '{"tx": "…", "collateralAddress": "…", "signMessage": "…"} <signature>',
        },
      );
      start_cmd = prepare;
      field('Operator public key', operatorPub);
      field('BLS secret', secrets?.operatorSecret, true);
      field('Payee address', n.payee);
      field('TXID', c?.txid);
      break;
    }
    case 'quick_setup': {
      // The fee source address is the customer's: the node page fills the token with what they type.
      const cmd = `protx quick_setup ${c?.txid ?? '<collateralHash>'} ${c?.index ?? '<collateralIndex>'} ${service(n)} ${FEE_ADDRESS_TOKEN}`;
      setup.commands.push(
        { label: 'Set up the node from your wallet', text: cmd },
        {
          label: 'Paste back: the smartnodeblsprivkey line of the file it wrote',
          text: 'smartnodeblsprivkey=<secret>',
        },
      );
      start_cmd = cmd;
      field('Operator key', secrets?.operatorSecret, true);
      field('TXID', c?.txid);
      break;
    }
    case 'monero': {
      const cmd = registerCommand(n.output_text);
      if (cmd) {
        setup.commands.push({ label: 'Register the node from your wallet', text: cmd });
        start_cmd = cmd;
      }
      field('Address', n.entry);
      field('Secret key', secrets?.moneroSecret, true);
      break;
    }
    case 'validator': {
      const out = validatorOutput(n.output_text);
      setup.fee_recipient = n.fee_recipient ?? out?.fee_recipient ?? null;
      // The withdrawal credentials are in the deposit, not the keystore: not known here.
      setup.withdrawal_address = null;
      field('Validator pubkey', n.validator_pubkey ?? out?.pubkey);
      field('Fee recipient', setup.fee_recipient);
      break;
    }
    case 'zen':
    case 'nrg':
      field('Address', n.entry);
      break;
    case '3ull':
      field('License key', n.entry, true);
      break;
    case 'classic': {
      if (family.output === 'defi') {
        const d = defiOutput(n.output_text);
        const op = d.operatorAddress ?? '<operatorAddress>';
        start_cmd = `createmasternode <ownerAddress> ${op}`;
        setup.commands.push({ label: 'Create the masternode from your wallet', text: start_cmd });
        field('Operator address', d.operatorAddress);
        field('TXID', d.txid ?? n.entry);
        break;
      }
      if (family.entry === 'reward_address') {
        field('Reward address', n.entry);
        break;
      }
      const line = masternodeConfLine(n, masternodeKey);
      start_cmd = classicStartCommand(coin.id, n);
      setup.commands.push(
        { label: 'masternode.conf', text: line },
        { label: 'Start the node from your wallet', text: start_cmd },
      );
      field('Private key', masternodeKey, true);
      field('TXID', c?.txid);
      break;
    }
  }
  return { setup, start_cmd };
}
