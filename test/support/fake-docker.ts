import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Docker Engine API on loopback that answers the one call the reachability check makes
 * (list containers) with no containers, over real HTTP. What a `tcp://127.0.0.1:port`
 * host looks like when Podman is not at hand; `calls` counts the requests it served.
 */
export async function startFakeDocker(): Promise<{ url: string; calls: string[]; close: () => Promise<void> }> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    if (req.method === 'GET' && /^\/v1\.\d+\/containers\/json/.test(req.url ?? '')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'not in this fake' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `tcp://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
