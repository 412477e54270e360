/** One scrape of /metrics, parsed: each sample by `name{labels}` as Prometheus prints it, and the metric names. */
export async function scrape(
  url: string,
  token: string,
): Promise<{ text: string; samples: Map<string, number>; names: Set<string> }> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const text = await res.text();
  const samples = new Map<string, number>();
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) /.exec(line);
    if (type) names.add(type[1]);
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return { text, samples, names };
}
