import { useEffect, useState } from 'react';
import { Link, Redirect, useSearchParams } from 'wouter';
import { familyOf } from '../../shared/families';
import type { DeployInfoCoin } from '../../shared/schemas/deploy';
import { errorCode } from '../app/errors';
import { trpc } from '../app/trpc';
import { CoinLogo } from '../coins/CoinLogo';
import { PageHeader } from '../layout/DashboardShell';
import { QueuePanel } from '../portfolio/QueuePanel';
import { Alert } from '../ui/Alert';
import { SimulatedBadge } from '../ui/SimulatedBadge';
import { QueryError } from '../ui/QueryState';
import { PageLoading } from '../ui/Spinner';
import { BeginStep } from './BeginStep';
import { Deployed, Deploying } from './DeployStatus';
import { deployAnother, INITIAL, startStep, type DeployState } from './flow';
import { useServerCreated } from './useServerCreated';
import { Wizard } from './wizards/Wizard';
import './deploy.css';

export const MAINTENANCE_NOTICE = "Deployments of this project's nodes are temporarily disabled due to maintenance. Please check back later.";

/**
 * /dashboard/deploy?coin={id} (section 2): no coin, or a coin the server will not describe,
 * goes to /dashboard. Any other failure (a refusal for the call budget after its retries,
 * the server unreachable) says so with "Try again": the coin exists, and a redirect would
 * drop the customer on another page without a word.
 */
export function Deploy() {
  const [params] = useSearchParams();
  const coinId = params.get('coin')?.trim() ?? '';
  const info = trpc.deploy.get_deploy_info.useQuery({ coin: coinId }, { enabled: coinId !== '' });
  if (!coinId) return <Redirect to="/dashboard" replace />;
  if (!info.data) {
    if (info.isPending) return <PageLoading />;
    const code = errorCode(info.error);
    if (code === 'NOT_FOUND' || code === 'BAD_REQUEST') return <Redirect to="/dashboard" replace />;
    return <QueryError what="This coin" error={info.error} retry={() => void info.refetch()} />;
  }
  return <DeployScreen key={info.data.data.id} coin={info.data.data} />;
}

function DeployScreen({ coin }: { coin: DeployInfoCoin }) {
  const queue = trpc.deploy.get_building_servers.useQuery();
  return (
    <>
      <PageHeader title={`Deploy ${coin.label}`}>
        <CoinLogo id={coin.id} ticker={coin.ticker} />
        {coin.simulated && <SimulatedBadge />}
        <Link href={`/dashboard/view_coin?coin=${encodeURIComponent(coin.id)}`}>View stats</Link>
      </PageHeader>
      {coin.coming_soon ? (
        // Said before any wizard step: nothing typed is lost to a refusal at the end.
        <Alert kind="info">{coin.coming_soon_reason}</Alert>
      ) : coin.maintenance ? (
        <Alert kind="warning">{MAINTENANCE_NOTICE}</Alert>
      ) : (
        <div className="deploy-layout">
          <div className="deploy-main">
            <DeployFlow coin={coin} />
          </div>
          <QueuePanel queue={queue.data?.data ?? []} />
        </div>
      )}
    </>
  );
}

/** begin → guide → deploying → deployed (section 4). */
function DeployFlow({ coin }: { coin: DeployInfoCoin }) {
  const [state, setState] = useState<DeployState>(INITIAL);
  const { created, failed } = useServerCreated(state.stage === 'deploying' ? state.serverId : null);
  const atOnce = familyOf(coin.family).deployedAtOnce;

  useEffect(() => {
    if (created) setState((s) => (s.stage === 'deploying' ? { ...s, stage: 'deployed' } : s));
  }, [created]);

  // Each new step starts at the top of the page, where its title is. (Braces: newer
  // browsers' scrollTo returns a promise, which React would take for a cleanup.)
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [state.stage, state.step]);

  const another = () => setState((s) => deployAnother(s, coin.family));

  switch (state.stage) {
    case 'begin':
      return (
        <BeginStep
          coin={coin}
          plan={state.plan}
          experience={state.experience}
          onChange={(c) => setState((s) => ({ ...s, ...c }))}
          onStart={() => setState((s) => ({ ...s, stage: 'guide', step: startStep(coin.family, s.experience) }))}
        />
      );
    case 'guide':
      return (
        <Wizard
          coin={coin}
          plan={state.plan}
          experience={state.experience}
          step={state.step}
          setStep={(step) => setState((s) => ({ ...s, step }))}
          toBegin={() => setState((s) => ({ ...s, stage: 'begin', step: 1 }))}
          onDeployed={(serverId) => setState((s) => ({ ...s, stage: atOnce ? 'deployed' : 'deploying', serverId }))}
        />
      );
    case 'deploying':
      return <Deploying failed={failed} onAnother={another} />;
    case 'deployed':
      return <Deployed serverId={state.serverId ?? ''} atOnce={atOnce} onAnother={another} />;
  }
}
