/**
 * The SDK's version, sent in the User-Agent header. Kept in step with package.json by a test.
 * @category Client
 */
export const VERSION = '0.1.0';
