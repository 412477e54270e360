// Writes one placeholder logo per catalog coin (catalog/logos/<id>.svg) that has none:
// the ticker on a colour picked from the id. Operators replace them with real logos.
import fs from 'node:fs';
import { createHash } from 'node:crypto';

const { coins } = JSON.parse(fs.readFileSync('catalog/coins.json', 'utf8'));
let written = 0;
for (const c of coins) {
  const file = `catalog/logos/${c.id}.svg`;
  if (fs.existsSync(file)) continue;
  const hue = createHash('sha256').update(c.id).digest().readUInt16BE(0) % 360;
  const text = c.ticker.slice(0, 4);
  const size = text.length <= 3 ? 22 : 17;
  fs.writeFileSync(
    file,
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${c.label}">` +
      `<circle cx="32" cy="32" r="31" fill="hsl(${hue} 62% 42%)"/>` +
      `<text x="32" y="32" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-weight="700" font-size="${size}" fill="#fff">${text}</text></svg>\n`,
  );
  written++;
}
console.log(`${written} logos written`);
