import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { formatDailyPrice } from '../../shared/format';
import { trpc } from '../app/trpc';
import { lowestDailyPrice, planFloors, type PriceRow } from '../coins/pricing';
import { formatUsd2 } from '../ui/display';
import '../layout/site.css';

const STEPS = [
  {
    title: 'Pick a coin',
    text: 'Choose a masternode, validator or staking coin from the list and a dedicated or cloud plan.',
  },
  {
    title: 'Send the collateral to yourself',
    text: 'Your coins stay in your own wallet. You only paste the transaction ID, we never hold your funds.',
  },
  {
    title: 'We run the node',
    text: 'We set up the server, keep the wallet synced and watch it around the clock. Rewards go straight to you.',
  },
];

const FEATURES = [
  { title: 'Cold model', text: 'Collateral never leaves your wallet; the node only needs its own keys.' },
  {
    title: 'Dedicated or cloud',
    text: 'Dedicated resources for 99.99% uptime, or shared cloud hosting at the lowest price.',
  },
  {
    title: 'Pay per day',
    text: 'Hosting is charged daily from a prepaid balance. Fund it by crypto, card or gift code.',
  },
  {
    title: 'Two-factor login',
    text: 'Protect your account with an authenticator app and API keys limited to your IPs.',
  },
  { title: 'Live updates', text: 'Deploy progress, balance and notifications reach your browser as they happen.' },
  { title: 'Human support', text: 'Our team answers every day from 7:00 to 21:00 UTC.' },
];

/**
 * /#overview and /#features scroll to their section on load (the browser tries before
 * the app has rendered them) and when the hash changes while the page is open.
 */
function useScrollToHash() {
  useEffect(() => {
    const go = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      if (id) document.getElementById(id)?.scrollIntoView({ block: 'start' });
    };
    go();
    window.addEventListener('hashchange', go);
    return () => window.removeEventListener('hashchange', go);
  }, []);
}

/** The prices on offer now (campaigns included), undefined until loaded: the page never states a price it made up. */
function useOfferedPrices(): PriceRow[] | undefined {
  return trpc.coins.get_detailed.useQuery().data?.data;
}

/** "Pricing from $X/day" at the lowest daily price on offer; just "Pricing" until it is known. */
function PricingFrom({ rows }: { rows: PriceRow[] | undefined }) {
  const lowest = rows ? lowestDailyPrice(rows) : null;
  return <>{lowest === null ? 'Pricing' : `Pricing from $${formatDailyPrice(lowest)}/day`}</>;
}

/** The plans' monthly "from" prices, each only when some coin offers the plan. */
function PlanMonthly({ rows }: { rows: PriceRow[] | undefined }) {
  const floors = rows ? planFloors(rows) : null;
  const parts = [
    floors?.cloud && `Cloud hosting from ${formatUsd2(floors.cloud.monthly)} a month`,
    floors?.dedicated && `dedicated from ${formatUsd2(floors.dedicated.monthly)}`,
  ].filter(Boolean);
  return <>{parts.length ? `${parts.join(', ')}. No setup fee.` : 'No setup fee.'}</>;
}

export function Landing() {
  useScrollToHash();
  const prices = useOfferedPrices();
  const [, navigate] = useLocation();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');

  // Forward only what was typed: /register reads these as prefill.
  function onStart(e: FormEvent) {
    e.preventDefault();
    const q = new URLSearchParams();
    if (username.trim()) q.set('username', username.trim());
    if (email.trim()) q.set('email', email.trim());
    const query = q.toString();
    navigate(query ? `/register?${query}` : '/register');
  }

  return (
    <>
      <section className="hero">
        <div className="container hero-inner">
          <div className="hero-copy">
            <h1>Masternode hosting without handing over your coins</h1>
            <p className="lead">
              Deploy masternodes, validators and staking nodes in minutes. Your collateral stays in your wallet; we keep
              the node online.
            </p>
            <p className="hero-price">
              <Link href="/pricing">
                <PricingFrom rows={prices} />
              </Link>
            </p>
          </div>
          <form className="card hero-form" onSubmit={onStart} aria-label="Create your account">
            <h2>Create your free account</h2>
            <div className="field">
              <label htmlFor="hero-username">Username</label>
              <input
                id="hero-username"
                value={username}
                onChange={(e) => setUsername(e.target.value)}
                autoComplete="username"
              />
            </div>
            <div className="field">
              <label htmlFor="hero-email">Email</label>
              <input
                id="hero-email"
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                autoComplete="email"
              />
            </div>
            <button type="submit" className="btn btn-primary btn-block">
              Get started
            </button>
            <p className="muted small">
              Already have an account? <Link href="/login">Log in</Link>
            </p>
          </form>
        </div>
      </section>

      <section id="overview" className="section">
        <div className="container">
          <h2 className="section-title">Deploy in three steps</h2>
          <ol className="steps">
            {STEPS.map((s, i) => (
              <li key={s.title} className="card step">
                <span className="step-number" aria-hidden="true">
                  {i + 1}
                </span>
                <h3>{s.title}</h3>
                <p>{s.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section id="features" className="section section-alt">
        <div className="container">
          <h2 className="section-title">Features</h2>
          <ul className="features">
            {FEATURES.map((f) => (
              <li key={f.title} className="feature">
                <h3>{f.title}</h3>
                <p>{f.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section">
        <div className="container">
          <div className="teaser card">
            <div>
              <h2>
                <PricingFrom rows={prices} />
              </h2>
              <p className="muted">
                <PlanMonthly rows={prices} />
              </p>
            </div>
            <Link href="/pricing" className="btn btn-primary">
              See pricing
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
