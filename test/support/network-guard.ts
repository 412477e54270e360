import { afterAll, afterEach } from 'vitest';
import { assertNoRefusals, installOutboundGuard } from './outbound';

// Vitest setup file (see vitest.config.ts): every test file runs with the outbound guard.
// A refused connection fails the test that made it, even when the code under test
// caught the error (a retry loop, a logged failure), because the refusal is recorded.
installOutboundGuard();

afterEach(() => assertNoRefusals('during this test'));
afterAll(() => assertNoRefusals('in this file’s hooks'));
