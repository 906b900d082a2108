import { ERROR_MESSAGES, REPORT_NOTE_MAX, REPORT_REASON_LABELS, REPORT_REASONS } from "@quad/contracts";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { trpcError } from "../../test/msw";
import { CANDIDATE, dialog, renderSafety } from "./test-support";
import { SAFETY_TEXT } from "./texts";

/** Opens the card menu and picks "Report Maya". */
async function openReport(options: Parameters<typeof renderSafety>[0] = {}) {
  const view = renderSafety(options);
  await view.user.click(screen.getByRole("button", { name: "Open menu" }));
  await view.user.click(dialog("Maya").getByRole("button", { name: /^Report Maya/ }));
  const report = dialog("Report Maya");
  return { ...view, report };
}

const send = () => dialog("Report Maya").getByRole("button", { name: SAFETY_TEXT.sendReport });

describe("report dialog", { timeout: 15_000 }, () => {
  it("offers the six contracts reasons and an optional note", async () => {
    const { report } = await openReport();
    const radios = report.getAllByRole("radio");
    expect(radios.map((radio) => radio.closest("label")?.textContent)).toEqual(
      REPORT_REASONS.map((reason) => REPORT_REASON_LABELS[reason]),
    );
    expect(report.getByRole("group", { name: SAFETY_TEXT.reasonLegend })).toBeTruthy();
    expect(report.getByLabelText(SAFETY_TEXT.noteLabel)).toBeTruthy();
    expect(report.getByText(SAFETY_TEXT.noteOptional)).toBeTruthy();
  });

  it("asks for a reason before sending anything", async () => {
    const { user, sent } = await openReport();
    await user.click(send());
    expect(await screen.findByText("Choose a reason")).toBeTruthy();
    expect(sent("safety.report")).toHaveLength(0);
  });

  it('"Something else" needs a note', async () => {
    const { user, report, sent } = await openReport();
    await user.click(report.getByRole("radio", { name: REPORT_REASON_LABELS.other }));
    expect(report.getByLabelText(SAFETY_TEXT.noteLabelRequired)).toBeTruthy();
    expect(report.queryByText(SAFETY_TEXT.noteOptional)).toBeNull();
    await user.type(report.getByLabelText(SAFETY_TEXT.noteLabelRequired), "   ");
    await user.click(send());
    expect(await screen.findByText("Tell us what happened")).toBeTruthy();
    expect(sent("safety.report")).toHaveLength(0);

    await user.type(report.getByLabelText(SAFETY_TEXT.noteLabelRequired), "Sends mean messages");
    expect(report.queryByText("Tell us what happened")).toBeNull();
    await user.click(send());
    expect(await screen.findByText(SAFETY_TEXT.reported)).toBeTruthy();
    expect(sent("safety.report")).toEqual([{ target: CANDIDATE.target, reason: "other", note: "Sends mean messages" }]);
  });

  it("keeps the note within the limit", async () => {
    const { user, report, sent } = await openReport();
    await user.click(report.getByRole("radio", { name: REPORT_REASON_LABELS.harassment }));
    await user.click(report.getByLabelText(SAFETY_TEXT.noteLabel));
    await user.paste("x".repeat(REPORT_NOTE_MAX + 1));
    expect(report.getByText(`${REPORT_NOTE_MAX + 1}/${REPORT_NOTE_MAX}`)).toBeTruthy();
    await user.click(send());
    expect(await screen.findByText(`Keep it under ${REPORT_NOTE_MAX} characters`)).toBeTruthy();
    expect(sent("safety.report")).toHaveLength(0);
  });

  it("sends the reason, thanks the reporter and closes", async () => {
    const { user, report, sent } = await openReport();
    await user.click(report.getByRole("radio", { name: REPORT_REASON_LABELS.fake_profile }));
    await user.click(send());
    expect(await screen.findByText(SAFETY_TEXT.reported)).toBeTruthy();
    expect(sent("safety.report")).toEqual([{ target: CANDIDATE.target, reason: "fake_profile" }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("a second report of the same student shows the server's message (409)", async () => {
    const { user, report, sent } = await openReport({
      overrides: { "safety.report": () => trpcError("CONFLICT", ERROR_MESSAGES.alreadyReported) },
    });
    await user.click(report.getByRole("radio", { name: REPORT_REASON_LABELS.under_18 }));
    await user.click(send());
    expect(await screen.findByText(ERROR_MESSAGES.alreadyReported)).toBeTruthy();
    expect(sent("safety.report")).toEqual([{ target: CANDIDATE.target, reason: "under_18" }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("shows the server's field messages and keeps the form open on a 400", async () => {
    const { user, report } = await openReport({
      overrides: {
        "safety.report": () => trpcError("BAD_REQUEST", "Invalid input", { note: ["Tell us what happened"] }),
      },
    });
    await user.click(report.getByRole("radio", { name: REPORT_REASON_LABELS.harassment }));
    await user.click(send());
    expect(await screen.findByText("Tell us what happened")).toBeTruthy();
    expect(screen.getByRole("dialog", { name: "Report Maya" })).toBeTruthy();
  });

  it("a reporter who may not report sees the server's reason and the dialog closes (403)", async () => {
    const { user, report } = await openReport({
      overrides: { "safety.report": () => trpcError("FORBIDDEN", ERROR_MESSAGES.reportOtherSchool) },
    });
    await user.click(report.getByRole("radio", { name: REPORT_REASON_LABELS.harassment }));
    await user.click(send());
    expect(await screen.findByText(ERROR_MESSAGES.reportOtherSchool)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("past the daily limit the server's message shows and the note is kept for later (429)", async () => {
    const { user, report } = await openReport({
      overrides: { "safety.report": () => trpcError("TOO_MANY_REQUESTS", ERROR_MESSAGES.tooManyReports) },
    });
    await user.click(report.getByRole("radio", { name: REPORT_REASON_LABELS.harassment }));
    await user.click(send());
    expect(await screen.findByText(ERROR_MESSAGES.tooManyReports)).toBeTruthy();
    expect(screen.getByRole("dialog", { name: "Report Maya" })).toBeTruthy();
  });
});
