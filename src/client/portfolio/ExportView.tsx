import { useRef } from 'react';
import { CopyButton } from '../ui/CopyButton';
import type { ExportBlock } from '../nodes/portfolio';

/**
 * "Export Masternode Configuration File": one copyable block per currency. The
 * blocks are already filtered by the page's search box (label, text, ticker).
 */
export function ExportView({ blocks, searching }: { blocks: ExportBlock[]; searching: boolean }) {
  return (
    <section className="card export-view" aria-labelledby="export-title">
      <h2 id="export-title">Export Masternode Configuration File</h2>
      <p className="muted small">
        One block per coin, one line per node. DIP003, Horizen, Monero-type and EVM validator nodes are not set up
        through a configuration file and are left out.
      </p>
      {blocks.length === 0 ? (
        <p className="table-empty">
          {searching
            ? 'No configuration matches your search.'
            : 'None of your nodes uses a masternode configuration file.'}
        </p>
      ) : (
        blocks.map((b) => <ExportBlockView key={b.currency} block={b} />)
      )}
    </section>
  );
}

function ExportBlockView({ block }: { block: ExportBlock }) {
  const titleId = `export-${block.currency}`;
  const pre = useRef<HTMLPreElement>(null);
  return (
    <section className="export-block" aria-labelledby={titleId} data-currency={block.currency}>
      <div className="export-head">
        <h3 id={titleId}>
          {block.label} <span className="coin-ticker">{block.ticker}</span>
        </h3>
        <CopyButton text={block.text} label={`Copy ${block.label} configuration`} target={pre} />
      </div>
      <pre ref={pre} className="copy-text" tabIndex={0} aria-label={`${block.label} configuration`}>
        {block.text}
      </pre>
    </section>
  );
}
