/**
 * Amounts in English words, for the messages that refuse an ambiguous amount:
 * "write 10000 for ten thousand, or 10.00 for ten" says which reading each
 * form stands for, where two digit strings side by side would not.
 */

const ONES = (
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen ' +
  'seventeen eighteen nineteen'
).split(' ');
const TENS = '  twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');
const SCALES = ' thousand million billion trillion quadrillion quintillion sextillion'.split(' ');

/** 1 to 999 in words: "one hundred five", "forty-two". */
function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts = hundreds > 0 ? [`${ONES[hundreds]} hundred`] : [];
  if (rest >= 20) parts.push(TENS[Math.floor(rest / 10)]! + (rest % 10 > 0 ? `-${ONES[rest % 10]}` : ''));
  else if (rest > 0) parts.push(ONES[rest]!);
  return parts.join(' ');
}

/**
 * A whole number in words ("twenty-five thousand fifty"); undefined past the
 * sextillions, where a message shows the digits alone.
 */
export function wholeInWords(digits: string): string | undefined {
  let n = BigInt(digits);
  if (n === 0n) return 'zero';
  const groups: string[] = [];
  for (let scale = 0; n > 0n; scale++, n /= 1000n) {
    if (scale >= SCALES.length) return undefined;
    const group = Number(n % 1000n);
    if (group > 0) groups.unshift(scale === 0 ? belowThousand(group) : `${belowThousand(group)} ${SCALES[scale]}`);
  }
  return groups.join(' ');
}

/** A two-decimal amount read aloud: "10.00" is "ten", "1.50" is "one point five", "25.05" "twenty-five point zero five". */
export function amountInWords(whole: string, cents: string): string | undefined {
  const words = wholeInWords(whole);
  const fraction = cents.replace(/0+$/, '');
  if (words === undefined || fraction === '') return words;
  return `${words} point ${[...fraction].map((digit) => ONES[Number(digit)]).join(' ')}`;
}
