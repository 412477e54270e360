import type { DeployInfoCoin, Plan } from '../../shared/schemas/deploy';
import { planPrice, type Experience } from './flow';

const PLANS: { plan: Plan; title: string; text: string }[] = [
  { plan: 'dedicated', title: 'Dedicated', text: 'Dedicated resources, 99.99% uptime.' },
  { plan: 'cloud', title: 'Cloud', text: 'Shared resources, 99.00% uptime.' },
];

const EXPERIENCES: { experience: Experience; title: string; text: string }[] = [
  { experience: 'beginner', title: 'Beginner', text: 'Step by step, from preparing your wallet to the deploy.' },
  { experience: 'advanced', title: 'Advanced/Migration', text: 'Your collateral is ready, or you move a node from another platform.' },
];

export const NO_CLOUD = 'This coin has no Cloud plan.';

type Props = {
  coin: DeployInfoCoin;
  plan: Plan;
  experience: Experience;
  onChange: (choice: { plan?: Plan; experience?: Experience }) => void;
  onStart: () => void;
};

/** The begin step: a plan card with its daily price, an experience card, then 'Let's start'. */
export function BeginStep({ coin, plan, experience, onChange, onStart }: Props) {
  return (
    <section className="card deploy-begin">
      <fieldset className="choice-cards">
        <legend>Choose a plan</legend>
        {PLANS.map((p) => {
          const disabled = p.plan === 'cloud' && !coin.cloud;
          const price = planPrice(coin, p.plan);
          return (
            <label key={p.plan} className={`choice-card${plan === p.plan ? ' selected' : ''}${disabled ? ' disabled' : ''}`} title={disabled ? NO_CLOUD : undefined} data-plan={p.plan}>
              <input type="radio" name="plan" value={p.plan} checked={plan === p.plan} disabled={disabled} onChange={() => onChange({ plan: p.plan })} />
              <span className="choice-title">{p.title}</span>
              {/* A plan the coin does not offer has no price: showing one would offer it. */}
              {!disabled && (
                <span className="choice-price">
                  {price.old && (
                    <s className="muted" aria-label={`was $${price.old}`}>
                      ${price.old}
                    </s>
                  )}{' '}
                  <strong>${price.price}</strong> / day
                </span>
              )}
              <span className="small muted">{disabled ? NO_CLOUD : p.text}</span>
            </label>
          );
        })}
      </fieldset>
      <fieldset className="choice-cards">
        <legend>Your experience</legend>
        {EXPERIENCES.map((x) => (
          <label key={x.experience} className={`choice-card${experience === x.experience ? ' selected' : ''}`} data-experience={x.experience}>
            <input type="radio" name="experience" value={x.experience} checked={experience === x.experience} onChange={() => onChange({ experience: x.experience })} />
            <span className="choice-title">{x.title}</span>
            <span className="small muted">{x.text}</span>
          </label>
        ))}
      </fieldset>
      <button type="button" className="btn btn-primary" onClick={onStart}>
        Let&apos;s start
      </button>
    </section>
  );
}
