/** Word lists for deterministic demo students (first names only; no real people). */
export const FEMALE_NAMES = [
  "Ava", "Maya", "Sofia", "Olivia", "Emma", "Isabella", "Chloe", "Zoe", "Lily", "Grace",
  "Hannah", "Nora", "Leah", "Priya", "Aaliyah", "Camila", "Elena", "Naomi", "Ruby", "Stella",
  "Hazel", "Ivy", "Jasmine", "Mia", "Aria", "Layla", "Valentina", "Amara", "Freya", "Harper",
  "Keira", "Lucia", "Mei", "Nadia", "Paige", "Quinn", "Rosa", "Sienna", "Talia", "Yara",
] as const;

export const MALE_NAMES = [
  "Liam", "Noah", "Ethan", "Lucas", "Mason", "Caleb", "Owen", "Julian", "Leo", "Mateo",
  "Elijah", "Aiden", "Daniel", "Gabriel", "Henry", "Isaac", "Jack", "Kai", "Levi", "Marcus",
  "Nathan", "Omar", "Pranav", "Ryan", "Samuel", "Theo", "Victor", "Wyatt", "Xavier", "Zane",
  "Adrian", "Benjamin", "Carlos", "Diego", "Felix", "Hugo", "Jonah", "Kenji", "Miles", "Rafael",
] as const;

export const ORGANIZATIONS = [
  "Debate Society", "Robotics Club", "Student Government", "Film Society", "Chess Club",
  "Environmental Action", "Hackers Guild", "A Cappella", "Outdoors Club", "Model UN",
  "Dance Team", "Entrepreneurship Club", "Volunteer Corps", "Photography Club", "Jazz Band",
  "Campus Radio", "Student Newspaper", "Coding Bootcamp", "Pre-Med Society", "Investment Club",
  "Improv Troupe", "Climbing Team", "Intramural Soccer", "Sailing Club", "Ultimate Frisbee",
  "Cultural Association", "Tutoring Program", "Theater Company", "Astronomy Club", "Esports Team",
] as const;

export const INTERESTS = [
  "Hiking", "Photography", "Cooking", "Jazz", "Basketball", "Climbing", "Poetry", "Startups",
  "Film", "Chess", "Running", "Painting", "Gaming", "Coffee", "Baking", "Travel", "Yoga",
  "Podcasts", "Robotics", "Astronomy", "Gardening", "Surfing", "Skiing", "Reading", "Tennis",
  "Thrifting", "Board games", "Music production", "Volunteering", "Languages", "Cycling",
  "Anime", "History", "Design", "Camping", "Pottery", "Soccer", "Swimming", "Journaling", "AI",
] as const;

export const EMOJIS = [
  "🎧", "📚", "🏀", "🎨", "🌮", "☕", "🚀", "🎸", "🏔️", "🌊", "🎮", "📷", "🧗", "🍕", "🌱",
  "⚽", "🎭", "🧠", "🐶", "🌻", "🎹", "🏃", "🍜", "✈️", "🎬", "🧩", "🏄", "🎤", "🐱", "🌙",
] as const;
