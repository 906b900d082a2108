import { act, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderApp } from "../test/render";
import { notify } from "./toast";

describe("notify", () => {
  it("shows a toast raised before the lazy toast container has mounted", async () => {
    act(() => notify.success("Vote sent 🤩"));
    renderApp("/terms");
    expect(await screen.findByText("Vote sent 🤩")).toBeTruthy();
  });
});
