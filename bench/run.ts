import { benchCallBudget } from './call-budget';
import { benchCommonInfo } from './common-info';
import { benchCoinListRender } from './coin-list-render';
import { benchDailyCharge } from './daily-charge';
import { benchDeploy } from './deploy';
import { benchExecutable } from './executable';
import { benchFleet } from './fleet';
import { benchGetCoins } from './get-coins';
import { benchInitialJs, INITIAL_JS_BUDGET } from './initial-js';
import { benchLiveFanout } from './live-fanout';
import { writeHotPaths } from './hot-paths';

// `npm run bench`: every benchmark in turn; results go to docs/benchmarks.md.
// BENCH_ONLY=hot runs only the rows of the hot-paths table (issue 26), still in one run;
// BENCH_ONLY=http only its HTTP rows (get_common_info, get_coins), for quick iterations.
const only = process.env.BENCH_ONLY;
const hotOnly = only === 'hot';
// BENCH_ONLY=initial_js: the client build's row alone (no server needed).
if (only === 'initial_js') {
  await benchInitialJs();
  process.exit(0);
}
const commonInfo = await benchCommonInfo();
// BENCH_ONLY=common_info: that row alone (to profile it: node --cpu-prof --import tsx bench/run.ts).
if (only === 'common_info') process.exit(0);
const coins = await benchGetCoins();
if (only === 'http') process.exit(0);
if (!hotOnly) {
  await benchCoinListRender();
  await benchFleet();
  await benchDeploy();
}
const initialJs = await benchInitialJs();
const charge = await benchDailyCharge();
const live = await benchLiveFanout();
writeHotPaths({ commonInfo, coins, initialJs, initialBudget: INITIAL_JS_BUDGET, charge, live });
if (!hotOnly) {
  await benchCallBudget();
  await benchExecutable();
}
