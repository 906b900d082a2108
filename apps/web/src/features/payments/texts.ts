/** What an unlock reveals (docs/product.md, docs/architecture.md "Data classes"), said the same way everywhere. */
export const UNLOCK_REVEALS =
  "An unlock reveals one voter: their name, photo, class year, emojis and Instagram handle.";
