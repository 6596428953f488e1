/** The base of the resource namespaces: each method is one call on the {@link API} primitive. */
import type { API } from './api.js';

/** The base of the resource namespaces of {@link Client}. */
export abstract class Resource {
  /** @internal The request primitive every method goes through. */
  protected readonly api: API;

  /** @internal Resources are created by {@link Client}. */
  constructor(api: API) {
    this.api = api;
  }
}
