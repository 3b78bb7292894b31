// Money for people: amounts are integer cents on the wire and in the state; this is the
// one place that turns them into text a person reads ("1,234.50", or "1.2K" on a chip),
// and what a person types back into cents (`parseMoney`).

/**
 * Format integer cents for people.
 * @param {number} cents an integer amount in minor units
 * @param {{compact?: boolean}} [options] compact: the short form printed on chips
 *   ("25", "2.50", "1K", "2.5K"); the full form ("25.00", "1,000.00") otherwise
 * @returns {string}
 */
export function money(cents, { compact = false } = {}) {
  if (!Number.isInteger(cents)) throw new TypeError(`money: integer cents expected, got ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const size = Math.abs(cents);
  const units = Math.floor(size / 100);
  const hundredths = size % 100;
  if (compact && size >= 100_000) {
    const tenths = Math.round(size / 10_000);  // thousands, one decimal
    return sign + (tenths % 10 ? (tenths / 10).toFixed(1) : String(tenths / 10)) + "K";
  }
  if (compact && hundredths === 0) return sign + String(units);
  return sign + units.toLocaleString("en-US") + "." + String(hundredths).padStart(2, "0");
}

const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{0,2}))?$/;

/**
 * What a person typed ("10", "10.5", "10.50", "1,000") as integer cents; null when it
 * is not an amount (a sign, letters, more than two decimals, nothing at all).
 * @param {string} text
 * @returns {number | null}
 */
export function parseMoney(text) {
  const found = AMOUNT.exec(String(text ?? "").trim());
  if (!found || (found[1] === undefined && !found[2])) return null;
  const units = Number((found[1] ?? "0").replaceAll(",", ""));
  const cents = units * 100 + Number((found[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}
