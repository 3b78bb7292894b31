// Money for people: amounts are integer cents on the wire and in the state; this is the
// one place that turns them into text a person reads ("1,234.50", or "1.2K" on a chip).

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
