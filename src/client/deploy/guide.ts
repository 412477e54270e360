import type { DeployInfoCoin } from '../../shared/schemas/deploy';
import { coinWords, familyOf } from '../../shared/families';
import { wizardOf } from './flow';

/**
 * What each guide step says and the commands the customer runs in their own wallet,
 * with this coin's values filled in (sections 4 and 9). Pure data, rendered by
 * GuideStep.tsx; the wizards add their forms to the last steps.
 */
export type Command = { label: string; text: string };
export type GuideStep = { title: string; text: string[]; commands: Command[]; checklist?: string[] };

type Coin = Pick<DeployInfoCoin, 'id' | 'ticker' | 'label' | 'collateral' | 'family'>;

/** Whole coins in US grouping ("1,000,000"), as a wallet shows them; commands take the plain number. */
const amount = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 8 });

/** Wallets of coins whose new address must be asked for as a legacy one (section 9). */
const LEGACY_ADDRESS = new Set(['xsn', 'vitae', 'sys']);

export const SIN_BURN_EXTRA = 25;
export const SIN_FEE_RESERVE = 100;
export const SIN_SECOND_COLLATERAL = 10000;

function prerequisites(coin: Coin, items: string[] = []): GuideStep {
  return {
    title: 'Prerequisites',
    text: ['Before you start, make sure you have everything below. You keep your coins in your own wallet; we only run the node.'],
    checklist: [
      `${amount(coin.collateral)} ${coin.ticker} (the collateral) in your own ${coin.label} wallet, plus a little for the transaction fee`,
      'Your wallet fully synchronised and unlocked',
      'A balance on your account for the daily hosting fee',
      ...items,
    ],
    commands: [],
  };
}

function newAddress(coin: Coin): Command {
  return { label: 'Create a new address in your wallet', text: LEGACY_ADDRESS.has(coin.id) ? 'getnewaddress MN1 legacy' : 'getnewaddress MN1' };
}

const sendCollateral = (coin: Coin): Command => ({
  label: `Send exactly ${amount(coin.collateral)} ${coin.ticker} to that address`,
  text: `sendtoaddress <your new address> ${coin.collateral}`,
});

/** The guide steps before the entry step's form; the form's step is the last one listed. */
export function guideSteps(coin: Coin): GuideStep[] {
  switch (wizardOf(coin)) {
    case 'burn':
      return burnSteps(coin);
    case 'dip003':
      return [
        prerequisites(coin),
        {
          title: 'Payment to yourself',
          text: [`Open your ${coin.label} wallet's console (Tools > Debug console) and create a new address for the collateral.`],
          commands: [{ label: 'Create a new address', text: 'getnewaddress' }],
        },
        {
          title: 'Payment to yourself #2',
          text: [
            `Send exactly ${amount(coin.collateral)} ${coin.ticker} to the new address in one transaction, then list your collateral outputs to find its transaction ID.`,
            'After the deploy, the node’s Configuration tab gives you the protx command to register it, with its operator key filled in.',
          ],
          commands: [{ label: `Send exactly ${amount(coin.collateral)} ${coin.ticker}`, text: `sendtoaddress <your new address> ${coin.collateral}` }, { label: 'Find the collateral transaction', text: 'masternode outputs' }],
        },
        {
          title: 'Enter the transaction ID',
          text: ['Paste the transaction ID of the collateral payment. If you migrate a node, enter its operator (BLS) secret key instead; you can find it with the command below.'],
          commands: [{ label: 'Your registered nodes (migration)', text: 'protx list wallet 1' }],
        },
      ];
    case 'zen':
      return [
        prerequisites(coin),
        {
          title: 'Create a new t-address',
          text: ['In your Horizen wallet, create a new transparent address. It must be new: an address already used for a node cannot be used again.'],
          commands: [{ label: 'Create a new t-address', text: 'zen-cli getnewaddress' }],
        },
        {
          title: 'Fund the t-address',
          text: [`Send ${amount(coin.collateral)} ZEN to the new t-address and check its balance. Keep the coins there while the node runs.`],
          commands: [
            { label: `Send ${amount(coin.collateral)} ZEN`, text: `zen-cli sendtoaddress <your new t-address> ${coin.collateral}` },
            { label: 'Check the balance', text: 'zen-cli z_getbalance <your new t-address>' },
          ],
        },
        { title: 'Enter the t-address', text: ['Paste the new t-address that holds the collateral.'], commands: [] },
      ];
    case 'monero': {
      const cli = coinWords(coin.id).walletCli;
      return [
        prerequisites(coin),
        {
          title: 'Enter your wallet address',
          text: [`Open your wallet with ${cli} and print its primary address. Your node is registered with it, and the ${amount(coin.collateral)} ${coin.ticker} stake is sent from it when you start the node.`],
          commands: [{ label: 'Your primary address', text: 'address' }],
        },
      ];
    }
    case 'energi':
      return [
        prerequisites(coin),
        {
          title: 'Enter the collateral address',
          text: [`Paste the address of your Energi wallet that holds the ${amount(coin.collateral)} NRG collateral. In the Energi Core console you can list your addresses:`],
          commands: [{ label: 'Your addresses', text: 'personal.listAccounts' }],
        },
      ];
    case 'license':
      return [
        // No collateral: the license is what the node needs.
        { title: 'Prerequisites', text: ['Before you start, make sure you have:'], checklist: ['A PLAYA3ULL node license and its license key', 'A balance on your account for the daily hosting fee'], commands: [] },
        { title: 'Enter the license key', text: ['Paste the license key of your node license. No wallet transaction is needed.'], commands: [] },
      ];
    case 'validator': {
      const { deposit } = coinWords(coin.id);
      return [
        prerequisites(coin, ['The staking deposit tool on an offline computer, and your withdrawal address']),
        {
          title: 'Generate your validator keys',
          text: ['Run the staking deposit tool on a computer you trust. Write the mnemonic down and keep it offline: it is the only way to recover your keys. Choose a keystore password; you enter it in step 4.'],
          commands: [{ label: 'Generate keys', text: `./deposit new-mnemonic --num_validators 1 --chain ${deposit.chain} --eth1_withdrawal_address <your withdrawal address>` }],
        },
        {
          title: 'Beacon chain deposit',
          text: [
            `Upload the deposit_data-*.json file at ${deposit.site} and send ${amount(coin.collateral)} ${coin.ticker} per validator from your own wallet.`,
            'The keystore-m_*.json files stay with you; you upload them in the next step.',
          ],
          commands: [{ label: 'Your files', text: 'ls validator_keys/' }],
        },
        { title: 'Upload your keystores', text: ['Upload the keystore files (.json) made in step 2, the password they share and the address that receives your priority fees.'], commands: [] },
        { title: 'Results', text: [], commands: [] },
      ];
    }
    case 'neuron':
      return [
        prerequisites(coin, ['The address of your Satori wallet that receives the rewards']),
        { title: 'Configuration', text: [`Enter the address your neurons' rewards go to and how many neurons to run (up to 50 at once).`], commands: [] },
      ];
    case 'classic':
      return classicSteps(coin);
  }
}

function classicSteps(coin: Coin): GuideStep[] {
  // DFI: the wallet creates the masternode with the operator address the deploy makes (families.ts `output`).
  if (familyOf(coin.family).output === 'defi') {
    return [
      prerequisites(coin),
      {
        title: 'Payment to yourself',
        text: [`In your DeFiChain wallet's console, create a legacy owner address and send it ${amount(coin.collateral)} DFI. Paste the transaction ID below. After the deploy you finish the setup from your wallet with the node's operator address.`],
        commands: [
          { label: 'Create an owner address', text: 'getnewaddress "" legacy' },
          { label: `Send exactly ${amount(coin.collateral)} DFI`, text: `sendtoaddress <your owner address> ${coin.collateral}` },
        ],
      },
    ];
  }
  return [
    prerequisites(coin),
    {
      title: 'Payment to yourself',
      text: [`Open your ${coin.label} wallet's console (Tools > Debug console), send the collateral to a new address of your own, then find the transaction ID and paste it below.`],
      commands: [newAddress(coin), sendCollateral(coin), { label: 'Find the collateral transaction', text: `${coinWords(coin.id).nodeWord} outputs` }],
    },
  ];
}

function burnSteps(coin: Coin): GuideStep[] {
  const first = coin.collateral + SIN_BURN_EXTRA;
  return [
    {
      title: 'Warning',
      text: [
        `A ${coin.label} node needs a burn: ${amount(coin.collateral)} ${coin.ticker} are destroyed on the chain for good, and a second collateral of exactly ${amount(SIN_SECOND_COLLATERAL)} ${coin.ticker} stays in your wallet.`,
        'A burn transaction is valid for 1 year. Read every step before you send anything.',
      ],
      commands: [],
    },
    prerequisites(coin, [`${amount(first + SIN_FEE_RESERVE + SIN_SECOND_COLLATERAL)} ${coin.ticker} in total: the burn, ${SIN_BURN_EXTRA} for its transaction, ${SIN_FEE_RESERVE} for fees and the second collateral`]),
    {
      title: 'Prepare your wallet',
      // The passphrase is never asked for here: the customer types it in their own wallet only.
      text: ['Open the wallet console and unlock the wallet for 15 minutes: type walletpassphrase, then your wallet passphrase in double quotes, then 900 (the seconds it stays unlocked), and press Enter. Never type your passphrase anywhere but your own wallet.'],
      commands: [],
    },
    { title: 'Collateral preparation 1/3', text: ['Create a new address for the burn collateral.'], commands: [{ label: 'Create a new address', text: 'getnewaddress' }] },
    {
      title: 'Collateral preparation 2/3',
      text: [`Send ${amount(first)} ${coin.ticker} (the collateral plus ${SIN_BURN_EXTRA}) to that address in one transaction.`],
      commands: [{ label: `Send ${amount(first)} ${coin.ticker}`, text: `sendtoaddress <your new address> ${first}` }],
    },
    {
      title: 'Collateral preparation 3/3',
      text: [`Keep an extra ${SIN_FEE_RESERVE} ${coin.ticker} in the wallet for fees, and check the balance.`],
      commands: [{ label: 'Check the balance', text: 'getbalance' }],
    },
    {
      title: 'Burn',
      text: [`Burn ${amount(coin.collateral)} ${coin.ticker} from the prepared address, then paste the burn transaction ID and check it. The burn is valid for 1 year.`],
      commands: [{ label: `Burn ${amount(coin.collateral)} ${coin.ticker}`, text: `infinitynodeburnfund <your new address> ${coin.collateral} <your backup address>` }],
    },
    {
      title: `Second collateral of ${amount(SIN_SECOND_COLLATERAL)} ${coin.ticker}`,
      text: [`Create another address and send it exactly ${amount(SIN_SECOND_COLLATERAL)} ${coin.ticker}.`],
      commands: [
        { label: 'Create another address', text: 'getnewaddress' },
        { label: `Send exactly ${amount(SIN_SECOND_COLLATERAL)} ${coin.ticker}`, text: `sendtoaddress <your other address> ${SIN_SECOND_COLLATERAL}` },
      ],
    },
    { title: 'Enter the collateral transaction ID', text: [`Paste the transaction ID of the ${amount(SIN_SECOND_COLLATERAL)} ${coin.ticker} payment.`], commands: [] },
  ];
}

/** The entry field's label by family (families.ts `entry`). */
export function entryLabel(coin: Coin): string {
  switch (wizardOf(coin)) {
    case 'zen':
      return 'T-address';
    case 'monero':
      return 'Wallet address';
    case 'energi':
      return 'Collateral address';
    case 'license':
      return 'License key';
    default:
      return 'Transaction ID';
  }
}
