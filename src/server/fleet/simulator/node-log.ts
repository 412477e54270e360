import { hex, type SimChains, type SimNode } from './chain';

/**
 * A simulated node's daemon log, made up from its chain as the simulator sees it: a first
 * line saying it is simulated, then one `UpdateTip` line per block the node has, the way
 * bitcoin-derived daemons log them, at each block's time. The simulator serves every
 * node in one process, so its own output is no node's log.
 */
export function simulatedNodeLog(chains: SimChains, node: SimNode, tail: number): string[] {
  const height = chains.height(node);
  const tip = Math.max(1, chains.tip(node.coin));
  const iso = (s: number) => new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const first = Math.max(0, height - tail + 2);
  const lines = [
    `${iso(Math.floor(node.createdAt / 1000))} Simulated ${node.coin} daemon started by the Nodekeep demo simulator (no real chain)`,
  ];
  for (let h = first; h <= height; h++) {
    const progress = Math.min(1, h / tip).toFixed(6);
    lines.push(
      `${iso(chains.blockTime(node, h))} UpdateTip: new best=${hex(64, `${node.coin}:block:${h}`)} height=${h} progress=${progress}`,
    );
  }
  return lines.slice(-tail);
}
