import { REPORT_REASON_LABELS } from "@quad/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { defaultTrpcResolvers, recording, server, trpcHandler } from "../../test/msw";
import { adminAnswers, createQueuedStudent, type AdminAnswersOptions } from "../../test/msw/admin";
import { renderApp, signIn, type SessionKind } from "../../test/render";
import { ADMIN_TEXT } from "./texts";

function openAdmin(options: AdminAnswersOptions = {}, session: SessionKind = "verified") {
  const admin = adminAnswers(options);
  const everything = recording({ ...defaultTrpcResolvers, ...admin.resolvers });
  server.use(trpcHandler(everything.resolvers));
  signIn(session);
  const view = renderApp("/admin");
  const adminCalls = () => ADMIN_PATHS.filter((path) => everything.sent(path).length > 0);
  return { ...view, sent: admin.sent, adminCalls, everything, user: userEvent.setup({ pointerEventsCheck: 0 }) };
}
const ADMIN_PATHS = [
  "admin.reviewQueue",
  "admin.auditTrail",
  "admin.restore",
  "admin.removeProfile",
  "admin.removePhoto",
] as const;

/** Jordan, queued with three reports, one of them about the photo. */
const queued = createQueuedStudent();

// The first render lazy-loads the data layer and the page: allow for a cold start.
const findHeading = (name: string) => screen.findByRole("heading", { level: 1, name }, { timeout: 5000 });
const jordan = () => screen.getByRole("article", { name: "Jordan" });

describe("/admin", { timeout: 20_000 }, () => {
  it("is the 404 page for a signed-out visitor, without asking the server", async () => {
    const { adminCalls, location } = openAdmin({}, "none");
    expect(await findHeading("Page not found")).toBeTruthy();
    expect(adminCalls()).toEqual([]);
    expect(location.pathname).toBe("/admin");
  });

  it("is the 404 page when the server answers NOT_FOUND (not an admin)", async () => {
    const { everything, adminCalls, location } = openAdmin({ isAdmin: false });
    expect(await findHeading("Page not found")).toBeTruthy();
    expect(screen.queryByText(ADMIN_TEXT.queueTitle)).toBeNull();
    // One call, and no sign-out or redirect.
    expect(adminCalls()).toEqual(["admin.reviewQueue"]);
    expect(everything.sent("admin.reviewQueue")).toHaveLength(1);
    expect(location.pathname).toBe("/admin");
  });

  it("marks a student with an Under 18 report as urgent, with how long the report has waited", async () => {
    openAdmin({
      students: [
        createQueuedStudent({
          firstName: "Robin",
          held: false,
          urgentSince: new Date(Date.now() - 3 * 3_600_000).toISOString(),
          reports: [
            {
              reason: REPORT_REASON_LABELS.under_18,
              note: null,
              at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
              reporter: null,
              weight: 0,
              urgent: true,
            },
          ],
          weight: 0,
        }),
        createQueuedStudent({ userId: "00000000-0000-4000-8000-00000000a003", firstName: "Sky" }),
      ],
      entries: [],
    });
    const robin = within(await screen.findByRole("article", { name: "Robin" }));
    expect(robin.getByText(ADMIN_TEXT.urgent("3 hr. ago"))).toBeTruthy();
    // Its reporter deleted their account since: the report stays, said to weigh nothing.
    expect(robin.getByText(ADMIN_TEXT.reporterDeleted)).toBeTruthy();
    expect(within(screen.getByRole("article", { name: "Sky" })).queryByText(/Urgent/)).toBeNull();
  });

  it("shows each reported student with their reports, and the audit trail", async () => {
    openAdmin({
      students: [
        createQueuedStudent(),
        createQueuedStudent({
          userId: "00000000-0000-4000-8000-00000000a002",
          firstName: "Sam",
          held: false,
          photo: null,
          school: null,
          reports: [
            {
              reason: REPORT_REASON_LABELS.harassment,
              note: null,
              at: new Date().toISOString(),
              reporter: { userId: "00000000-0000-4000-8000-00000000b009", firstName: "Dana" },
              weight: 0,
              urgent: false,
            },
          ],
          weight: 0,
        }),
      ],
      entries: [{ action: "grant_admin", adminId: null, targetUserId: null, at: new Date().toISOString() }],
    });
    expect(await findHeading(ADMIN_TEXT.title)).toBeTruthy();
    const card = within(jordan());
    expect(card.getByRole("img", { name: "Photo of Jordan" })).toBeTruthy();
    expect(card.getByText("State University")).toBeTruthy();
    expect(card.getByText(ADMIN_TEXT.held)).toBeTruthy();
    expect(card.getByText("3 reports")).toBeTruthy();
    const reports = within(card.getByRole("list", { name: "Reports about Jordan" })).getAllByRole("listitem");
    expect(reports.map((item) => item.querySelector("span")?.textContent)).toEqual([
      "Fake profile",
      "Something else",
      "Inappropriate photo",
    ]);
    expect(card.getByText("Uses a celebrity's photos")).toBeTruthy();
    expect(card.getByText("2 hr. ago")).toBeTruthy();
    // Who reported, by name and short id.
    expect(reports.map((item) => item.querySelector("p")?.textContent)).toEqual([
      "by Ash00000000",
      "by Blair00000000",
      "by Casey00000000",
    ]);

    const sam = within(screen.getByRole("article", { name: "Sam" }));
    expect(sam.queryByText(ADMIN_TEXT.held)).toBeNull();
    expect(sam.getByText(ADMIN_TEXT.noSchool)).toBeTruthy();
    // A new account's report is listed, and said to weigh nothing toward a hold.
    expect(sam.getByText(ADMIN_TEXT.reportedBy("Dana"))).toBeTruthy();
    expect(sam.getByText(ADMIN_TEXT.reportWeight(0))).toBeTruthy();
    expect(sam.getByText(ADMIN_TEXT.holdProgress(0))).toBeTruthy();
    expect(sam.getByRole("button", { name: "Remove photo of Sam" })).toHaveProperty("disabled", true);

    expect(await screen.findByText("Granted admin")).toBeTruthy();
    expect(screen.getByText(ADMIN_TEXT.byCli)).toBeTruthy();
  });

  it("Restore calls the mutation, then the queue and the trail are fetched again", async () => {
    const { sent, user } = openAdmin({
      after: {
        students: [],
        entries: [
          {
            action: "restore",
            adminId: "00000000-0000-4000-8000-0000000ad001",
            targetUserId: queued.userId,
            at: new Date().toISOString(),
          },
        ],
      },
    });
    await findHeading(ADMIN_TEXT.title);
    await user.click(within(jordan()).getByRole("button", { name: "Restore Jordan" }));
    expect(await screen.findByText(ADMIN_TEXT.queueEmptyTitle)).toBeTruthy();
    expect(sent("admin.restore")).toEqual([{ userId: queued.userId }]);
    expect(await screen.findByText(ADMIN_TEXT.restored("Jordan"))).toBeTruthy();
    expect(await screen.findByText("Restored a profile")).toBeTruthy();
    expect(sent("admin.reviewQueue")).toHaveLength(2);
  });

  it("Remove profile asks first; Cancel removes nothing", async () => {
    const { sent, user } = openAdmin({ after: { students: [] } });
    await findHeading(ADMIN_TEXT.title);
    await user.click(within(jordan()).getByRole("button", { name: "Remove profile of Jordan" }));
    const confirm = within(screen.getByRole("dialog", { name: ADMIN_TEXT.confirmRemoveProfileTitle("Jordan") }));
    expect(confirm.getByText(ADMIN_TEXT.confirmRemoveProfileBody("Jordan"))).toBeTruthy();
    await user.click(confirm.getByRole("button", { name: ADMIN_TEXT.cancel }));
    expect(sent("admin.removeProfile")).toEqual([]);

    await user.click(within(jordan()).getByRole("button", { name: "Remove profile of Jordan" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: ADMIN_TEXT.removeProfile }));
    expect(await screen.findByText(ADMIN_TEXT.profileRemoved("Jordan"))).toBeTruthy();
    expect(sent("admin.removeProfile")).toEqual([{ userId: queued.userId }]);
    expect(await screen.findByText(ADMIN_TEXT.queueEmptyTitle)).toBeTruthy();
  });

  it("Remove photo asks first, then the student stays queued for the other reports", async () => {
    // The server resolves the photo report only: Jordan stays queued, without a photo.
    const otherReports = queued.reports.filter((report) => report.reason !== REPORT_REASON_LABELS.inappropriate_photo);
    const { sent, user } = openAdmin({ after: { students: [{ ...queued, photo: null, reports: otherReports }] } });
    await findHeading(ADMIN_TEXT.title);
    await user.click(within(jordan()).getByRole("button", { name: "Remove photo of Jordan" }));
    await user.click(
      within(screen.getByRole("dialog", { name: ADMIN_TEXT.confirmRemovePhotoTitle("Jordan") })).getByRole("button", {
        name: ADMIN_TEXT.removePhoto,
      }),
    );
    expect(await screen.findByText(ADMIN_TEXT.photoRemoved("Jordan"))).toBeTruthy();
    expect(sent("admin.removePhoto")).toEqual([{ userId: queued.userId }]);
    await waitFor(() => expect(within(jordan()).getByText("2 reports")).toBeTruthy());
    expect(within(jordan()).queryByRole("img")).toBeNull();
  });
});
