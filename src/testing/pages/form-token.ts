/**
 * What protects the sandbox's HTML forms (the payment page's `Pay` and
 * `Fail`) from other sites: a page elsewhere can make the developer's
 * browser POST to the sandbox, but it cannot read the sandbox's pages, so it
 * cannot know the token each form carries in a hidden field. The browser's
 * `Origin` and `Sec-Fetch-Site` headers, when sent, must say the request came
 * from the sandbox's own origin too. Both work with JavaScript off. The
 * tokens are random per form scope (a charge's id) and kept in memory: HMAC
 * would need Web Crypto's asynchronous API in a service that answers
 * synchronously, and a sandbox holds few forms.
 */
import { equalInConstantTime } from '../transport/constant-time.js';

/** The name of the hidden field a form's token travels in (`<input type="hidden" name="token" value="…">`). */
export const TOKEN_FIELD = 'token';

/** Where a request came from, as the transport and the browser say: what a form submission is checked against. */
export interface RequestSite {
  /** The origin the request was addressed to (`http://127.0.0.1:4010`, or the in-process URL). */
  addressedTo: string;
  /** The `Origin` header, when sent (browsers send it with a POST). */
  origin: string | undefined;
  /** The `Sec-Fetch-Site` header, when sent (`same-origin`, `same-site`, `cross-site`, `none`). */
  fetchSite: string | undefined;
}

/** `Sec-Fetch-Site` values of a request the sandbox's own page made, or the person at the browser. */
const OWN_FETCH_SITES: ReadonlySet<string> = new Set(['same-origin', 'none']);

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** 32 random bytes as 64 hex digits, from Web Crypto (every runtime has `getRandomValues`). */
function randomToken(): string {
  let token = '';
  for (const byte of crypto.getRandomValues(new Uint8Array(32))) token += HEX[byte];
  return token;
}

/** The tokens of one sandbox's forms, one per scope, made when a page first shows its form. */
export class FormTokens {
  /** A Map: a scope named `__proto__` or `constructor` must find nothing it was not given. */
  readonly #tokens = new Map<string, string>();

  /** The token of the form at `scope` (e.g. a charge's id): the same for every view of its page. */
  tokenFor(scope: string): string {
    let token = this.#tokens.get(scope);
    if (token === undefined) {
      token = randomToken();
      this.#tokens.set(scope, token);
    }
    return token;
  }

  /**
   * Why a submission of the form at `scope` is refused, for a person to read;
   * `undefined` when it carries the scope's token and no browser header says
   * another origin sent it. A script (curl, a test's `fetch`) sends neither
   * header, and passes with the token read from the page.
   */
  refusal(scope: string, token: string | null, site: RequestSite): string | undefined {
    if (site.fetchSite !== undefined && !OWN_FETCH_SITES.has(site.fetchSite)) {
      return 'The form was sent from another site; press the button on this page.';
    }
    if (site.origin !== undefined && site.origin !== site.addressedTo) {
      return 'The form was sent from another origin; press the button on this page.';
    }
    const expected = this.#tokens.get(scope);
    if (token === null || expected === undefined || !equalInConstantTime(token, expected)) {
      return 'The form did not carry this page\u2019s token; reload the page and press the button again.';
    }
    return undefined;
  }
}
