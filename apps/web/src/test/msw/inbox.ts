import {
  BOOST_OPTIONS,
  ERROR_MESSAGES,
  FLASH_SALE_PACKAGE_ID,
  LOCKED_CARD_PHOTO,
  findProduct,
  priceFor,
  type FlashSaleOffer,
  UNLOCK_PACKAGES,
  type MeUser,
  type PublicConfig,
  type VoteCard,
  type VoteCardLocked,
  type VoteCardUnlocked,
} from "@quad/contracts";
import { createMeUser } from "./fixtures";
import { defaultTrpcResolvers } from "./handlers";
import { trpcError, trpcHandler, type TrpcResolvers } from "./trpc";

/**
 * A stateful stand-in for the received-votes, unlock and payment procedures,
 * following the server's rules (docs/architecture.md "Received votes, unlocks,
 * payments, boosts"): locked cards carry no voter data, an unlock spends a
 * credit (402 without one), test cards 4242… pay and 4000…0002 is declined,
 * and a payment adds credits or extends the boost.
 */

let sequence = 0;
const cardId = () => `00000000-0000-4000-8000-${String(++sequence).padStart(12, "0")}`;

export function createLockedVoteCard(overrides: Partial<VoteCardLocked> = {}): VoteCardLocked {
  return {
    id: cardId(),
    isUnlocked: false,
    photo: LOCKED_CARD_PHOTO,
    prompt: "Most likely to start a company",
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
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
      createdAt: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
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

export const TEST_CARDS = { success: "4242424242424242", declined: "4000000000000002" } as const;

export interface InboxBackendOptions {
  votes?: VoteCard[];
  /** The voter behind each card, keyed by card id; a default voter otherwise. */
  voters?: Record<string, Partial<VoteCardUnlocked>>;
  me?: Partial<MeUser>;
  config?: Partial<PublicConfig>;
  flashSale?: Partial<FlashSaleOffer>;
}

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

export interface InboxCalls {
  forUser: { limit?: number; cursor?: string; page?: number }[];
  unlock: { userId: string }[];
  createIntent: { productId: string }[];
  confirm: { clientSecret: string; cardNumber: string }[];
  me: number;
}

export function createInboxBackend(options: InboxBackendOptions = {}) {
  const state = {
    votes: [...(options.votes ?? [])],
    me: createMeUser(options.me),
    intents: new Map<string, string>(),
    flashSale: createFlashSale(options.flashSale),
    calls: { forUser: [], unlock: [], createIntent: [], confirm: [], me: 0 } as InboxCalls,
  };

  const fulfil = (productId: string) => {
    const pack = UNLOCK_PACKAGES.find((p) => p.id === productId);
    if (pack) {
      state.me = { ...state.me, remainingUnlocks: state.me.remainingUnlocks + pack.unlocks };
      return;
    }
    const boost = BOOST_OPTIONS.find((b) => b.id === productId);
    if (boost) {
      const current = state.me.boostEndTime ? Date.parse(state.me.boostEndTime) : 0;
      const from = Math.max(Date.now(), current);
      state.me = { ...state.me, boostEndTime: new Date(from + boost.durationDays * 86_400_000).toISOString() };
    }
  };

  const resolvers: TrpcResolvers = {
    ...defaultTrpcResolvers,
    "config.public": () => ({ ...LOCAL_PAYMENTS_CONFIG, ...options.config }),
    "users.me": () => {
      state.calls.me++;
      return state.me;
    },
    "votes.forUser": ({ input }) => {
      const query = (input ?? {}) as InboxCalls["forUser"][number];
      state.calls.forUser.push(query);
      const limit = query.limit ?? 10;
      const start = query.cursor ? Number(query.cursor) : ((query.page ?? 1) - 1) * limit;
      const votes = state.votes.slice(start, start + limit);
      const hasMore = start + limit < state.votes.length;
      return { votes, hasMore, nextCursor: hasMore ? String(start + limit) : null };
    },
    "unlocks.unlockUser": ({ input }) => {
      const { userId } = input as { userId: string };
      state.calls.unlock.push({ userId });
      const index = state.votes.findIndex((card) => card.id === userId);
      const card = state.votes[index];
      if (!card) return trpcError("NOT_FOUND", "Vote not found");
      if (card.isUnlocked) return { unlockedUser: card, remainingUnlocks: state.me.remainingUnlocks };
      if (state.me.remainingUnlocks === 0) {
        return trpcError("PAYMENT_REQUIRED", "You have no unlock credits left. Buy unlocks to see who voted for you.");
      }
      const unlocked = revealedVoteCard(card, options.voters?.[card.id]);
      state.votes[index] = unlocked;
      state.me = { ...state.me, remainingUnlocks: state.me.remainingUnlocks - 1 };
      return { unlockedUser: unlocked, remainingUnlocks: state.me.remainingUnlocks };
    },
    "payments.flashSale": () => state.flashSale,
    "payments.createPaymentIntent": ({ input }) => {
      const { productId } = input as { productId: string };
      state.calls.createIntent.push({ productId });
      const clientSecret = `pi_test_${state.intents.size + 1}_secret_local`;
      state.intents.set(clientSecret, productId);
      const amountCents =
        productId === FLASH_SALE_PACKAGE_ID ? state.flashSale.priceCents : findProduct(productId)!.priceCents;
      return { clientSecret, amountCents };
    },
    "payments.localConfirm": ({ input }) => {
      const body = input as InboxCalls["confirm"][number];
      state.calls.confirm.push(body);
      const productId = state.intents.get(body.clientSecret);
      if (!productId) return trpcError("NOT_FOUND", "Payment not found");
      if (body.cardNumber === TEST_CARDS.declined) return trpcError("PAYMENT_REQUIRED", ERROR_MESSAGES.cardDeclined);
      if (body.cardNumber !== TEST_CARDS.success) return trpcError("BAD_REQUEST", "Your card number is invalid.");
      state.intents.delete(body.clientSecret);
      fulfil(productId);
      return { status: "succeeded", productId };
    },
  };

  return {
    state,
    resolvers,
    /** All procedures, inbox ones included; pass overrides to break one. */
    handler: (overrides: TrpcResolvers = {}) => trpcHandler({ ...resolvers, ...overrides }),
  };
}

export type InboxBackend = ReturnType<typeof createInboxBackend>;
