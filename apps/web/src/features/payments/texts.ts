/** What an unlock reveals (docs/product.md "What others may see"), said the same way everywhere. */
export const UNLOCK_REVEALS =
  "An unlock reveals one voter: their name, photo, class year, emojis and Instagram handle.";
