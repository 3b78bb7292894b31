// The squeeze: a hand's cards lie face down and its squeezer bends them from the corner
// by dragging, a click or tap, or Space/Enter on a focused card; the peel goes to the
// server a few times a second and everybody sees the index and pips as they show.

const CLICK_PEEL = 0.25;
const SEND_EVERY_MS = 120;

/**
 * @param {{getState: () => object, dispatch: (action: object) => void, setTimer?: Function}} io
 * @returns {{bind: (card: HTMLElement, side: string) => void, bend: (side: string, value: number) => void}}
 */
export function createSqueeze({ getState, dispatch, setTimer = setTimeout }) {
  let timer = null;

  function bend(side, value) {
    const state = getState();
    if (!state.squeeze) return;
    dispatch({ type: "bend", side, value });
    if (state.squeeze.squeezer === state.me && timer === null) {
      timer = setTimer(() => { timer = null; dispatch({ type: "send_peels" }); }, SEND_EVERY_MS);
    }
  }

  const peelOf = () => getState().squeeze?.peel ?? 0;

  /** Make one face-down card squeezable (the renderer calls this for each one it draws). */
  function bind(card, side) {
    let start = null, moved = false;
    card.addEventListener("pointerdown", (e) => {
      start = { x: e.clientX, y: e.clientY, peel: peelOf() };
      moved = false;
      card.setPointerCapture(e.pointerId);
    });
    card.addEventListener("pointermove", (e) => {
      if (!start) return;
      // dragging the bottom-right corner up and left bends the card
      const drag = (start.x - e.clientX + start.y - e.clientY) / (card.offsetHeight * 1.4);
      if (Math.abs(drag) > 0.03) moved = true;
      if (moved) bend(side, start.peel + drag);
    });
    card.addEventListener("pointerup", () => {
      if (start && !moved) bend(side, peelOf() + CLICK_PEEL);
      start = null;
    });
    card.addEventListener("keydown", (e) => {
      if (e.key !== " " && e.key !== "Enter") return;
      e.preventDefault(); e.stopPropagation();
      bend(side, peelOf() + CLICK_PEEL);
    });
  }

  return { bind, bend };
}
