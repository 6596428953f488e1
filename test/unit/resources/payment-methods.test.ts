/**
 * src/resources/payment-methods.ts: `client.paymentMethods.list`, a list of JSON objects whose
 * fields the service does not document, held to the contract every such list
 * keeps (test/helpers/json-object-lists.ts).
 */
import { describeJsonObjectList } from '../../helpers/json-object-lists.js';

describeJsonObjectList('paymentMethods', '/v1/payments/methods');
