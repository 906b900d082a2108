/** "Class of 2027": how a candidate's graduation year reads on a card. */
export function classOf(graduationYear: number): string {
  return `Class of ${graduationYear}`;
}

/** "'27": the compact form for tight spots. */
export function shortClassYear(graduationYear: number): string {
  return `'${String(graduationYear % 100).padStart(2, "0")}`;
}
