import { useEffect } from 'react';
import { useLocation, useParams } from 'wouter';
import { PageLoading } from '../ui/Spinner';
import { referralStore } from '../app/storage';

/** /ref/{code}: remember who sent the visitor (used by /register), then go home. */
export function Referral() {
  const { ref } = useParams<{ ref: string }>();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (ref) referralStore.set(ref);
    navigate('/', { replace: true });
  }, [ref, navigate]);
  return <PageLoading />;
}
