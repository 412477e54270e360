import { benchCallBudget } from './call-budget';
import { benchCommonInfo } from './common-info';
import { benchCoinListRender } from './coin-list-render';
import { benchDailyCharge } from './daily-charge';
import { benchDeploy } from './deploy';
import { benchExecutable } from './executable';
import { benchFleet } from './fleet';
import { benchGetCoins } from './get-coins';
import { benchInitialJs } from './initial-js';
import { benchLiveFanout } from './live-fanout';

// `npm run bench`: every benchmark in turn; results go to docs/benchmarks.md.
await benchCommonInfo();
await benchGetCoins();
await benchCoinListRender();
await benchFleet();
await benchDeploy();
await benchInitialJs();
await benchDailyCharge();
await benchLiveFanout();
await benchCallBudget();
await benchExecutable();
