import { useState } from 'react';
import './coins.css';

/**
 * A coin's logo: `src` as the server gives it (COIN_LOGO_URL), else the local
 * /logos/<id>.svg. A missing file shows the ticker's first letter instead of a
 * broken-image icon; the failure is remembered per URL, so a new `src` gets its chance.
 */
export function CoinLogo({ id, ticker, src, size = 28 }: { id: string; ticker: string; src?: string; size?: number }) {
  const url = src ?? `/logos/${id}.svg`;
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (failedUrl === url) {
    return (
      <span
        className="coin-logo coin-logo-fallback"
        style={{ width: size, height: size, fontSize: size * 0.45 }}
        aria-hidden="true"
      >
        {ticker.slice(0, 1)}
      </span>
    );
  }
  return <img className="coin-logo" src={url} alt="" width={size} height={size} onError={() => setFailedUrl(url)} />;
}
