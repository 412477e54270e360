import { benchCommonInfo } from './common-info';

// `npm run bench`: every benchmark in turn; results go to docs/benchmarks.md.
await benchCommonInfo();
