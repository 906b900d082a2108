import { useEffect, useState } from "react";

/**
 * Skips used in a row, remembered for the tab's session so a reload does
 * not show a fresh "3 left" the server would not honour. The server stays
 * the judge: `prompt.skipDisabled` and a refused skip override this count.
 */
const storageKey = (userId: string) => `quad:skips-used:${userId}`;

function read(userId: string): number {
  try {
    const raw = window.sessionStorage.getItem(storageKey(userId));
    const value = raw === null ? 0 : Number.parseInt(raw, 10);
    return Number.isFinite(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

export function useSkipsUsed(userId: string): [number, (next: number | ((current: number) => number)) => void] {
  const [used, setUsed] = useState(() => read(userId));

  useEffect(() => {
    try {
      if (used === 0) window.sessionStorage.removeItem(storageKey(userId));
      else window.sessionStorage.setItem(storageKey(userId), String(used));
    } catch {
      // Storage may be unavailable (privacy modes): the count then lives in memory.
    }
  }, [userId, used]);

  return [used, setUsed];
}
