/**
 * One browser history entry per open dialog, so Back closes the top dialog
 * instead of leaving the page.
 *
 * Each open dialog holds an entry at its depth (1 for the first, 2 for one
 * stacked on it), marked in `history.state` next to react-router's own keys
 * and at the same URL. The entries follow the open dialogs, reconciled once
 * per change:
 * - a dialog opens: an entry is pushed for it;
 * - it closes by its own button, Escape or a backdrop tap: its entry is taken
 *   back (`history.go(-n)`), so history does not fill with stale entries;
 * - the student goes Back: the dialogs whose entries were left close, top
 *   first; one that may not be dismissed now (a payment in flight) gets its
 *   entry pushed again and stays;
 * - a navigation from inside a dialog leaves its entry under the new page;
 *   arriving on such an entry later (Back from that page) steps over it.
 */

const DEPTH_KEY = "quadDialogDepth";

export interface DialogEntry {
  /** Closes the dialog (its `onClose`). */
  close: () => void;
  /** False while the dialog must stay open (then Back leaves it open). */
  dismissible: () => boolean;
}

/** Dialogs holding an entry, oldest first: the entry at depth d belongs to `held[d - 1]`. */
const held: DialogEntry[] = [];
/** Entries being taken back by our own `history.go`, until its popstate arrives. */
let pendingPops = 0;
let reconcileQueued = false;
let listening = false;

function depthOf(state: unknown): number {
  if (typeof state !== "object" || state === null) return 0;
  const depth = (state as Record<string, unknown>)[DEPTH_KEY];
  return typeof depth === "number" ? depth : 0;
}

/** Makes the entries match the open dialogs: push the missing ones, take back the extra ones. */
function reconcile(): void {
  if (pendingPops > 0) return; // Finished when our own popstate arrives.
  const current = depthOf(window.history.state);
  if (current > held.length) {
    pendingPops = current - held.length;
    window.history.go(-pendingPops);
    return;
  }
  for (let depth = current + 1; depth <= held.length; depth++) {
    window.history.pushState({ ...(window.history.state as object | null), [DEPTH_KEY]: depth }, "");
  }
}

/**
 * Batched: a dialog that closes and another that opens in the same render
 * (or StrictMode's unmount and remount) move history once, and a navigation
 * done in the same turn is seen before an entry is taken back.
 */
function queueReconcile(): void {
  if (reconcileQueued) return;
  reconcileQueued = true;
  queueMicrotask(() => {
    reconcileQueued = false;
    reconcile();
  });
}

function onPopState(): void {
  if (pendingPops > 0) {
    // Our own step back arrived.
    pendingPops = 0;
    reconcile();
    return;
  }
  const depth = depthOf(window.history.state);
  while (held.length > depth && held[held.length - 1]!.dismissible()) {
    held.pop()!.close();
  }
  reconcile();
}

/**
 * Gives an opening dialog its history entry; call the returned function when
 * it closes (for any reason) to take the entry back.
 */
export function holdHistoryEntry(entry: DialogEntry): () => void {
  if (!listening) {
    window.addEventListener("popstate", onPopState);
    listening = true;
  }
  held.push(entry);
  queueReconcile();
  return () => {
    const index = held.indexOf(entry);
    // Already gone when Back closed it.
    if (index === -1) return;
    held.splice(index, 1);
    queueReconcile();
  };
}
