import { Link } from 'wouter';
import { SUPPORT_EMAIL } from '../site';

// Prices are per node per day; the monthly figure is 30 × the daily price.
const PLANS = [
  {
    name: 'Cloud',
    daily: '$0.063',
    monthly: '$1.89',
    points: ['Shared resources', '99.00% uptime', 'Charged daily from your balance'],
  },
  {
    name: 'Dedicated',
    daily: '$0.13',
    monthly: '$3.90',
    points: ['Dedicated resources', '99.99% uptime', 'Charged daily from your balance'],
    featured: true,
  },
];

export function Pricing() {
  return (
    <div className="container page">
      <header className="page-intro">
        <h1>Pricing</h1>
        <p className="lead">Pay per node per day from your prepaid balance. The monthly fee is 30 × the daily price.</p>
      </header>
      <div className="plans">
        {PLANS.map((p) => (
          <section key={p.name} className={`card plan${p.featured ? ' plan-featured' : ''}`} aria-labelledby={`plan-${p.name}`}>
            <h2 id={`plan-${p.name}`}>{p.name}</h2>
            <p className="plan-price">
              <strong>{p.daily}</strong>/day
            </p>
            <p className="muted">from {p.monthly}/mo</p>
            <ul className="plan-points">
              {p.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
            <Link href="/dashboard" className="btn btn-primary btn-block">
              Choose a coin
            </Link>
          </section>
        ))}
      </div>
      <section className="card bulk">
        <h2>Running more than 20 nodes?</h2>
        <p>
          We offer a bulk install for fleets of over 20 nodes. <a href={`mailto:${SUPPORT_EMAIL}?subject=Bulk%20install`}>Contact us</a> for an offer.
        </p>
      </section>
    </div>
  );
}
