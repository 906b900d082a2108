import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { BrowserRouter, Route, Routes, useLocation, useNavigate } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Button } from "./button";
import { Modal } from "./modal";

function Harness({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open</Button>
      <Modal
        open={open}
        title="Use Unlock Credit?"
        description="This reveals who voted for you."
        onClose={() => {
          onClose?.();
          setOpen(false);
        }}
        footer={
          <>
            <Button>Unlock</Button>
            <Button variant="ghost">Cancel</Button>
          </>
        }
      />
    </>
  );
}

describe("Modal", () => {
  const backdropOf = (dialog: HTMLElement) => dialog.querySelector<HTMLElement>(":scope > [aria-hidden='true']")!;

  it("is a labelled, described <dialog> opened as a modal, with focus on its first control", () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, "showModal");
    render(<Harness />);
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    const dialog = screen.getByRole("dialog", { name: "Use Unlock Credit?" });
    expect(dialog).toBeInstanceOf(HTMLDialogElement);
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(document.getElementById(dialog.getAttribute("aria-describedby")!)?.textContent).toBe(
      "This reveals who voted for you.",
    );
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Close" }));
  });

  it("closes on Escape, the × and a tap on the backdrop, and gives focus back", () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const opener = screen.getByRole("button", { name: "Open" });
    const open = () => {
      opener.focus();
      fireEvent.click(opener);
      return screen.getByRole("dialog");
    };

    open();
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);

    open();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();

    fireEvent.click(backdropOf(open()));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(3);
    expect(document.activeElement).toBe(opener);
  });

  it("stays open while it may not be dismissed, even when the browser closes it anyway", () => {
    const onClose = vi.fn();
    render(<Modal open dismissible={false} title="Checkout" onClose={onClose} />);
    const dialog = screen.getByRole("dialog", { name: "Checkout" }) as HTMLDialogElement;

    fireEvent.keyDown(document, { key: "Escape" });
    fireEvent.click(backdropOf(dialog));
    expect(dialog.open).toBe(true);

    // Chromium lets a page refuse only one Escape per user gesture; the next one closes the dialog.
    act(() => dialog.close());
    expect(dialog.open).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("stacks: Escape closes the top dialog only", () => {
    function Stacked() {
      const [inner, setInner] = useState(false);
      const [outer, setOuter] = useState(true);
      return (
        <>
          <Modal open={outer} title="Voted on you" onClose={() => setOuter(false)}>
            <Button onClick={() => setInner(true)}>View</Button>
          </Modal>
          <Modal
            open={inner}
            title="Vote details"
            onClose={() => setInner(false)}
            footer={<Button>Unlock Details</Button>}
          />
        </>
      );
    }
    render(<Stacked />);
    const view = screen.getByRole("button", { name: "View" });
    view.focus();
    fireEvent.click(view);
    expect(screen.getByRole("dialog", { name: "Vote details" })).toBeTruthy();

    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("dialog", { name: "Vote details" })).toBeNull();
    expect(screen.getByRole("dialog", { name: "Voted on you" })).toBeTruthy();
    expect(document.activeElement).toBe(view);

    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("takes the toasts inside the top open dialog, where they stay live, and gives them back to the page", () => {
    const toasts = document.createElement("div");
    toasts.setAttribute("data-over-dialogs", "");
    document.body.append(toasts);
    function Stacked() {
      const [inner, setInner] = useState(false);
      return (
        <>
          <Modal open title="Voted on you" onClose={() => {}}>
            <Button onClick={() => setInner(true)}>View</Button>
          </Modal>
          <Modal open={inner} title="Vote details" onClose={() => setInner(false)} />
        </>
      );
    }
    const { unmount } = render(<Stacked />);
    expect(toasts.parentElement).toBe(screen.getByRole("dialog", { name: "Voted on you" }));
    fireEvent.click(screen.getByRole("button", { name: "View" }));
    expect(toasts.parentElement).toBe(screen.getByRole("dialog", { name: "Vote details" }));
    fireEvent.keyDown(document, { key: "Escape" });
    expect(toasts.parentElement).toBe(screen.getByRole("dialog", { name: "Voted on you" }));
    unmount();
    expect(toasts.parentElement).toBe(document.body);
    toasts.remove();
  });
});

describe("Modal and the browser's Back", () => {
  const depth = () => (window.history.state as { quadDialogDepth?: number } | null)?.quadDialogDepth ?? 0;
  const back = () => act(() => window.history.back());

  function Stacked({ payingInner = false }: { payingInner?: boolean }) {
    const [outer, setOuter] = useState(false);
    const [inner, setInner] = useState(false);
    return (
      <>
        <Button onClick={() => setOuter(true)}>Open</Button>
        <Modal open={outer} title="Voted on you" onClose={() => setOuter(false)}>
          <Button onClick={() => setInner(true)}>View</Button>
        </Modal>
        <Modal open={inner} title="Vote details" onClose={() => setInner(false)} dismissible={!payingInner} />
      </>
    );
  }

  const page = () => (window.history.state as { page?: string } | null)?.page;

  // Earlier tests' dialogs take their entries back asynchronously: start once history is settled.
  beforeEach(async () => {
    await waitFor(() => expect(depth()).toBe(0));
  });

  it("gives each open dialog one history entry; Back closes the top one only", async () => {
    window.history.replaceState({ page: "home" }, "");
    render(<Stacked />);
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    await waitFor(() => expect(depth()).toBe(1));
    fireEvent.click(screen.getByRole("button", { name: "View" }));
    await waitFor(() => expect(depth()).toBe(2));
    expect(page()).toBe("home");

    await back();
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Vote details" })).toBeNull());
    expect(screen.getByRole("dialog", { name: "Voted on you" })).toBeTruthy();
    expect(depth()).toBe(1);

    await back();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(depth()).toBe(0);
    expect(window.history.state).toEqual({ page: "home" });
  });

  it("takes its entry back when closed by its own button or Escape, so history holds no stale entries", async () => {
    window.history.replaceState({ page: "home" }, "");
    render(<Stacked />);
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    await waitFor(() => expect(depth()).toBe(1));
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await waitFor(() => expect(depth()).toBe(0));
    // Back on the page's own entry: the next Back leaves it.
    expect(window.history.state).toEqual({ page: "home" });

    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    fireEvent.click(screen.getByRole("button", { name: "View" }));
    await waitFor(() => expect(depth()).toBe(2));
    fireEvent.keyDown(document, { key: "Escape" });
    await waitFor(() => expect(depth()).toBe(1));
    fireEvent.keyDown(document, { key: "Escape" });
    await waitFor(() => expect(depth()).toBe(0));
    expect(window.history.state).toEqual({ page: "home" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("keeps a dialog that may not be dismissed now (a payment in flight) open on Back", async () => {
    render(<Stacked payingInner />);
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    fireEvent.click(screen.getByRole("button", { name: "View" }));
    await waitFor(() => expect(depth()).toBe(2));

    await back();
    // Its entry is pushed again, so the next Back still lands on it.
    await waitFor(() => expect(depth()).toBe(2));
    expect(screen.getByRole("dialog", { name: "Vote details" })).toBeTruthy();
    expect(screen.getByRole("dialog", { name: "Voted on you" })).toBeTruthy();
  });

  it("a navigation from inside a dialog keeps the new page; Back from it shows the old page without the dialog", async () => {
    window.history.replaceState(null, "", "/");
    function Home() {
      const [open, setOpen] = useState(false);
      const navigate = useNavigate();
      return (
        <>
          <Button onClick={() => setOpen(true)}>Open</Button>
          <Modal open={open} title="Voted on you" onClose={() => setOpen(false)}>
            <Button onClick={() => void navigate("/settings")}>Settings</Button>
          </Modal>
        </>
      );
    }
    function Where() {
      return <p>at {useLocation().pathname}</p>;
    }
    render(
      <BrowserRouter>
        <Routes>
          <Route path="/" element={<Home />} />
          <Route path="/settings" element={<Where />} />
        </Routes>
        <Where />
      </BrowserRouter>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    await waitFor(() => expect(depth()).toBe(1));
    fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    await waitFor(() => expect(window.location.pathname).toBe("/settings"));
    expect(screen.queryByRole("dialog")).toBeNull();

    await back();
    await waitFor(() => expect(screen.getByText("at /")).toBeTruthy());
    // The dialog's old entry is stepped over: the page's own entry, no dialog.
    await waitFor(() => expect(depth()).toBe(0));
    expect(window.location.pathname).toBe("/");
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
