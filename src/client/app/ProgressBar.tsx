import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';

const ROUTE_PULSE_MS = 350;

/**
 * The thin bar at the top of the window: a short pulse on every route change, and
 * on for as long as any query or mutation is in flight.
 */
export function ProgressBar() {
  const fetching = useIsFetching();
  const mutating = useIsMutating();
  const [location] = useLocation();
  const [routing, setRouting] = useState(true);

  useEffect(() => {
    setRouting(true);
    const t = setTimeout(() => setRouting(false), ROUTE_PULSE_MS);
    return () => clearTimeout(t);
  }, [location]);

  const active = routing || fetching > 0 || mutating > 0;
  return <div className={`progress-bar${active ? ' is-active' : ''}`} aria-hidden="true" />;
}
