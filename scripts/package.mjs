// Builds the single executable dist/nodekeep-<platform>-<arch> (docs/self-hosting.md):
// a Node single-executable application whose main script is the server and CLI in one
// CommonJS bundle, with the client bundle, the coin catalog, the logos, the daemon
// profiles, the image recipes and the native addons inside as assets (src/server/runtime/executable.ts).
// Run through `npm run package`, which builds the client first.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const work = path.join(root, 'dist', 'sea');
const target = `nodekeep-${process.platform}-${process.arch}`;
const output = path.join(root, 'dist', target);
const started = Date.now();

if (process.platform !== 'linux') throw new Error(`the executable is built on Linux (this is ${process.platform})`);
if (!fs.existsSync(path.join(root, 'dist/client/index.html')))
  throw new Error('dist/client is missing: run `npm run build:client` first (npm run package does)');
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

// 1. The program: everything bundled, since an executable's main script can require only
// Node's built-in modules. Native addons come from the assets instead (argon2 through a
// shim, better-sqlite3 through its nativeBinding option); ssh2's optional addons stay out
// (it falls back to JavaScript when they are missing).
const natives = {
  name: 'natives-from-assets',
  setup(b) {
    b.onResolve({ filter: /^@node-rs\/argon2$/ }, () => ({
      path: path.join(root, 'src/server/runtime/argon2-addon.ts'),
    }));
    // Modules the executable does not carry: they throw as a missing module would, where
    // their callers expect it, without Node's warning about require in an executable.
    b.onResolve({ filter: /\.node$|^(cpu-features|bufferutil|utf-8-validate|supports-color)$/ }, (a) => ({
      path: a.path,
      namespace: 'absent',
    }));
    b.onLoad({ filter: /.*/, namespace: 'absent' }, (a) => ({
      contents: `throw new Error(${JSON.stringify(`${a.path} is not inside the executable`)});`,
      loader: 'js',
    }));
  },
};
const bundle = path.join(work, 'nodekeep.cjs');
await build({
  entryPoints: [path.join(root, 'src/server/nodekeep.ts')],
  outfile: bundle,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  bundle: true,
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  plugins: [natives],
  // Paths the checkout's code finds files by: unused inside the executable, defined so
  // they do not throw at load time.
  define: { 'import.meta.url': '__nkImportMetaUrl', 'import.meta.resolve': '__nkImportMetaResolve' },
  banner: {
    js: "var __nkImportMetaUrl = require('node:url').pathToFileURL(__filename).href; var __nkImportMetaResolve = (s) => { throw new Error('cannot resolve ' + s + ' inside the executable'); };",
  },
  logLevel: 'warning',
});

// 2. The files, each an asset under its path in the cache folder.
const files = {};
function addTree(dir, prefix) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) addTree(full, `${prefix}/${entry.name}`);
    // Source maps stay out: the browser never asks for them unless its tools are open.
    else if (entry.isFile() && !entry.name.endsWith('.map')) files[`${prefix}/${entry.name}`] = full;
  }
}
addTree(path.join(root, 'dist/client'), 'client');
files['catalog/coins.json'] = path.join(root, 'catalog/coins.json');
files['catalog/daemons.json'] = path.join(root, 'catalog/daemons.json');
addTree(path.join(root, 'catalog/logos'), 'catalog/logos');
addTree(path.join(root, 'catalog/daemon-facts'), 'catalog/daemon-facts');
// The image recipes `images build` sends to a host (catalog/images/README.md).
addTree(path.join(root, 'catalog/images'), 'catalog/images');
// The systemd unit `nodekeep install` writes (src/server/runtime/unit-file.ts).
files['deploy/nodekeep.service'] = path.join(root, 'deploy/nodekeep.service');
const addons = { sqlite: 'native/better_sqlite3.node', argon2: 'native/argon2.node' };
files[addons.sqlite] = require.resolve('better-sqlite3/build/Release/better_sqlite3.node');
const argon2Dir = path.dirname(require.resolve('@node-rs/argon2/package.json'));
const argon2Platform = `@node-rs/argon2-${process.platform}-${process.arch}${process.platform === 'linux' ? '-gnu' : ''}`;
files[addons.argon2] = createRequire(path.join(argon2Dir, 'index.js'))
  .resolve(`${argon2Platform}/package.json`)
  .replace(
    /package\.json$/,
    `argon2.${process.platform}-${process.arch}${process.platform === 'linux' ? '-gnu' : ''}.node`,
  );

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
let commit = '';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
} catch {
  // Not a git checkout: the build hash alone names the build.
}
// NODEKEEP_VERSION names a release build (the tests make an "older" one with it).
const version = process.env.NODEKEEP_VERSION || (commit ? `${pkg.version}+${commit}` : pkg.version);
const hash = crypto.createHash('sha256').update(version).update(fs.readFileSync(bundle));
for (const [name, file] of Object.entries(files).sort()) hash.update(name).update(fs.readFileSync(file));
const index = { version, build: hash.digest('hex').slice(0, 16), files: Object.keys(files).sort(), natives: addons };
const indexFile = path.join(work, 'index.json');
fs.writeFileSync(indexFile, JSON.stringify(index));

// 3. The blob, and the executable: a copy of this Node with the blob injected.
const config = path.join(work, 'sea-config.json');
fs.writeFileSync(
  config,
  JSON.stringify(
    {
      main: bundle,
      output: path.join(work, 'sea-prep.blob'),
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      assets: { 'index.json': indexFile, ...files },
    },
    null,
    1,
  ),
);
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });
fs.rmSync(output, { force: true });
fs.copyFileSync(process.execPath, output);
fs.chmodSync(output, 0o755);
const { inject } = require('postject');
// postject's ELF library warns about Node's note sections; the injection itself is checked below.
const warn = console.warn;
console.warn = () => {};
try {
  await inject(output, 'NODE_SEA_BLOB', fs.readFileSync(path.join(work, 'sea-prep.blob')), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  });
} finally {
  console.warn = warn;
}
const answer = execFileSync(output, ['--version'], { encoding: 'utf8', env: { PATH: '' } }).trim();
if (!answer.includes(index.build)) throw new Error(`the built executable does not answer with its build: ${answer}`);
// The checksum an operator checks after copying the file (`sha256sum -c`, docs/self-hosting.md).
const sum = crypto.createHash('sha256').update(fs.readFileSync(output)).digest('hex');
fs.writeFileSync(`${output}.sha256`, `${sum}  ${target}\n`);
const mb = (fs.statSync(output).size / 1024 / 1024).toFixed(1);
console.log(
  `built dist/${target} (${mb} MiB, ${index.files.length} files inside, ${((Date.now() - started) / 1000).toFixed(1)} s): ${answer}`,
);
