/** What an unlock reveals (spec §1, DESIGN.md "Data classes"), said the same way everywhere. */
export const UNLOCK_REVEALS =
  "An unlock reveals one voter: their name, photo, class year, emojis and Instagram handle.";
