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
// BENCH_ONLY=hot runs only the rows of the hot-paths table (issue 26), still in one run.
const hotOnly = process.env.BENCH_ONLY === 'hot';
const commonInfo = await benchCommonInfo();
const coins = await benchGetCoins();
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
