import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox } from "@quad/db/schema";
import { createTestDatabase, insertTestSchool, insertTestUser } from "@quad/db/testing";
import { createEmailSender, createSmtpProvider, outboxEmailProvider } from "./email-sender";

/**
 * The SMTP provider against a real SMTP server on loopback (smtp-server, the
 * nodemailer project's own server): what arrives is what a mail provider
 * would receive.
 */
interface Received {
  from: string | undefined;
  to: string[];
  user: string | undefined;
  data: string;
}

let server: SMTPServer;
let port: number;
const received: Received[] = [];
let refuseNext = false;

beforeAll(async () => {
  server = new SMTPServer({
    // Plain SMTP on loopback: the provider only skips STARTTLS for a relay on this machine.
    disabledCommands: ["STARTTLS"],
    authOptional: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "quad" && auth.password === "s3cret pass") return callback(null, { user: auth.username });
      return callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      if (refuseNext) {
        refuseNext = false;
        const error = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
        return callback(error);
      }
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          data: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
    logger: false,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the SMTP e-mail provider", () => {
  it("delivers the message with credentials from the URL, from the configured sender", async () => {
    const provider = createSmtpProvider({
      url: `smtp://quad:s3cret%20pass@127.0.0.1:${port}`,
      from: "Quad <codes@quad.test>",
    });
    const { providerMessageId } = await provider.deliver({
      to: "ada@cs.stanford.edu",
      subject: "123456 is your Quad code",
      text: "123456 is your code.",
    });
    expect(providerMessageId).toMatch(/@/);
    const mail = received.at(-1)!;
    expect(mail).toMatchObject({ from: "codes@quad.test", to: ["ada@cs.stanford.edu"], user: "quad" });
    expect(mail.data).toContain("Subject: 123456 is your Quad code");
    expect(mail.data).toContain("123456 is your code.");
  });

  it("fails when the server refuses the credentials or the recipient", async () => {
    const wrong = createSmtpProvider({ url: `smtp://quad:nope@127.0.0.1:${port}`, from: "Quad <codes@quad.test>" });
    await expect(wrong.deliver({ to: "ada@stanford.edu", subject: "s", text: "t" })).rejects.toThrow();
    refuseNext = true;
    const right = createSmtpProvider({
      url: `smtp://quad:s3cret%20pass@127.0.0.1:${port}`,
      from: "Quad <codes@quad.test>",
    });
    await expect(right.deliver({ to: "gone@stanford.edu", subject: "s", text: "t" })).rejects.toThrow(
      /550|unavailable/i,
    );
  });

  it("requires STARTTLS from a server that is not named as this machine", async () => {
    // 127.0.0.2 reaches this machine too, but only localhost / 127.0.0.1 / [::1] count as a local relay.
    const plain = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      authOptional: true,
      logger: false,
      onData: (stream, _s, cb) => stream.resume().on("end", () => cb()),
    });
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.2", resolve));
    try {
      const remotePort = (plain.server.address() as AddressInfo).port;
      const remote = createSmtpProvider({
        url: `smtp://127.0.0.2:${remotePort}`,
        from: "Quad <codes@quad.test>",
        timeoutMs: 2000,
      });
      await expect(remote.deliver({ to: "ada@stanford.edu", subject: "s", text: "t" })).rejects.toThrow(/STARTTLS/i);
      const local = createSmtpProvider({ url: `smtp://127.0.0.1:${port}`, from: "Quad <codes@quad.test>" });
      await expect(local.deliver({ to: "ada@stanford.edu", subject: "s", text: "t" })).rejects.toThrow(/auth/i);
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});

describe("the e-mail record", () => {
  it("keeps the message without its code when a real provider delivered it", async () => {
    const database = await createTestDatabase();
    try {
      const student = await insertTestUser(database.db, {
        schoolId: (await insertTestSchool(database.db)).id,
        member: false,
      });
      const smtp = createSmtpProvider({
        url: `smtp://quad:s3cret%20pass@127.0.0.1:${port}`,
        from: "Quad <codes@quad.test>",
      });
      const message = {
        userId: student.id,
        to: "ada@stanford.edu",
        subject: "246810 is your Quad code",
        text: "246810 is your code.",
      };
      await createEmailSender(database.db, smtp, () => new Date()).send(message);
      expect(received.at(-1)!.data).toContain("246810 is your code.");
      await createEmailSender(database.db, outboxEmailProvider, () => new Date()).send({
        ...message,
        to: "grace@stanford.edu",
      });
      const rows = await database.db
        .select({
          to: emailOutbox.toAddress,
          subject: emailOutbox.subject,
          body: emailOutbox.body,
          status: emailOutbox.status,
        })
        .from(emailOutbox);
      expect(rows.find((r) => r.to === "ada@stanford.edu")).toEqual({
        to: "ada@stanford.edu",
        subject: "•••••• is your Quad code",
        body: "•••••• is your code.",
        status: "sent",
      });
      // The development outbox is the delivery: its row keeps the code to be read.
      expect(rows.find((r) => r.to === "grace@stanford.edu")?.body).toBe("246810 is your code.");
    } finally {
      await database.close();
    }
  });
});
