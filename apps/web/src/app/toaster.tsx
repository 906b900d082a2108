import { Slide, ToastContainer } from "react-toastify";

/** The one toast container: top-centre, under the notch, short and swipeable on phones. */
export function Toaster() {
  return (
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
  );
}
