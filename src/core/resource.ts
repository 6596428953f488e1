/** The base of the resource namespaces: each method is one call on the {@link API} primitive. */
import { API } from './api.js';
import { LunasError } from './errors.js';

/** The base of the resource namespaces of {@link Client}. */
export abstract class Resource {
  /** @internal The request primitive every method goes through. */
  protected readonly api: API;

  /**
   * @internal Resources are created by {@link Client}. The published
   * declarations leave the constructor out, so `new Charges()` compiles for
   * a caller: refuse it here, by name, instead of failing later on a missing
   * primitive.
   */
  constructor(api: API) {
    if (!(api instanceof API)) {
      throw new LunasError(`${new.target.name} is created by Client: use client.${namespaceOf(new.target.name)}`);
    }
    this.api = api;
  }
}

/** `PaymentMethods` → `paymentMethods`: the Client property that holds a resource. */
const namespaceOf = (className: string): string => className.charAt(0).toLowerCase() + className.slice(1);
