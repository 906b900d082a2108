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
  it("is a labelled dialog that takes focus and traps Tab", () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    const dialog = screen.getByRole("dialog", { name: "Use Unlock Credit?" });
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(dialog.getAttribute("aria-describedby")).toBeTruthy();

    const close = screen.getByRole("button", { name: "Close" });
    const cancel = screen.getByRole("button", { name: "Cancel" });
    expect(document.activeElement).toBe(close);

    cancel.focus();
    fireEvent.keyDown(document, { key: "Tab" });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(document, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(cancel);
  });

  it("closes on Escape and gives focus back", () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const opener = screen.getByRole("button", { name: "Open" });
    opener.focus();
    fireEvent.click(opener);
    expect(document.body.style.overflow).toBe("hidden");

    fireEvent.keyDown(document, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(document.body.style.overflow).toBe("");
  });

  it("stacks: only the top dialog answers Escape and traps Tab", () => {
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
    const inner = screen.getByRole("dialog", { name: "Vote details" });
    const unlock = screen.getByRole("button", { name: "Unlock Details" });
    unlock.focus();
    fireEvent.keyDown(document, { key: "Tab" });
    expect(inner.contains(document.activeElement)).toBe(true);

    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("dialog", { name: "Vote details" })).toBeNull();
    expect(screen.getByRole("dialog", { name: "Voted on you" })).toBeTruthy();
    expect(document.activeElement).toBe(view);
    expect(document.body.style.overflow).toBe("hidden");

    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.body.style.overflow).toBe("");
  });

  it("makes the page, and a dialog under the top one, inert while open", () => {
    function Stacked() {
      const [inner, setInner] = useState(false);
      return (
        <main>
          <Modal open title="Voted on you" onClose={() => {}}>
            <Button onClick={() => setInner(true)}>View</Button>
          </Modal>
          <Modal open={inner} title="Vote details" onClose={() => setInner(false)} />
        </main>
      );
    }
    const { container } = render(<Stacked />);
    const layerOf = (name: string) => screen.getByRole("dialog", { name }).closest("[data-dialog-layer]")!;
    expect(container.hasAttribute("inert")).toBe(true);
    expect(layerOf("Voted on you").hasAttribute("inert")).toBe(false);

    fireEvent.click(screen.getByRole("button", { name: "View" }));
    expect(layerOf("Voted on you").hasAttribute("inert")).toBe(true);
    expect(layerOf("Vote details").hasAttribute("inert")).toBe(false);

    fireEvent.keyDown(document, { key: "Escape" });
    expect(layerOf("Voted on you").hasAttribute("inert")).toBe(false);
    expect(container.hasAttribute("inert")).toBe(true);
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
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(depth()).toBe(0);
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
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(window.location.pathname).toBe("/settings");
    expect(screen.queryByRole("dialog")).toBeNull();

    await back();
    await waitFor(() => expect(screen.getByText("at /")).toBeTruthy());
    // The dialog's old entry is stepped over: the page's own entry, no dialog.
    await waitFor(() => expect(depth()).toBe(0));
    expect(window.location.pathname).toBe("/");
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
