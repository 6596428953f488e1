/**
 * src/resources/payouts.ts: `client.payouts.list`, a list of JSON objects whose
 * fields the service does not document, held to the contract every such list
 * keeps (test/helpers/json-object-lists.ts).
 */
import { describeJsonObjectList } from '../../helpers/json-object-lists.js';

describeJsonObjectList('payouts', '/v1/payouts');
