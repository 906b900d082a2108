import { SCREEN_TEXT, type Gender } from "@quad/contracts";
import { describe, expect, it } from "vitest";
import { createRound, previewHandler, server } from "../../test/msw";
import { asPromptResponse, fetchPreviewRound } from "./preview-round";

describe("asPromptResponse", () => {
  it("accepts a round and an error value", () => {
    const round = createRound();
    expect(asPromptResponse(round)).toEqual(round);
    const empty = { error: "no_candidates", message: SCREEN_TEXT.noStudents };
    expect(asPromptResponse(empty)).toEqual(empty);
  });

  it("passes on only what a card shows", () => {
    const round = createRound();
    const withExtras = { ...round, users: [{ ...round.users[0], phone: "+12025550123" }, round.users[1]] };
    expect(asPromptResponse(withExtras)).toEqual(round);
  });

  it.each([
    null,
    "round",
    { prompt: { id: 1, prompt: "x", skipDisabled: false }, users: [createRound().users[0]] },
    { prompt: { id: "1", prompt: "x" }, users: createRound().users },
    { prompt: { id: 1, prompt: "x" }, users: [{ id: "a" }, { id: "b" }] },
    { error: "no_candidates" },
  ])("rejects %j", (value) => {
    expect(asPromptResponse(value)).toBeNull();
  });
});

describe("fetchPreviewRound", () => {
  it("asks for the chosen gender", async () => {
    const asked: Gender[] = [];
    server.use(previewHandler(() => createRound(), asked));
    expect(await fetchPreviewRound("female")).toEqual(createRound());
    expect(asked).toEqual(["female"]);
  });

  it("fails on an error status", async () => {
    server.use(previewHandler(() => new Response("{}", { status: 500 })));
    await expect(fetchPreviewRound("male")).rejects.toThrow(/500/);
  });
});
