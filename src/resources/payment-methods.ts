import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import type { ListParams } from '../core/api.js';
import { Resource } from '../core/resource.js';
import { jsonObject, z } from '../core/schema.js';

/**
 * A payment method available to the merchant. The service does not specify
 * its fields, so it is typed as a JSON object with every field kept.
 *
 * @useDeclaredType
 */
export type PaymentMethod = z.output<typeof paymentMethodSchema>;

const paymentMethodSchema = jsonObject;
const paymentMethodList = z.array(paymentMethodSchema);

/** The payment methods available to the merchant (read only). */
export class PaymentMethods extends Resource {
  /** Lists payment methods. `for await` over the result walks every page. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<PaymentMethod> {
    return this.api.list('/v1/payments/methods', paymentMethodList, params, options);
  }
}
