import { describe, expect, it } from 'vitest';
import { serverErrorField } from './serverErrors';

describe('which field a deploy message goes under (section 8)', () => {
  it('a field the server names, when the wizard has it', () => {
    expect(serverErrorField('dip003', 'Payee address required.', 'payee')).toBe('payee');
    expect(serverErrorField('burn', 'Burn transaction not found.', 'burntxid')).toBe('burntxid');
    expect(serverErrorField('neuron', 'You can deploy 1 to 50 neurons at once.', 'neuronCount')).toBe('neuronCount');
    expect(serverErrorField('monero', 'bad key', 'monero_secret')).toBe('monero_secret');
  });

  it('dip003 without a field: the words pick payee or BLS, the rest goes under the txid', () => {
    expect(serverErrorField('dip003', 'Payee address is not valid')).toBe('payee');
    expect(serverErrorField('dip003', 'Payee address required.')).toBe('payee');
    expect(serverErrorField('dip003', 'Incorrect BLS key')).toBe('blsKey');
    expect(serverErrorField('dip003', 'Collateral transaction not found.')).toBe('txid');
  });

  it('validators: the error_input field (fee_address under the fee recipient), else the general error', () => {
    for (const f of ['password', 'fee_recipient', 'keystores'] as const) expect(serverErrorField('validator', 'x', f)).toBe(f);
    expect(serverErrorField('validator', 'Invalid address', 'fee_address')).toBe('fee_recipient');
    expect(serverErrorField('validator', 'Too many deploys at once.')).toBeNull();
    expect(serverErrorField('validator', 'x', 'txid')).toBeNull();
  });

  it('other wizards: under the entry field, also for a field they do not show', () => {
    for (const w of ['classic', 'zen', 'energi', 'license', 'monero', 'burn'] as const) expect(serverErrorField(w, 'Transaction not found.'), w).toBe('txid');
    expect(serverErrorField('classic', 'x', 'payee')).toBe('txid');
    expect(serverErrorField('neuron', 'Address required.')).toBe('rewardAddress');
  });
});
