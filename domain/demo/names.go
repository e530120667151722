package demo

// nameRegion is a pool of given names and family names that read naturally
// together; countries map to one (demoRegionOf).
type nameRegion struct {
	First, Last []string
}

var demoNameRegions = map[string]nameRegion{
	"en": {First: []string{"Emily", "James", "Olivia", "Liam", "Grace", "Ryan", "Chloe", "Nathan", "Hannah", "Owen", "Megan", "Tyler", "Abigail", "Caleb", "Zoe", "Evan", "Rachel", "Connor", "Lauren", "Dylan"},
		Last: []string{"Carter", "Hughes", "Bennett", "Morgan", "Foster", "Reed", "Hayes", "Parker", "Sullivan", "Price", "Coleman", "Ward", "Ellis", "Murphy", "Barnes", "Holt", "Fletcher", "Quinn", "Harper", "Doyle"}},
	"de": {First: []string{"Lukas", "Anna", "Felix", "Lea", "Jan", "Marie", "Tobias", "Sophie", "Moritz", "Laura", "Niklas", "Katharina", "Paul", "Julia", "Florian", "Johanna"},
		Last: []string{"Müller", "Schneider", "Wagner", "Hoffmann", "Schulz", "Koch", "Richter", "Wolf", "Neumann", "Braun", "Zimmermann", "Krüger", "Hartmann", "Lange", "Vogel", "Keller"}},
	"fr": {First: []string{"Camille", "Hugo", "Manon", "Louis", "Léa", "Théo", "Inès", "Julien", "Margaux", "Antoine", "Claire", "Mathis"},
		Last: []string{"Martin", "Bernard", "Moreau", "Laurent", "Girard", "Lefèvre", "Mercier", "Fontaine", "Rousseau", "Garnier", "Chevalier", "Lambert"}},
	"nl": {First: []string{"Daan", "Sanne", "Bram", "Fleur", "Jesse", "Lotte", "Ruben", "Iris", "Thijs", "Noor", "Sem", "Eva", "Mikkel", "Astrid", "Erik", "Ingrid", "Linnea", "Anders"},
		Last: []string{"de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "Mulder", "Bos", "Lindqvist", "Berg", "Holm", "Eriksen", "Virtanen", "Korhonen", "Dahl", "Strand"}},
	"es": {First: []string{"Lucas", "Valentina", "Mateo", "Martina", "Santiago", "Camila", "Pablo", "Elena", "Javier", "Paula", "Tomás", "Carmen", "Rafael", "Beatriz", "Gabriel", "Mariana"},
		Last: []string{"García", "Fernández", "López", "Martínez", "Sánchez", "Romero", "Navarro", "Torres", "Ruiz", "Castro", "Ortega", "Silva", "Pereira", "Almeida", "Rocha", "Ferreira"}},
	"it": {First: []string{"Giulia", "Marco", "Francesca", "Luca", "Chiara", "Matteo", "Sara", "Andrea", "Federica", "Davide"},
		Last: []string{"Rossi", "Bianchi", "Ricci", "Colombo", "Greco", "Conti", "Esposito", "Ferrari", "Gallo", "Mancini"}},
	"in": {First: []string{"Aarav", "Ananya", "Rohan", "Diya", "Vikram", "Kavya", "Aditya", "Meera", "Karthik", "Isha", "Arjun", "Sneha", "Nikhil", "Pooja"},
		Last: []string{"Sharma", "Iyer", "Reddy", "Patel", "Nair", "Gupta", "Menon", "Rao", "Kulkarni", "Joshi", "Desai", "Krishnan", "Bhat", "Verma"}},
	"jp": {First: []string{"Haruto", "Yui", "Ren", "Sakura", "Kenji", "Mio", "Sota", "Hina", "Daiki", "Aoi"},
		Last: []string{"Sato", "Suzuki", "Takahashi", "Watanabe", "Nakamura", "Kobayashi", "Yamamoto", "Ito", "Kato", "Mori"}},
	"sg": {First: []string{"Wei Ling", "Jun Jie", "Hui Min", "Zhi Hao", "Mei Xin", "Kai Wen", "Priya", "Arun", "Nur", "Hafiz"},
		Last: []string{"Tan", "Lim", "Ng", "Chen", "Wong", "Goh", "Teo", "Koh", "Chua", "Ong"}},
	"cee": {First: []string{"Jakub", "Zuzana", "Piotr", "Agnieszka", "Tomas", "Kristina", "Andrei", "Ioana", "Mart", "Kadri", "Lukas", "Rūta", "Martin", "Petra"},
		Last: []string{"Kowalski", "Nowakowska", "Dvořák", "Novák", "Popescu", "Ionescu", "Tamm", "Saar", "Kazlauskas", "Petrauskas", "Horváth", "Svoboda", "Wiśniewski", "Marin"}},
	"africa": {First: []string{"Chidi", "Ngozi", "Tunde", "Amaka", "Wanjiru", "Kamau", "Thandiwe", "Sipho", "Kwame", "Akosua", "Zainab", "Emeka"},
		Last: []string{"Adeyemi", "Okonkwo", "Balogun", "Eze", "Mwangi", "Otieno", "Ndlovu", "Dlamini", "Boateng", "Asante", "Okoro", "Nkosi"}},
}

// demoRegionOf maps a listing's country to the name pool of its people.
var demoRegionOf = map[string]string{
	"US": "en", "GB": "en", "CA": "en", "AU": "en", "NZ": "en", "IE": "en", "SG": "sg", "JP": "jp",
	"DE": "de", "AT": "de", "CH": "de", "FR": "fr", "NL": "nl", "SE": "nl", "DK": "nl", "FI": "nl",
	"ES": "es", "MX": "es", "AR": "es", "PT": "es", "BR": "es", "IT": "it", "IN": "in",
	"EE": "cee", "PL": "cee", "CZ": "cee", "RO": "cee", "LT": "cee", "NG": "africa", "KE": "africa", "ZA": "africa",
}

// demoRegions are the region keys in a fixed order (map order is random).
var demoRegions = []string{"en", "de", "fr", "nl", "es", "it", "in", "jp", "sg", "cee", "africa"}

// demoUserAgents are the browsers demo people vote from.
var demoUserAgents = []string{
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
}
