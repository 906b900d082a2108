// The unstyled build with its stylesheet as a file: the default build injects
// a <style> element at run time, which the CSP refuses (no inline style).
import { createPortal } from "react-dom";
import { Slide, ToastContainer } from "react-toastify/unstyled";
import "react-toastify/ReactToastify.css";
import "./toaster.css";

/**
 * The one toast container: top-centre (under the top bar on phones), one toast at a time (lib/toast), swipeable on phones.
 * Beside the app rather than in it, so a toast stays live while a dialog makes the app inert.
 */
export function Toaster() {
  return createPortal(
    <div data-over-dialogs="">
      <ToastContainer
        position="top-center"
        autoClose={3500}
        limit={3}
        newestOnTop
        closeOnClick
        pauseOnFocusLoss={false}
        draggable="touch"
        hideProgressBar
        transition={Slide}
        theme="light"
      />
    </div>,
    document.body,
  );
}
