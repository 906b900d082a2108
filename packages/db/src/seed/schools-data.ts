export interface SchoolSeed {
  name: string;
  shortName: string;
  /** Letters drawn on the generated icon. */
  monogram: string;
  /** The main e-mail domain (the example address); subdomains count too. */
  domain: string;
  /** Further real domains whose addresses prove membership. */
  otherDomains?: readonly string[];
  city: string;
  state: string;
  timeZone: string;
}

/** Real US universities (facts only: name, domain, location, zone). Icons are generated monograms. */
export const SCHOOLS: readonly SchoolSeed[] = [
  { name: "Stanford University", shortName: "Stanford", monogram: "S", domain: "stanford.edu", city: "Stanford", state: "CA", timeZone: "America/Los_Angeles" },
  { name: "University of California, Berkeley", shortName: "UC Berkeley", monogram: "UCB", domain: "berkeley.edu", city: "Berkeley", state: "CA", timeZone: "America/Los_Angeles" },
  { name: "University of California, Los Angeles", shortName: "UCLA", monogram: "UCLA", domain: "ucla.edu", city: "Los Angeles", state: "CA", timeZone: "America/Los_Angeles" },
  { name: "University of Southern California", shortName: "USC", monogram: "USC", domain: "usc.edu", city: "Los Angeles", state: "CA", timeZone: "America/Los_Angeles" },
  { name: "University of Washington", shortName: "UW", monogram: "UW", domain: "uw.edu", otherDomains: ["washington.edu"], city: "Seattle", state: "WA", timeZone: "America/Los_Angeles" },
  { name: "Arizona State University", shortName: "ASU", monogram: "ASU", domain: "asu.edu", city: "Tempe", state: "AZ", timeZone: "America/Phoenix" },
  { name: "University of Colorado Boulder", shortName: "CU Boulder", monogram: "CU", domain: "colorado.edu", city: "Boulder", state: "CO", timeZone: "America/Denver" },
  { name: "University of Utah", shortName: "Utah", monogram: "U", domain: "utah.edu", city: "Salt Lake City", state: "UT", timeZone: "America/Denver" },
  { name: "University of Texas at Austin", shortName: "UT Austin", monogram: "UT", domain: "utexas.edu", city: "Austin", state: "TX", timeZone: "America/Chicago" },
  { name: "Rice University", shortName: "Rice", monogram: "R", domain: "rice.edu", city: "Houston", state: "TX", timeZone: "America/Chicago" },
  { name: "Northwestern University", shortName: "Northwestern", monogram: "NU", domain: "northwestern.edu", city: "Evanston", state: "IL", timeZone: "America/Chicago" },
  { name: "University of Chicago", shortName: "UChicago", monogram: "UC", domain: "uchicago.edu", city: "Chicago", state: "IL", timeZone: "America/Chicago" },
  { name: "University of Wisconsin–Madison", shortName: "UW–Madison", monogram: "UW", domain: "wisc.edu", city: "Madison", state: "WI", timeZone: "America/Chicago" },
  { name: "Vanderbilt University", shortName: "Vanderbilt", monogram: "V", domain: "vanderbilt.edu", city: "Nashville", state: "TN", timeZone: "America/Chicago" },
  { name: "University of Michigan", shortName: "Michigan", monogram: "UM", domain: "umich.edu", city: "Ann Arbor", state: "MI", timeZone: "America/Detroit" },
  { name: "Purdue University", shortName: "Purdue", monogram: "P", domain: "purdue.edu", city: "West Lafayette", state: "IN", timeZone: "America/Indiana/Indianapolis" },
  { name: "The Ohio State University", shortName: "Ohio State", monogram: "OSU", domain: "osu.edu", city: "Columbus", state: "OH", timeZone: "America/New_York" },
  { name: "University of Florida", shortName: "UF", monogram: "UF", domain: "ufl.edu", city: "Gainesville", state: "FL", timeZone: "America/New_York" },
  { name: "Georgia Institute of Technology", shortName: "Georgia Tech", monogram: "GT", domain: "gatech.edu", city: "Atlanta", state: "GA", timeZone: "America/New_York" },
  { name: "Duke University", shortName: "Duke", monogram: "D", domain: "duke.edu", city: "Durham", state: "NC", timeZone: "America/New_York" },
  { name: "University of North Carolina at Chapel Hill", shortName: "UNC", monogram: "UNC", domain: "unc.edu", city: "Chapel Hill", state: "NC", timeZone: "America/New_York" },
  { name: "University of Virginia", shortName: "UVA", monogram: "UVA", domain: "virginia.edu", city: "Charlottesville", state: "VA", timeZone: "America/New_York" },
  { name: "New York University", shortName: "NYU", monogram: "NYU", domain: "nyu.edu", city: "New York", state: "NY", timeZone: "America/New_York" },
  { name: "Boston University", shortName: "BU", monogram: "BU", domain: "bu.edu", city: "Boston", state: "MA", timeZone: "America/New_York" },
  { name: "University of Hawaiʻi at Mānoa", shortName: "UH Mānoa", monogram: "UH", domain: "hawaii.edu", city: "Honolulu", state: "HI", timeZone: "Pacific/Honolulu" },
];
