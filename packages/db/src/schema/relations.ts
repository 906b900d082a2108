import { relations } from "drizzle-orm";
import { purchases } from "./payments";
import { schools } from "./schools";
import { unlocks } from "./unlocks";
import { users } from "./users";
import { prompts, rounds, voterState, votes } from "./voting";

/** Relations for the `db.query.*` API; they add no SQL constraints. */
export const schoolsRelations = relations(schools, ({ many }) => ({
  students: many(users),
}));

export const usersRelations = relations(users, ({ one, many }) => ({
  school: one(schools, { fields: [users.schoolId], references: [schools.id] }),
  voterState: one(voterState, { fields: [users.id], references: [voterState.userId] }),
  votesReceived: many(votes, { relationName: "vote_recipient" }),
  votesCast: many(votes, { relationName: "vote_voter" }),
  purchases: many(purchases),
}));

export const voterStateRelations = relations(voterState, ({ one }) => ({
  user: one(users, { fields: [voterState.userId], references: [users.id] }),
}));

export const roundsRelations = relations(rounds, ({ one }) => ({
  voter: one(users, { fields: [rounds.voterId], references: [users.id], relationName: "round_voter" }),
  prompt: one(prompts, { fields: [rounds.promptId], references: [prompts.id] }),
  candidateA: one(users, { fields: [rounds.candidateAId], references: [users.id], relationName: "round_candidate_a" }),
  candidateB: one(users, { fields: [rounds.candidateBId], references: [users.id], relationName: "round_candidate_b" }),
}));

export const votesRelations = relations(votes, ({ one }) => ({
  voter: one(users, { fields: [votes.voterId], references: [users.id], relationName: "vote_voter" }),
  recipient: one(users, { fields: [votes.recipientId], references: [users.id], relationName: "vote_recipient" }),
  prompt: one(prompts, { fields: [votes.promptId], references: [prompts.id] }),
}));

export const unlocksRelations = relations(unlocks, ({ one }) => ({
  owner: one(users, { fields: [unlocks.ownerId], references: [users.id], relationName: "unlock_owner" }),
  voter: one(users, { fields: [unlocks.voterId], references: [users.id], relationName: "unlock_voter" }),
}));

export const purchasesRelations = relations(purchases, ({ one }) => ({
  user: one(users, { fields: [purchases.userId], references: [users.id] }),
}));
