import { useId, useState } from 'react';

/**
 * A secret key, blurred until the eye button is pressed (section 2, details table).
 * The blurred text is hidden from screen readers too, so a hidden key is never read out.
 */
export function SecretValue({ label, value }: { label: string; value: string }) {
  const [shown, setShown] = useState(false);
  const id = useId();
  return (
    <span className="secret-value">
      <code
        id={id}
        className={shown ? undefined : 'secret-blurred'}
        aria-hidden={shown ? undefined : true}
        data-testid="secret"
      >
        {value}
      </code>
      <button
        type="button"
        className="btn btn-ghost icon-button eye-button"
        aria-pressed={shown}
        aria-controls={id}
        aria-label={`Show ${label}`}
        title={shown ? `Hide ${label}` : `Show ${label}`}
        onClick={() => setShown((s) => !s)}
      >
        <EyeIcon crossed={shown} />
      </button>
    </span>
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={18}
      height={18}
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M4 4l16 16" />}
    </svg>
  );
}
