import { useLayoutEffect, useState, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
// The unstyled build with its stylesheet as a file: the default build injects
// a <style> element at run time, which the CSP refuses (no inline style).
import { Slide, ToastContainer } from "react-toastify/unstyled";
import "react-toastify/ReactToastify.css";
import { placeOverDialogs } from "../components/modal";
import "./toaster.css";

/** Phones: the top of the screen holds the step progress, the greeting and the Guys/Girls switch. */
const PHONE = "(max-width: 480px)";
const phoneQuery = () => (typeof window.matchMedia === "function" ? window.matchMedia(PHONE) : null);
function subscribePhone(onChange: () => void) {
  const query = phoneQuery();
  query?.addEventListener("change", onChange);
  return () => query?.removeEventListener("change", onChange);
}
const isPhone = () => phoneQuery()?.matches ?? false;

/**
 * The one toast container: at the bottom on phones, so it never covers the step progress, the greeting or
 * the Guys/Girls switch; top-centre on wider screens, where it sits over the top bar's middle and clears
 * them. One toast at a time (lib/toast), swipeable on phones.
 * Beside the app rather than in it, in an element of its own that an open dialog takes inside
 * itself (placeOverDialogs), so a toast stays visible and live while a dialog makes the page inert.
 */
export function Toaster() {
  const [host] = useState(() => {
    const element = document.createElement("div");
    element.setAttribute("data-over-dialogs", "");
    return element;
  });
  const phone = useSyncExternalStore(subscribePhone, isPhone, () => false);
  useLayoutEffect(() => {
    document.body.append(host);
    placeOverDialogs();
    return () => host.remove();
  }, [host]);
  return createPortal(
    <ToastContainer
      position={phone ? "bottom-center" : "top-center"}
      autoClose={3500}
      limit={3}
      newestOnTop
      closeOnClick
      pauseOnFocusLoss={false}
      draggable="touch"
      hideProgressBar
      transition={Slide}
      theme="light"
    />,
    host,
  );
}
