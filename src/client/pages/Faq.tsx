import { useId, useState } from 'react';
import { SUPPORT_EMAIL } from '../site';

const QUESTIONS: { q: string; a: string }[] = [
  {
    q: 'How am I charged for hosting?',
    a: 'Every node is charged once a day from your prepaid account balance. Keep the balance funded to keep your nodes running.',
  },
  { q: 'How is the monthly fee calculated?', a: 'The monthly fee is 30 × the daily price of the node’s plan.' },
  { q: 'Can I get a refund?', a: 'No. Deposits and hosting fees are not refunded, and crypto deposits are non-refundable.' },
  {
    q: 'What is the minimum deposit?',
    a: 'The minimum is $5 for a card payment and $0.01 for a crypto deposit. A crypto deposit is credited once it has enough confirmations.',
  },
  { q: 'Do you hold my collateral?', a: 'No. Collateral stays in your own wallet; deposits only cover hosting fees.' },
  {
    q: 'How long does a deploy take?',
    a: 'A node is usually set up within minutes of pasting the collateral transaction ID; the deploy page shows each step as it happens. Coins whose wallet must sync a long chain first can take longer.',
  },
  { q: 'When is support available?', a: 'Our support team answers every day from 7:00 to 21:00 UTC. Messages sent outside those hours are answered the next morning.' },
];

export function Faq() {
  const [query, setQuery] = useState('');
  const searchId = useId();
  const needle = query.trim().toLowerCase();
  const shown = QUESTIONS.filter((item) => !needle || `${item.q} ${item.a}`.toLowerCase().includes(needle));

  return (
    <div className="container page narrow">
      <header className="page-intro">
        <h1>Frequently asked questions</h1>
      </header>
      <div className="field">
        <label htmlFor={searchId}>Search the FAQ</label>
        <input id={searchId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="e.g. refund" />
      </div>
      {shown.length === 0 ? (
        <p className="muted">
          No question matches “{query}”. <a href={`mailto:${SUPPORT_EMAIL}`}>Ask us directly</a>.
        </p>
      ) : (
        <div className="accordion">
          {shown.map((item) => (
            <details key={item.q} className="accordion-item" open={needle.length > 0 || undefined}>
              <summary>{item.q}</summary>
              <p>{item.a}</p>
            </details>
          ))}
        </div>
      )}
    </div>
  );
}
