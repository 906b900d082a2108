import { describe, expect, it } from "vitest";
import { smsKeywordOf } from "./keywords";

describe("smsKeywordOf", () => {
  it.each<[body: string, expected: ReturnType<typeof smsKeywordOf>]>([
    ["STOP", { kind: "optOut", word: "STOP" }],
    ["  stopall\n", { kind: "optOut", word: "STOPALL" }],
    ["\u00a0Unsubscribe!", { kind: "optOut", word: "UNSUBSCRIBE" }],
    ["Cancel", { kind: "optOut", word: "CANCEL" }],
    ["end.", { kind: "optOut", word: "END" }],
    ["QUIT", { kind: "optOut", word: "QUIT" }],
    ["start", { kind: "optIn", word: "START" }],
    [" UnStop ", { kind: "optIn", word: "UNSTOP" }],
    ["help?", { kind: "help", word: "HELP" }],
    ["STOP STOP", null],
    ["stop it", null],
    ["stopped", null],
    ["", null],
  ])("%j → %j", (body, expected) => {
    expect(smsKeywordOf(body)).toEqual(expected);
  });
});
