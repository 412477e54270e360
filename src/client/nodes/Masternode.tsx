import { useEffect, useState } from 'react';
import { Redirect, useParams, useSearchParams } from 'wouter';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { DeleteNodeDialog } from './DeleteNodeDialog';
import { NodeAlertsCard } from './NodeAlerts';
import { NodeConfig } from './NodeConfig';
import { NodeDetails } from './NodeDetails';
import { NodeHeader } from './NodeHeader';
import { HostingCard, ImportantNotes, WalletCard } from './NodeSideCards';
import { NodeTabs, panelId, tabId, type NodeTab } from './NodeTabs';
import { OverviewCards, RevenueBar } from './OverviewCards';
import { Proposals } from './Proposals';
import { RewardHistory } from './RewardHistory';
import { NodeLogCard } from './NodeLog';
import { RestartCard } from './RestartCard';
import { UptimeCard } from './UptimeChart';
import { QueryError } from '../ui/QueryState';
import { PageLoading } from '../ui/Spinner';
import { errorCode } from '../app/errors';
import { nodeName } from './portfolio';
import { pageTitle } from '../app/site';
import { trpc } from '../app/trpc';
import './nodes.css';

/**
 * /dashboard/masternode/:mn (deployment-and-nodes.md section 2). Query `tab`:
 * overview (default), config, proposals, delete (the dialog over the overview). A
 * refresh_masternode event refetches in the background (live.tsx) without a spinner;
 * a node the server says is gone (not found, not this user's) sends the user to
 * /dashboard; a node that could not be loaded for another reason (a refusal for the
 * call budget, the network) says so, with "Try again".
 */
export function Masternode() {
  const { mn } = useParams<{ mn: string }>();
  return <NodePage key={mn} mn={mn} />;
}

function readTab(value: string | null): NodeTab {
  return value === 'config' || value === 'proposals' ? value : 'overview';
}

function NodePage({ mn }: { mn: string }) {
  // From the delete's click on, the node is not fetched again and its absence is expected:
  // the dialog finishes (redirect, validator file) on the last data.
  const [deleted, setDeleted] = useState(false);
  const node = trpc.nodes.get_masternode.useQuery({ masternode: mn }, { enabled: !deleted });
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const [deleting, setDeleting] = useState(tabParam === 'delete');
  useEffect(() => {
    if (tabParam === 'delete') setDeleting(true);
  }, [tabParam]);

  const code = errorCode(node.error);
  // The node is gone (deleted, another user's, not an id): nothing to show here.
  const gone = code === 'NOT_FOUND' || code === 'BAD_REQUEST' || code === 'FORBIDDEN';
  if (!node.data || (gone && !deleted)) {
    if (node.isPending) return <PageLoading label="Loading node…" />;
    if (gone || deleted) return <Redirect to="/dashboard" replace />;
    // Refused for the call budget, or the server unreachable: the node is still there.
    return <QueryError what="This node" error={node.error} retry={() => void node.refetch()} />;
  }

  const tab = readTab(tabParam);
  const setTab = (t: NodeTab) => setParams(t === 'overview' ? {} : { tab: t });
  const closeDelete = () => {
    setDeleting(false);
    if (tabParam === 'delete') setParams({}, { replace: true });
  };
  const data = node.data.data;
  return (
    <div className="node-page">
      <NodeTitle node={data} />
      <NodeHeader node={data} />
      <NodeTabs tab={tab} onTab={setTab} onDelete={() => setDeleting(true)} />
      <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} className="node-panel">
        {tab === 'overview' && <Overview node={data} />}
        {tab === 'config' && <NodeConfig node={data} />}
        {tab === 'proposals' && <Proposals node={data} />}
      </div>
      {deleting && (
        <DeleteNodeDialog
          mn={data.mn_id}
          name={nodeName(data)}
          validator={data.front_options.validator_evm}
          onClose={closeDelete}
          onDeleting={setDeleted}
        />
      )}
    </div>
  );
}

function NodeTitle({ node }: { node: MasternodeDetail }) {
  const name = nodeName(node);
  useEffect(() => {
    document.title = pageTitle(`${name} (${node.currency_data.ticker})`);
  }, [name, node.currency_data.ticker]);
  return null;
}

function Overview({ node }: { node: MasternodeDetail }) {
  return (
    <>
      <OverviewCards node={node} />
      <RevenueBar node={node} />
      <div className="node-grid">
        <NodeDetails node={node} />
        <div className="node-side">
          <HostingCard node={node} />
          <UptimeCard uptime={node.uptime} />
          <RestartCard node={node} />
          <NodeAlertsCard mn={node.mn_id} />
          {node.wallet_info && <WalletCard wallet={node.wallet_info} simulated={node.simulated} />}
        </div>
      </div>
      <RewardHistory masternode={node.mn_id} />
      {node.state === 'live' && <NodeLogCard mn={node.mn_id} />}
      <ImportantNotes />
    </>
  );
}
