import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
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
          <Modal open={inner} title="Vote details" onClose={() => setInner(false)} footer={<Button>Unlock Details</Button>} />
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
});
