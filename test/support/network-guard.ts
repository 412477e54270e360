import { afterAll, afterEach } from 'vitest';
import { assertNoRefusals, installOutboundGuard } from './outbound';

// Vitest setup file (see vitest.config.ts): every test file runs with the outbound guard.
// A refused connection fails the test that made it, even when the code under test
// caught the error (a retry loop, a logged failure), because the refusal is recorded.
// NODEKEEP_TEST_NO_SOCKETS (set for the unit and procedure tiers) refuses loopback too.
installOutboundGuard({ local: process.env.NODEKEEP_TEST_NO_SOCKETS !== '1' });

afterEach(() => assertNoRefusals('during this test'));
afterAll(() => assertNoRefusals('in this file’s hooks'));
