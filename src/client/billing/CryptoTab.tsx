import { ContactLink } from '../layout/support';
import QRCode from 'qrcode';
import { useEffect, useId, useRef, useState } from 'react';
import { generateWalletInput } from '../../shared/schemas/billing';
import { trpc } from '../app/trpc';
import { useUser } from '../session/session';
import { Alert } from '../ui/Alert';
import { CopyButton } from '../ui/CopyButton';
import { QueryState } from '../ui/QueryState';
import { PageLoading } from '../ui/Spinner';
import { useForm } from '../ui/useForm';
import './billing-crypto.css';

/** The three acknowledgements before an address is made (platform-and-account.md section 5). */
const ACKNOWLEDGEMENTS = [
  'I understand that deposits only cover hosting fees.',
  'I understand that I must buy the masternode collateral myself.',
  'I understand that crypto deposits are non-refundable.',
] as const;

/**
 * Billing's Crypto tab: pick a currency, accept the three acknowledgements, generate the
 * address (the same one every time after), shown with a QR code and a copy button. A
 * deposit is credited at the currency's confirmations; pending ones are listed by the page.
 * When generating fails, the currency list is fetched again (the spec's rule: the currency
 * may have been withdrawn).
 */
export function CryptoTab() {
  const list = trpc.billing.get_alt_payments.useQuery();
  // Only the ways that work here are named: with card payments off, the Stripe tab says so.
  const cards = !!useUser().stripe_public_key;
  return (
    <QueryState query={list} what="The deposit currencies">
      {(data) =>
        data.currencies.length ? (
          <CryptoForm currencies={data.currencies} onFailure={() => void list.refetch()} />
        ) : (
          <Alert kind="info">
            No crypto currency is accepted for deposits at the moment.{' '}
            {cards ? 'Pay by card in the Stripe tab, redeem' : 'Redeem'} a gift code in the Gift Code tab, or{' '}
            <ContactLink subject="Add funds">contact support</ContactLink>.
          </Alert>
        )
      }
    </QueryState>
  );
}

type Currency = { id: string; label: string; ticker: string; address: string; max_confirmations: number };

/* Nothing is typed here: the currency is a choice, and the button waits for the acknowledgements. */
function CryptoForm({ currencies, onFailure }: { currencies: Currency[]; onFailure: () => void }) {
  const utils = trpc.useUtils();
  const [acks, setAcks] = useState<boolean[]>(ACKNOWLEDGEMENTS.map(() => false));
  const selectId = useId();
  const generate = trpc.billing.generate_wallet.useMutation({
    onSuccess: () => utils.billing.get_alt_payments.invalidate(),
  });
  // The acknowledgements are the client's gate (Generate stays disabled), not the schema's input.
  const form = useForm({
    schema: generateWalletInput,
    initial: { currency: currencies[0].id },
    // The currency on screen: after a failure the list is fetched again, and a withdrawn
    // currency's select falls back to the first one left.
    toInput: ({ currency }) => ({ currency: (currencies.find((c) => c.id === currency) ?? currencies[0]).id }),
    submit: (data) => generate.mutateAsync(data),
    successMessage: () => null,
    onError: onFailure,
  });
  const currency = currencies.find((c) => c.id === form.values.currency) ?? currencies[0];
  const address =
    currency.address || (generate.data && generate.variables?.currency === currency.id ? generate.data.address : '');
  const ready = acks.every(Boolean);

  return (
    <div className="crypto-tab">
      <div className="field">
        <label htmlFor={selectId}>Currency</label>
        <select
          id={selectId}
          value={currency.id}
          onChange={(e) => {
            form.setValues({ currency: e.target.value });
            generate.reset();
          }}
        >
          {currencies.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label} ({c.ticker})
            </option>
          ))}
        </select>
      </div>
      {address ? (
        <DepositAddress currency={currency} address={address} justGenerated={generate.isSuccess} />
      ) : (
        <form
          onSubmit={(e) => {
            if (ready) void form.onSubmit(e);
            else e.preventDefault();
          }}
        >
          <fieldset>
            <legend>Before you deposit</legend>
            {ACKNOWLEDGEMENTS.map((text, i) => (
              <label key={text} className="check">
                <input
                  type="checkbox"
                  checked={acks[i]}
                  onChange={(e) => setAcks(acks.map((a, j) => (j === i ? e.target.checked : a)))}
                />{' '}
                {text}
              </label>
            ))}
          </fieldset>
          {/* Said until another currency is picked (which resets the mutation), as before. */}
          {generate.isError && form.error && <Alert kind="error">{form.error}</Alert>}
          <button type="submit" className="btn btn-primary" disabled={!ready} aria-disabled={form.pending || undefined}>
            {form.pending ? 'Generating…' : 'Generate address'}
          </button>
        </form>
      )}
    </div>
  );
}

function DepositAddress({
  currency,
  address,
  justGenerated,
}: {
  currency: Currency;
  address: string;
  justGenerated: boolean;
}) {
  const [qr, setQr] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // The Generate button is gone: the keyboard focus goes on to Copy, next to the new address, not back to the page's top.
  useEffect(() => {
    if (justGenerated) box.current?.querySelector<HTMLButtonElement>('.secret-line button')?.focus();
  }, [justGenerated]);
  useEffect(() => {
    let live = true;
    setQr(null);
    QRCode.toDataURL(address, { margin: 1, width: 200 })
      .then((url) => live && setQr(url))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [address]);
  return (
    <div className="deposit-address" ref={box}>
      <p>
        Send {currency.label} ({currency.ticker}) to this address. Your deposit is credited to your balance in USD after{' '}
        {currency.max_confirmations} confirmation
        {currency.max_confirmations === 1 ? '' : 's'}.
      </p>
      <div className="qr">
        {qr ? (
          <img src={qr} width={200} height={200} alt={`QR code of your ${currency.label} deposit address`} />
        ) : failed ? null : (
          <PageLoading />
        )}
      </div>
      <p className="secret-line">
        <code data-testid="deposit-address">{address}</code> <CopyButton text={address} label="Copy address" />
      </p>
    </div>
  );
}
