// Runs in a worker thread, so the load it makes does not share the server's event loop
// (the server runs in the test's own thread). Two kinds of job:
// - flood: `concurrency` loops, each sending `request` back to back for `durationMs`;
//   reports the count of answers by status and how many 429s carried Retry-After;
//   with `ips`, `concurrency` loops from each of those addresses (many clients at once);
// - probe: one request at a time (each of `requests` in turn), paced by `pauseMs`,
//   for `durationMs`; reports each one's latency in ms and its status.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

function send(agent, r) {
  const u = new URL(r.url);
  return new Promise((resolve) => {
    const start = performance.now();
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: r.method ?? 'GET',
        headers: r.headers ?? {},
        agent,
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            ms: performance.now() - start,
          }),
        );
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - start }));
    req.end(r.body);
  });
}

async function flood({ ip, ips, request, concurrency, durationMs }) {
  const agents = (ips ?? [ip]).map(
    (localAddress) => new http.Agent({ keepAlive: true, maxSockets: concurrency, localAddress }),
  );
  const stopAt = Date.now() + durationMs;
  const statuses = {};
  let limitedWithRetryAfter = 0;
  await Promise.all(
    agents.flatMap((agent) =>
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < stopAt) {
          const a = await send(agent, request);
          statuses[a.status] = (statuses[a.status] ?? 0) + 1;
          if (a.status === 429 && Number(a.retryAfter) >= 1) limitedWithRetryAfter++;
        }
      }),
    ),
  );
  for (const agent of agents) agent.destroy();
  return { statuses, limitedWithRetryAfter };
}

async function probe({ ip, requests, durationMs, pauseMs }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: ip });
  const stopAt = Date.now() + durationMs;
  const answers = requests.map(() => []);
  while (Date.now() < stopAt) {
    for (let i = 0; i < requests.length; i++) {
      const a = await send(agent, requests[i]);
      answers[i].push({ status: a.status, ms: a.ms });
    }
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  agent.destroy();
  return { answers };
}

const job = workerData;
parentPort.postMessage(job.kind === 'flood' ? await flood(job) : await probe(job));
