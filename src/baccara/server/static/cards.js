// Cards as people read them: "Td" is 10♦, and a coup's notation is each hand's cards.

export const SUITS = Object.freeze({ s: "♠", h: "♥", d: "♦", c: "♣" });

/** A card in words with its suit's sign ("Td" → "10♦"). */
export const cardText = (text) => (text[0] === "T" ? "10" : text[0]) + (SUITS[text[1]] ?? text[1]);

/**
 * A coup's notation as each hand's cards: "P:9h,3d B:Ks,5c" → "Player 9♥ 3♦ · Banker K♠ 5♣"
 * (`names` gives each hand's name: the table's labels).
 */
export function coupText(notation, names = { P: "Player", B: "Banker" }) {
  return notation.split(" ").filter(Boolean).map((hand) => {
    const [side, cards = ""] = hand.split(":");
    return `${names[side] ?? side} ${cards.split(",").filter(Boolean).map(cardText).join(" ")}`;
  }).join(" · ");
}
