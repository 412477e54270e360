import { describe, expect, it } from 'vitest';
import { coinNode, counted, withArticle } from './english';

describe('English of catalog names', () => {
  it('names a coin’s node without doubling "node"', () => {
    expect(coinNode('Dash')).toBe('Dash node');
    expect(coinNode('Horizen Secure Node')).toBe('Horizen Secure Node');
    expect(coinNode('Horizen Super Node', true)).toBe('Horizen Super Nodes');
    expect(coinNode('Dash', true)).toBe('Dash nodes');
  });

  it('puts a or an before a name by its sound', () => {
    expect(withArticle('Oxen → Session Token')).toBe('an Oxen → Session Token');
    expect(withArticle('Ethereum')).toBe('an Ethereum');
    expect(withArticle('Dash')).toBe('a Dash');
    expect(withArticle('NIX Platform')).toBe('a NIX Platform');
    expect(withArticle('Unity')).toBe('a Unity');
  });
});

describe('counted', () => {
  it('puts the noun in number with its count', () => {
    expect(counted(1, 'live node')).toBe('1 live node');
    expect(counted(0, 'node')).toBe('0 nodes');
    expect(counted(3, 'customer owes', 'customers owe')).toBe('3 customers owe');
    expect(counted(1, 'customer owes', 'customers owe')).toBe('1 customer owes');
  });
});
