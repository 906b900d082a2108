/**
 * Every user-facing text of docs/product.md, written once. Validation
 * schemas, the server and the client import these; tests assert on them.
 */

export const VALIDATION = {
  loginPhone: "Invalid phone number",
  loginCode: "Please enter the verification code",
  firstName: "First name is required",
  firstNameLetter: "First name needs at least one letter",
  university: "Please select a university",
  graduationYear: "Graduation year is required",
  gender: "Please select your gender",
  instagramRequired: "Instagram handle is required",
  instagramTooLong: "Instagram handle cannot exceed 30 characters",
  instagramFormat: "Invalid Instagram handle format",
  signupPhoneMin: "Phone number must be at least 10 digits",
  signupPhoneExact: "Phone number must be exactly 10 digits",
  /** Ten digits, but not a US number that can get a text (another +1 country, an unassigned area code...). */
  usPhone: "Please enter a valid US phone number",
  acceptPrivacy: "You must accept the terms and conditions",
  /** The phone step's SMS box; it and acceptPrivacy are what a new account must agree to. */
  smsConsent: "SMS consent is required to sign up",
  profileImage: "Please upload a profile image",
  cropPreview: "Please preview your image first",
  verificationCodeFormat: "Enter the 6-digit code we sent you",
  /**
   * Control characters (NUL, escape...): nothing a person types, and Postgres stores no NUL in text.
   * Format characters too (zero-width spaces, direction overrides) where a field is one line.
   */
  controlCharacters: "Remove the hidden characters from this field",
  /** API clients: a check must carry the value its send-code answered. */
  codeRequestId: "codeRequestId is required: send the value /auth/send-code answered with this code.",
} as const;

export const TOASTS = {
  authFailed: "Authentication failed",
  noSuchUser: "No such user exists!",
  codeSent: "Verification code sent!",
  loggedIn: "Successfully logged in!",
  completeProfile: "Please complete your profile!",
  phoneVerified: "Phone number verified!",
  sendCodeFailed: "Failed to send verification code",
  invalidCode: "Invalid verification code",
  createAccountFailed: "Failed to create account",
  accountCreated: "Account created successfully!",
  processRequestFailed: "Failed to process request",
  uploadProfileImage: "Please upload a profile image",
  previewImageFirst: "Please preview your image first",
  enterCode: "Please enter the verification code",
  noToken: "No token found. Please log in.",
  loadVotesFailed: "Failed to load votes",
  paymentSuccessful: "Payment successful!",
  stripeNotLoaded: "Stripe is not loaded",
  paymentFailed: "Payment failed",
  unexpected: "An unexpected error occurred",
  fetchUserFailed: "Failed to fetch user information.",
  profileUnlocked: "Profile unlocked! 🎉",
  voteSent: "Vote sent 🤩",
  submitVoteFailed: "Failed to submit vote",
  unlockFailed: "Failed to unlock user",
  loadPromptFailed: "Failed to load prompt",
  fetchSchoolsFailed: "Failed to fetch schools. Please try again later.",
  fetchPromptFailed: "Failed to fetch prompt",
  createPaymentIntentFailed: "Failed to create payment intent",
} as const;

/** A second, plain sentence under a toast's words, saying what happened. */
export const TOAST_DETAILS = {
  /** Under TOASTS.noToken when a session was stored but could not be used. */
  sessionSpoiled: "The sign-in saved in this browser couldn't be used, so you've been signed out.",
} as const;

export const INLINE = {
  fetchUniversitiesFailed: "Failed to fetch universities.",
  loadPaymentDetailsFailed: "Failed to load payment details. Please try again.",
} as const;

export const SCREEN_TEXT = {
  whoDoYouWantToSee: "Who do you want to see?",
  joinToStartVoting: "Join to start voting",
  seeWhoVotedForYou: "See who voted for you",
  noStudents: "No students found, check back later.",
  outOfVotesTitle: "Out of Votes",
  outOfVotesBody: "Come back in one hour for more votes!",
  outOfSkipsTitle: "Out of Skips",
  outOfSkipsBody: "Submit a vote to get more skips!",
  /** Under Skip when no skips are left: the way out, instead of a button that leads nowhere. */
  skipHint: "Vote to get more skips",
  votedOnYou: "Voted on you",
  loadingVotes: "Loading votes...",
  noVotesTitle: "No votes found",
  noVotesBody: "It seems like there are no votes available. Check back later!",
  votedOnYouFor: "Voted on you for:",
  unlockDetails: "Unlock Details",
  useUnlockCredit: "Use Unlock Credit?",
  boostTagline: "Get seen by 5x more people",
  anonymityNote: "Your vote stays anonymous unless the person you vote for uses an unlock.",
  /** Shown while the browser is offline (the installed app opens from its cache). */
  offline: "You're offline. Quad will catch up as soon as you're back online.",
} as const;

/** The SMS consent text of docs/product.md, shown beside the phone step's checkbox. */
export const SMS_CONSENT_TEXT =
  "I agree to receive text messages from Quad, including verification codes and notifications when I get votes. Message frequency varies. Message and data rates may apply. Reply STOP to opt out and HELP for help.";

/** The terms checkbox states the age requirement as part of its text. */
export const TERMS_CONSENT_TEXT = "I am 18 or older and I agree to the Terms and Conditions and the Privacy Policy.";

/** Why a sign-in code was not sent or not accepted; the server answers these, clients show them. */
export const SIGN_IN_MESSAGES = {
  tooSoon: (seconds: number) => `Please wait ${seconds} seconds before requesting another code.`,
  tooManyForPhone: "Too many codes were requested for this number. Please try again later.",
  tooManyFromIp: "Too many codes were requested from your network. Please try again later.",
  invalid: TOASTS.invalidCode,
  expired: "This code has expired. Please request a new one.",
  tooManyAttempts: "Too many wrong attempts. Please request a new code.",
  /** The check named no code this phone was sent, or one requested elsewhere. */
  unknownRequest: "This code was not requested here. Please request a new code.",
  /** A requester's wrong codes: the next check must wait. */
  slowDown: (seconds: number) =>
    `Too many wrong codes. Please wait ${seconds === 1 ? "1 second" : `${seconds} seconds`} before trying again.`,
  /** Past the phone's daily wrong codes, a requester that entered a wrong one gets no more codes today. */
  tooManyWrongFromHere: "Too many wrong codes were entered for this number from your network. Please try again later.",
  /** The app-wide hourly SMS budget is spent. */
  smsBudgetSpent: "We can't send more sign-in codes right now. Please try again later.",
} as const;

/** Server error messages of docs/architecture.md that clients may show as they are. */
export const ERROR_MESSAGES = {
  unexpected: "An unexpected error occurred",
  noSuchUser: "No such user exists!",
  unauthorized: "Please log in to continue.",
  notFound: "Not found",
  invalidInput: "Invalid input",
  /** A JSON input nested deeper than any procedure's input (MAX_INPUT_DEPTH). */
  tooDeep: "That request is nested too deeply.",
  tooLarge: "That file is too large.",
  /** A multipart body that ends early, has no boundary or does not parse. */
  malformedUpload: "The upload was incomplete or malformed. Please try again.",
  cardDeclined: "Your card was declined.",
  tooManyRequests: "Too many requests. Please wait a moment and try again.",
  unavailable: "We can't reach our database right now. Please try again in a moment.",
  /** A write failed for want of space (a full disk under the database or the photos). */
  storageFull: "We can't save anything right now: our storage is full. Please try again later.",
  /** Readiness while a process shuts down, or before its database is migrated: load balancers read these. */
  shuttingDown: "This server is shutting down.",
  migrationsPending: "The database is missing migrations.",
  requestTimeout: "The request took too long to arrive. Please try again.",
  heldForReview: "Your profile is paused while our team reviews reports about it.",
  alreadyReported: "You already reported this student. Our team will review it.",
  reportNeedsVerifiedProfile: "Finish your profile with a photo before reporting someone.",
  reportOtherSchool: "You can only report students at your school.",
  reportWhileHeld: "You can't send reports while your own profile is under review.",
  deleteWhileHeld:
    "Your profile is being reviewed by our team after reports about it. You can delete your account once the review is done.",
  tooManyReports: "You've sent a lot of reports today. Our team is on them; you can report again tomorrow.",
} as const;
