/**
 * The text a sandbox `qris` charge's QR code carries: shaped like a dynamic
 * QRIS payload (EMVCo merchant-presented TLV fields, each a two-digit tag, a
 * two-digit length and the value, closed by a CRC), so a merchant's own
 * decoder reads it, yet naming no real acquirer or merchant: no wallet can pay it.
 */

/** EMVCo's limit: a field's length is written with two digits. */
const MAX_FIELD_LENGTH = 99;

/** One field, or `undefined` when its value is too long to be written. */
function field(tag: string, value: string): string | undefined {
  return value.length > MAX_FIELD_LENGTH ? undefined : tag + String(value.length).padStart(2, '0') + value;
}

/** CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), as EMVCo's tag 63 requires; four upper-case hex digits. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * The payload for a charge: its id as the reference label and its amount as
 * sent (`"25000.00"`). The currency field is always 360 (rupiah), QRIS's only
 * currency. `undefined` when the amount is too long for a field.
 */
export function qrisPayload(charge: { id: string; amount: string }): string | undefined {
  const merchantAccount = `${field('00', 'ID.LUNAS.SANDBOX')}${field('01', 'SANDBOX')}`;
  const reference = field('05', charge.id);
  if (reference === undefined) return undefined;
  const fields = [
    field('00', '01'), // payload format indicator
    field('01', '12'), // point of initiation: dynamic, one payment
    field('26', merchantAccount),
    field('52', '0000'), // merchant category code: none
    field('53', '360'),
    field('54', charge.amount),
    field('58', 'ID'),
    field('59', 'LUNAS SANDBOX'),
    field('60', 'JAKARTA'),
    field('62', reference), // additional data: the reference label
  ];
  if (fields.includes(undefined)) return undefined;
  const body = `${fields.join('')}6304`;
  return body + crc16(body);
}
