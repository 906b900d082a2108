export { SchoolEmailSection } from "./school-email-section";
export { VerifySchoolEmailScreen } from "./verify-school-email-screen";
