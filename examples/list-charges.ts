/**
 * Walk every charge across pages with `for await`, and read one page by hand.
 * Run: LUNAS_API_KEY=... LUNAS_BASE_URL=... npx tsx examples/list-charges.ts
 */
import { Client } from 'lunas-sdk';

const client = new Client();

// Every item, page after page (the next page is fetched while you work).
let pending = 0;
let total = 0;
for await (const charge of client.charges.list({ pagesize: 100 })) {
  total += 1;
  if (charge.status === 'pending') pending += 1;
}
console.log(`${total} charges, ${pending} pending`);

// One page at a time, when you need the page itself.
const page = await client.charges.list({ page: 1, pagesize: 10 });
console.log(`page ${page.page}: ${page.data.length} of ${page.total_items}; more: ${page.hasNextPage()}`);
