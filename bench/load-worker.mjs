// Runs in a worker thread so the load generator does not share the server's event loop.
// Keeps `concurrency` requests in flight for `durationMs` and reports every latency.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, headers, concurrency, durationMs, warmupMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);

function once() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: 'GET',
        headers,
        agent,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ns: Number(process.hrtime.bigint() - start) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function phase(ms, record) {
  const stopAt = Date.now() + ms;
  const latencies = [];
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < stopAt) {
        try {
          const r = await once();
          if (r.status !== 200) errors++;
          if (record) latencies.push(r.ns);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { latencies, errors };
}

await phase(warmupMs, false);
const t0 = Date.now();
const { latencies, errors } = await phase(durationMs, true);
const elapsed = (Date.now() - t0) / 1000;
agent.destroy();
parentPort.postMessage({ count: latencies.length, errors, elapsed, latencies });
