import type { WizardStep } from "./wizard-steps";

/** Each step's heading and the line under it. */
export const STEP_COPY: Record<WizardStep, { title: string; subtitle: string }> = {
  personal: { title: "Create your account", subtitle: "First things first: what should classmates call you?" },
  university: { title: "Where do you study?", subtitle: "Your rounds are with students from your school." },
  graduation: { title: "When do you graduate?", subtitle: "Pick your class year." },
  gender: { title: "Guy or girl?", subtitle: "Each round puts two guys or two girls side by side." },
  instagram: { title: "What's your Instagram?", subtitle: "Add your handle so the right people can find you." },
  phone: { title: "Verify your phone", subtitle: "We'll text you a 6-digit code. No passwords, ever." },
  profileImage: { title: "Add your photo", subtitle: "Pick a clear photo of your face. This is what classmates see." },
};
