package demo

// founderSeed is a founder of the demo data and the listings they are on.
type founderSeed struct {
	Name, Title, Country, City string
	Background                 string // a sentence on what they did before
	Personal                   string // a sentence about them outside work
	Listings                   []string
	GitHub                     bool
}

// founderSeeds are the twenty founders; their listings are always live.
var founderSeeds = []founderSeed{
	{"Elena Varga", "Co-founder and CEO", "HU", "Budapest", "Before Notewise she spent eight years as a research librarian, helping scientists organise their reading.", "She keeps a paper notebook anyway, and says that is research too.", []string{"Notewise"}, false},
	{"Jonas Becker", "Co-founder and CTO", "DE", "Berlin", "He built sync engines for offline-first mobile apps at two startups before Notewise.", "On weekends he restores old bicycles.", []string{"Notewise"}, true},
	{"Aiko Tanaka", "Founder", "JP", "Tokyo", "She was a product designer at a large consumer electronics company and started Jotstack as a side project.", "She writes haiku in her own app every morning.", []string{"Jotstack"}, false},
	{"Samuel Okafor", "Founder and engineer", "NG", "Lagos", "He worked as a backend engineer for a payments company and wanted a notes app that respects privacy by default.", "He mentors students at a local coding club.", []string{"Quillbase"}, true},
	{"Lucía Romero", "CEO", "ES", "Barcelona", "She ran a content agency for ten years and saw writers lose hours to first drafts.", "She is learning to sail on the Mediterranean.", []string{"Proselane"}, false},
	{"Noah Fischer", "Founder", "CH", "Zurich", "He led an operations team at a logistics company, where most of the work was copying data between systems.", "He climbs in the Alps every summer.", []string{"Taskpilot"}, true},
	{"Priya Raman", "Founder and CTO", "IN", "Bangalore", "She was a platform engineer at an API-first bank and maintained its public developer portal.", "She runs a meetup on API design.", []string{"Endpointly", "Routegate"}, true},
	{"Mateus Costa", "Founder", "BR", "São Paulo", "He grew an e-commerce store from zero to a million visits a month through search alone.", "He plays bass in a samba band.", []string{"Rankwell"}, false},
	{"Hannah Walsh", "CEO", "IE", "Dublin", "She was a journalist for twelve years and transcribed thousands of hours of interviews by hand.", "She swims in the Irish Sea all year round.", []string{"Minutely"}, false},
	{"Oskar Nilsson", "Founder", "SE", "Stockholm", "He was on call for a streaming service for six years and knows every way alerts can fail.", "He builds wooden furniture in a shared workshop.", []string{"Uptimely", "Statusboard"}, true},
	{"Chloé Dubois", "Co-founder and designer", "FR", "Paris", "She designed interfaces for banks and led a design system team of nine.", "She sketches in cafés and posts the drawings online.", []string{"Framecraft"}, false},
	{"Daniel Kim", "Co-founder and CEO", "US", "Seattle", "He sold software to dentists for five years and kept his pipeline in a spreadsheet.", "He coaches his daughter's football team.", []string{"Pipewell"}, false},
	{"Amara Mensah", "Founder", "GH", "Accra", "She freelanced as an accountant for small businesses and chased late invoices every week.", "She hosts a podcast about African small businesses.", []string{"Billsmith"}, false},
	{"Lars Jensen", "Founder and CEO", "DK", "Copenhagen", "He was an auditor at a large firm and wanted small companies to close their books in a day.", "He cycles to work through every winter.", []string{"Bookwise"}, false},
	{"Sofia Marchetti", "Co-founder", "IT", "Milan", "She taught Italian to adults for a decade and built lessons from real conversations.", "She speaks five languages and is learning a sixth.", []string{"Lingowise"}, false},
	{"Ethan Brooks", "Co-founder and CTO", "US", "Austin", "He built email infrastructure at a marketing company that sent a billion messages a month.", "He smokes brisket competitively, badly.", []string{"Sendwell", "Pipewell"}, true},
	{"Zeynep Arslan", "Founder", "TR", "Istanbul", "She edited documentaries for television before building her own editor.", "She collects old film cameras.", []string{"Cutline"}, false},
	{"Mei Lin", "Founder", "SG", "Singapore", "She studied medicine and made thousands of flashcards before switching to software.", "She still volunteers at a free clinic on Saturdays.", []string{"Cardwise"}, true},
	{"Tomasz Nowak", "Co-founder and CEO", "PL", "Warsaw", "He was a database administrator for an online retailer through three Black Fridays.", "He runs marathons, slowly.", []string{"Tablewright"}, true},
	{"Ana Petrović", "Co-founder and CTO", "RS", "Belgrade", "She worked on the query planner of an open-source database.", "She teaches chess to children on Sundays.", []string{"Tablewright", "Ticketwell"}, true},
}
