import { useLayoutEffect, useState } from "react";
import { createPortal } from "react-dom";
// The unstyled build with its stylesheet as a file: the default build injects
// a <style> element at run time, which the CSP refuses (no inline style).
import { Slide, ToastContainer } from "react-toastify/unstyled";
import "react-toastify/ReactToastify.css";
import { placeOverDialogs } from "../components/modal";
import "./toaster.css";

/**
 * The one toast container, at the bottom on every screen: the top holds the step progress, the greeting
 * and the Guys/Girls switch (and on a laptop the sign-up card's progress sits under the top bar's middle).
 * One toast at a time (lib/toast), swipeable on phones.
 * Beside the app rather than in it, in an element of its own that an open dialog takes inside
 * itself (placeOverDialogs), so a toast stays visible and live while a dialog makes the page inert.
 */
export function Toaster() {
  const [host] = useState(() => {
    const element = document.createElement("div");
    element.setAttribute("data-over-dialogs", "");
    return element;
  });
  useLayoutEffect(() => {
    document.body.append(host);
    placeOverDialogs();
    return () => host.remove();
  }, [host]);
  return createPortal(
    <ToastContainer
      position="bottom-center"
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
