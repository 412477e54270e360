import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { DefiView } from './config/DefiView';
import { Dip003View, RestrictedDip003View } from './config/Dip003View';
import { MoneroView } from './config/MoneroView';
import { QuickSetupView } from './config/QuickSetupView';
import { ClassicView, NrgView, PlayaView, ZenView } from './config/SimpleViews';
import { ValidatorView } from './config/ValidatorView';

/**
 * The Configuration tab: one view per node kind (deployment-and-nodes.md section 2),
 * named by the server in `setup.view` from the family registry. The `started` and
 * `refresh_masternode` live events refetch the node, so a view moves on by itself.
 */
export function NodeConfig({ node }: { node: MasternodeDetail }) {
  switch (node.setup.view) {
    case 'dip003_restrict':
      return <RestrictedDip003View node={node} />;
    case 'dip003':
      return <Dip003View node={node} />;
    case 'quick_setup':
      return <QuickSetupView node={node} />;
    case 'zen':
      return <ZenView node={node} />;
    case 'nrg':
      return <NrgView node={node} />;
    case '3ull':
      return <PlayaView />;
    case 'monero':
      return <MoneroView node={node} />;
    case 'validator':
      return <ValidatorView node={node} />;
    case 'defi':
      return <DefiView node={node} />;
    case 'classic':
      return <ClassicView node={node} />;
  }
}
