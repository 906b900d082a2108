import {
  FLASH_SALE_PACKAGE_ID,
  LOCKED_CARD_PHOTO,
  findProduct,
  priceFor,
  type FlashSaleOffer,
  type MeUser,
  type PublicConfig,
  type VoteCard,
  type VoteCardLocked,
  type VoteCardUnlocked,
} from "@quad/contracts";
import { createMeUser } from "./fixtures";
import { defaultTrpcResolvers } from "./handlers";
import { inTurn, recording, trpcHandler, type ProcedureOutput, type TrpcResolvers } from "./trpc";

/** Fixtures and canned answers for the received votes, unlocks and payments. */

let sequence = 0;
const cardId = () => `00000000-0000-4000-8000-${String(++sequence).padStart(12, "0")}`;
/** The start of the hour `hoursAgo` hours back: a locked card's time is its hour. */
const hourStart = (hoursAgo: number) => {
  const hour = 3_600_000;
  return new Date((Math.floor(Date.now() / hour) - hoursAgo) * hour).toISOString();
};

export function createLockedVoteCard(overrides: Partial<VoteCardLocked> = {}): VoteCardLocked {
  return {
    id: cardId(),
    isUnlocked: false,
    photo: LOCKED_CARD_PHOTO,
    prompt: "Most likely to start a company",
    createdAt: hourStart(0),
    ...overrides,
  };
}

/** The voter a locked card hides, as the unlock reveals them. */
export function revealedVoteCard(card: VoteCard, voter: Partial<VoteCardUnlocked> = {}): VoteCardUnlocked {
  return {
    id: card.id,
    isUnlocked: true,
    photo: `/api/media/avatars/${card.id}.jpg`,
    name: "Jordan",
    graduationYear: 2026,
    instagramHandle: "@jordan.builds",
    emojis: ["🚀", "☕"],
    prompt: card.prompt,
    createdAt: card.createdAt,
    ...voter,
  };
}

/** `count` locked cards, newest first, with distinct prompts. */
export function createVoteCards(count: number): VoteCardLocked[] {
  return Array.from({ length: count }, (_, i) =>
    createLockedVoteCard({
      prompt: `Prompt number ${i + 1}`,
      createdAt: hourStart(i),
    }),
  );
}

export const LOCAL_PAYMENTS_CONFIG: PublicConfig = {
  authProvider: "local",
  firebase: null,
  paymentProvider: "local",
  stripePublishableKey: null,
  vapidPublicKey: null,
};

/** Card numbers the local card form accepts (the fake takes any; which one is declined is the server rule). */
export const TEST_CARDS = { success: "4242424242424242", declined: "4000000000000002" } as const;

/** A flash sale that is on, ending in `hours` (the server's FlashSaleOffer). */
export function createFlashSale(overrides: Partial<FlashSaleOffer> = {}, hours = 20): FlashSaleOffer {
  const active = overrides.active ?? true;
  return {
    productId: FLASH_SALE_PACKAGE_ID,
    priceCents: priceFor(FLASH_SALE_PACKAGE_ID, active),
    originalPriceCents: priceFor(FLASH_SALE_PACKAGE_ID, false),
    endsAt: new Date(Date.now() + (active ? hours : -hours) * 3_600_000).toISOString(),
    active,
    ...overrides,
  };
}

type InboxPage = ProcedureOutput<"inbox.received">;

/** One page of inbox.received's answer: `votes`, and the cursor of the next page if there is one. */
export function votesPage(votes: VoteCard[], nextCursor: string | null = null): InboxPage {
  return { votes, hasMore: nextCursor !== null, nextCursor };
}

export interface InboxAnswersOptions {
  /** The one page inbox.received answers (every time), unless `pages` says otherwise. */
  votes?: VoteCard[];
  /** inbox.received's answers in turn. */
  pages?: InboxPage[];
  /** inbox.unlock's answer; the first vote revealed, credits unchanged, by default. */
  unlock?: ProcedureOutput<"inbox.unlock">;
  me?: Partial<MeUser>;
  /** inbox.newVotes's count (0 by default). */
  newVotes?: number;
  config?: Partial<PublicConfig>;
  flashSale?: Partial<FlashSaleOffer>;
  overrides?: TrpcResolvers;
}

/**
 * Canned answers for the received-votes, unlock and payment procedures: the
 * votes, profile and flash sale a test states; an unlock answers `unlock`; a
 * payment intent is made for the product asked at its listed price and
 * every card is taken. A test needing a refusal (402 without credits, a
 * declined card, a 409) overrides the procedure with trpcError; the rules
 * behind them (credits spent, cards declined, packs fulfilled) are the
 * server's, tested in apps/server. `sent(path)` is what the UI sent.
 */
export function inboxAnswers(options: InboxAnswersOptions = {}) {
  const me = createMeUser(options.me);
  const votes = options.votes ?? [];
  const flashSale = createFlashSale(options.flashSale);
  const pages = inTurn(...(options.pages ?? [votesPage(votes)]));
  const recorded = recording({
    ...defaultTrpcResolvers,
    "config.public": () => ({ ...LOCAL_PAYMENTS_CONFIG, ...options.config }),
    "users.me": () => me,
    "inbox.received": pages,
    "inbox.newVotes": () => ({ count: options.newVotes ?? 0 }),
    "inbox.markOpened": () => ({ count: 0 }),
    "inbox.unlock": () =>
      options.unlock ?? {
        unlockedUser: revealedVoteCard(votes[0] ?? createLockedVoteCard()),
        remainingUnlocks: me.remainingUnlocks,
      },
    "payments.flashSale": () => flashSale,
    "payments.createPaymentIntent": ({ input }) => {
      const { productId } = input as { productId: string };
      const amountCents =
        productId === FLASH_SALE_PACKAGE_ID ? flashSale.priceCents : findProduct(productId)!.priceCents;
      return { clientSecret: "pi_test_1_secret_local", amountCents };
    },
    "payments.localConfirm": () => {
      const intent = recorded.sent("payments.createPaymentIntent").at(-1) as { productId: string };
      return { status: "succeeded", productId: intent.productId };
    },
    ...options.overrides,
  });

  return {
    me,
    flashSale,
    sent: recorded.sent,
    /** All procedures, inbox ones included; `overrides` replaces some. */
    handler: (overrides: TrpcResolvers = {}) => trpcHandler({ ...recorded.resolvers, ...overrides }),
    resolvers: recorded.resolvers,
  };
}

export type InboxAnswers = ReturnType<typeof inboxAnswers>;
