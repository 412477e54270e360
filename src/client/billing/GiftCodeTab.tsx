import { redeemCouponInput } from '../../shared/schemas/billing';
import { trpc } from '../app/trpc';
import { FormAlerts } from '../ui/Alert';
import { TextField } from '../ui/Field';
import { useForm } from '../ui/useForm';

/** The Gift Code tab: one field; the server's message (redeemed, invalid, expired, used) is shown as given. */
export function GiftCodeTab() {
  const redeem = trpc.billing.redeem_coupon.useMutation();
  const form = useForm({
    schema: redeemCouponInput,
    initial: { code: '' },
    submit: (data) => redeem.mutateAsync(data),
    onSuccess: (_res, f) => f.setValues({ code: '' }),
  });
  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Redeem a gift code">
      <FormAlerts form={form} />
      <TextField
        {...form.field('code', 'Gift code')}
        autoComplete="off"
        spellCheck={false}
        placeholder="XXXX-XXXX-XXXX-XXXX"
      />
      {/* aria-disabled, not disabled: the focus stays on Redeem while the server answers (useForm ignores a second submit). */}
      <button type="submit" className="btn btn-primary" aria-disabled={form.pending || undefined}>
        {form.pending ? 'Redeeming…' : 'Redeem'}
      </button>
    </form>
  );
}
