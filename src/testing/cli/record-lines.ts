/**
 * The sandbox's records as the `lunas-sandbox` command prints them, one line
 * each, for a person: amounts as `Rp 25.000`, a caller's free text quoted.
 * The command escapes control characters in whatever it prints (printable.ts).
 */
import { formatAmount } from '../pages/payment-page.js';
import type { ChargeRecord, SandboxEvent, TransferRecord } from '../types.js';

/** An account as the control surface lists it (`GET /_sandbox/accounts`). */
export interface AccountView {
  id: string;
  name: string;
  /** Its balance as the wire writes money, e.g. `"1000000.00"`. */
  balance: string;
  active: boolean;
}

/** `"25000.00"` in `idr` → `Rp 25.000`, written as the pages write it; a balance is in `idr`. */
export const amountForPeople = (amount: string, currency = 'idr'): string => formatAmount(amount, currency);

/** `ch_…  pending  Rp 25.000  qris  expires …  "description"`. */
export function chargeLine(charge: ChargeRecord): string {
  const parts = [
    charge.id,
    charge.status,
    amountForPeople(charge.amount, charge.currency),
    charge.payment_method,
    `expires ${charge.expires_at}`,
  ];
  if (charge.description !== null) parts.push(JSON.stringify(charge.description));
  return parts.join('  ');
}

/** `evt_…  payment_charge.failed  ch_… failed  <created_at>`. */
export const eventLine = (event: SandboxEvent): string =>
  `${event.id}  ${event.type}  ${event.data.id} ${event.data.status}  ${event.created_at}`;

/** `tr_…  succeeded  Rp 125.000  acc_merchant -> acc_partner  <created_at>  ref "…"`. */
export const transferLine = (transfer: TransferRecord): string =>
  [
    transfer.id,
    transfer.status,
    amountForPeople(transfer.amount, transfer.currency),
    `${transfer.source_account_id} -> ${transfer.destination_account_id}`,
    transfer.created_at,
    ...(transfer.client_reference_id === null ? [] : [`ref ${JSON.stringify(transfer.client_reference_id)}`]),
  ].join('  ');

/** `acc_partner  "Partner"  Rp 125.000`, and `inactive` for an account that cannot receive transfers. */
export const accountLine = (account: AccountView): string =>
  [
    account.id,
    JSON.stringify(account.name),
    amountForPeople(account.balance),
    ...(account.active ? [] : ['inactive']),
  ].join('  ');
