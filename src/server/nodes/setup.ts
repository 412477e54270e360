import { coinWords, familyOf } from '../../shared/families';
import { explorerUrl, type ExplorerLink, type ExplorerTemplates } from '../../shared/explorer';
import { FEE_ADDRESS_TOKEN } from '../../shared/quick-setup';
import type { NodeSetup } from '../../shared/schemas/nodes';
import type { CoinRecord, Masternode } from '../db/schema';
import { blsPublicKeyHex, isBlsSecretKey } from './bls';
import type { NodeSecrets } from './node-secrets';
import { START_CLAIM_MS } from './repository';
import { blsPublicKeyOf, collateralOf, defiOutput, registerCommand, startMarker, validatorOutput } from './output-read';
import { ADDRESS_TOKEN, parseOutputText } from './output-text';

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
  /** The coin's public explorer (catalog `explorer`): transaction ids and addresses link to it. */
  explorer?: ExplorerTemplates | null;
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
  // Before the node is placed its text holds the `{address}` token: the line then names the
  // slot the page explains (the address appears when the node is placed on a server).
  const address = words[1] === ADDRESS_TOKEN ? service(n) : words[1];
  if (words.length >= 5) return [walletName(n), address, privkey, ...words.slice(3)].join(' ');
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

/**
 * Energi's P2P port, a network constant: energi3 listens on 39797 by default
 * (go-energi v1.1.8 cmd/utils/flags.go:556-559, catalog/daemon-facts/energi3.json) and
 * `masternode.announce` refuses an enode URL on any other port ("Wrong enode port": it must
 * equal the chain id, 39797, energi/api/masternode.go).
 */
export const ENERGI_P2P_PORT = 39797;

/**
 * The Energi announcement's node value: `enode://` + node id + `@` + public IPv4 + `:39797`,
 * or why it cannot be given (the owner reads that sentence where the value would be).
 */
export function energiEnode(n: Masternode): { id: string | null; url: string | null; missing: string | null } {
  const f = parseOutputText('nrg', n.output_text);
  const id = f?.kind === 'energi' ? f.enodeId : null;
  if (!id)
    return {
      id,
      url: null,
      missing:
        'This node was deployed before the platform made its node key, so its enode URL is not known. Delete it and deploy it again to get one.',
    };
  // A simulated node answers on no public address (the IP row says so): its id is all there is.
  if (n.simulated === 1)
    return {
      id,
      url: null,
      missing:
        'This is a simulated node: it has no public IPv4 address, which an enode URL needs. Its enode id is shown above.',
    };
  if (!n.server_ip)
    return {
      id,
      url: null,
      missing:
        'The enode URL needs the public IPv4 address the node is given when it is placed on a host, a few seconds after the deploy.',
    };
  return { id, url: `enode://${id}@${n.server_ip}:${ENERGI_P2P_PORT}`, missing: null };
}

export function buildSetup({
  node: n,
  coin,
  secrets,
  masternodeKey = null,
  startClaimAt = null,
  explorer = null,
}: Input): {
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
    // A simulated node's chain pays nobody: no paid block to show.
    last_paid_block: n.simulated === 1 ? null : n.last_paid_height,
  };
  // A simulated node's values are on no public chain: an explorer would not know them.
  const linked = n.simulated === 1 ? null : explorer;
  const field = (label: string, value: string | null | undefined, secret = false, link?: ExplorerLink) => {
    if (value)
      setup.fields.push({ label, value, secret, href: link && linked ? explorerUrl(linked, link, value) : null });
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
        // What to paste back (the prepare output, then the signature) is said by the form below.
        { label: 'Sign the message it printed', text: 'signmessage <collateralAddress> <signMessage>' },
      );
      start_cmd = prepare;
      field('Operator public key', operatorPub);
      field('BLS secret', secrets?.operatorSecret, true);
      field('Payee address', n.payee, false, 'address');
      field('TXID', c?.txid, false, 'tx');
      break;
    }
    case 'quick_setup': {
      // The fee source address is the customer's: the node page fills the token with what they type.
      const cmd = `protx quick_setup ${c?.txid ?? '<collateralHash>'} ${c?.index ?? '<collateralIndex>'} ${service(n)} ${FEE_ADDRESS_TOKEN}`;
      // What to paste back (the smartnodeblsprivkey line) is said by the form below.
      setup.commands.push({ label: 'Set up the node from your wallet', text: cmd });
      start_cmd = cmd;
      field('Operator key', secrets?.operatorSecret, true);
      field('TXID', c?.txid, false, 'tx');
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
      field('Fee recipient', setup.fee_recipient, false, 'address');
      break;
    }
    case 'zen':
      field('Address', n.entry, false, 'address');
      break;
    case 'nrg': {
      // What the announcement asks for (energi3's masternode.announce(owner, enode_url)):
      // the owner address they deployed with and this node's enode URL.
      const enode = energiEnode(n);
      if (n.entry && enode.id) setup.commands.push({ label: 'Owner address (holds the collateral)', text: n.entry });
      if (enode.url) {
        start_cmd = enode.url;
        setup.commands.push({ label: 'Masternode enode URL', text: enode.url });
      } else if (enode.id) setup.commands.push({ label: 'Masternode enode id', text: enode.id });
      if (enode.missing) setup.missing = enode.missing;
      field('Address', n.entry, false, 'address');
      break;
    }
    case '3ull':
      field('License key', n.entry, true);
      break;
    case 'defi': {
      // DeFiChain: the hosted node mints as the operator (defi.conf's masternode_operator,
      // with gen=1: the defid profile writes both); the owner's wallet creates the masternode
      // naming that operator (`createmasternode ownerAddress operatorAddress`, DeFiCh/ain
      // src/masternodes/rpc_masternodes.cpp). The owner address is theirs: the page builds
      // that command from what they type, so no placeholder is shown.
      const d = defiOutput(n.output_text);
      if (d.operatorAddress) {
        setup.commands.push({
          label: 'defi.conf of your hosted node',
          text: `masternode_operator=${d.operatorAddress}`,
        });
      } else setup.missing = 'This node holds no operator address: delete it and deploy it again.';
      field('Operator address', d.operatorAddress, false, 'address');
      field('TXID', d.txid ?? n.entry, false, 'tx');
      break;
    }
    case 'classic': {
      if (family.entry === 'reward_address') {
        field('Reward address', n.entry, false, 'address');
        break;
      }
      const line = masternodeConfLine(n, masternodeKey);
      start_cmd = classicStartCommand(coin.id, n);
      setup.commands.push(
        { label: 'masternode.conf', text: line },
        { label: 'Start the node from your wallet', text: start_cmd },
      );
      field('Private key', masternodeKey, true);
      field('TXID', c?.txid, false, 'tx');
      break;
    }
  }
  return { setup, start_cmd };
}
