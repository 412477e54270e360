import { expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/kernel/config';

// FREE_NODE_LIMIT and FREE_CAPACITY_SHARE (deploy/free-limits.ts): the share is a percent
// with its sign, kept in hundredths of a percent so the slot count is whole-number math.

it('reads the free-account limits, with their defaults', () => {
  expect(loadConfig({})).toMatchObject({ freeNodeLimit: 1, freeCapacityBasisPoints: 1000 });
  expect(loadConfig({ FREE_NODE_LIMIT: '0', FREE_CAPACITY_SHARE: '2.5%' })).toMatchObject({
    freeNodeLimit: 0,
    freeCapacityBasisPoints: 250,
  });
  expect(loadConfig({ FREE_CAPACITY_SHARE: '100%' }).freeCapacityBasisPoints).toBe(10_000);
  expect(loadConfig({ FREE_CAPACITY_SHARE: '0%' }).freeCapacityBasisPoints).toBe(0);
});

it.each([
  ['FREE_NODE_LIMIT', '-1'],
  ['FREE_NODE_LIMIT', '1.5'],
  ['FREE_NODE_LIMIT', 'one'],
  ['FREE_CAPACITY_SHARE', '10'],
  ['FREE_CAPACITY_SHARE', '0.1'],
  ['FREE_CAPACITY_SHARE', '101%'],
  ['FREE_CAPACITY_SHARE', '-5%'],
  ['FREE_CAPACITY_SHARE', '2.555%'],
  ['FREE_CAPACITY_SHARE', '10 %'],
])('refuses %s=%s with a message naming the variable', (name, value) => {
  expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
});
