package search

import "strings"

// Query words in the other drafting languages. A query in
// German, French, Spanish, Italian, Dutch or Portuguese over listings
// written in English would find nothing, so a query word that is a
// directory term of those languages also brings its English words into the
// query as further words (the word itself stays: a listing written in that
// language matches it). The glossary covers the vocabulary of a software
// directory's categories (invoicing, accounting, time tracking, notes,
// scheduling, ...), not general language; its keys are words that are not
// also English words. A key of 5 or more letters also matches a word that
// starts with it (inflections: "facturation", "facturas"), and one of 6 or
// more a word that ends with it (compounds: "boekhoudsoftware" has no key,
// "boekhoud" starts it).
var glossary = map[string]string{
	// invoicing, accounting, expenses, finance, sales
	"rechnung": "invoicing", "factur": "invoicing", "fattur": "invoicing", "fatur": "invoicing",
	"buchhalt": "accounting bookkeeping", "comptab": "accounting bookkeeping", "contab": "accounting bookkeeping",
	"boekhoud": "accounting bookkeeping", "steuer": "taxes", "impots": "taxes", "impuesto": "taxes",
	"ausgaben": "expenses", "spesen": "expenses", "depense": "expenses", "gasto": "expenses", "spese": "expenses",
	"uitgave": "expenses", "onkosten": "expenses", "despesa": "expenses", "quittung": "receipts", "beleg": "receipts",
	"finanz": "finance", "finanzas": "finance", "finanza": "finance", "financien": "finance", "financas": "finance",
	"vertrieb": "sales", "verkauf": "sales", "vente": "sales", "ventas": "sales", "vendite": "sales",
	"verkoop": "sales", "vendas": "sales", "kunde": "customers", "clientes": "customers", "klanten": "customers",
	// time tracking, tasks, notes, calendars, meetings
	"zeiterfass": "time tracking", "arbeitszeit": "time tracking", "stundenzettel": "timesheet",
	"urenregistrat": "time tracking", "tijdregistrat": "time tracking", "zeit": "time", "temps": "time",
	"tiempo": "time", "tempo=": "time", "tijd": "time", "horas": "hours", "stunden": "hours", "heures": "hours",
	"aufgabe": "tasks", "tache": "tasks", "taches": "tasks", "tarea": "tasks", "compiti": "tasks",
	"tarefa": "tasks", "projekt": "project", "projet": "project", "proyecto": "project",
	"progetto": "project", "projeto": "project",
	"notiz": "notes", "notas": "notes", "appunt": "notes", "notitie": "notes", "aantekening": "notes", "anotac": "notes",
	"kalender": "calendar", "calendrier": "calendar", "calendario": "calendar", "termine=": "appointment scheduling", "terminplan": "appointment scheduling",
	"rendez": "appointment scheduling", "cita": "appointment scheduling", "appuntament": "appointment scheduling",
	"afspra": "appointment scheduling", "agendament": "appointment scheduling", "planung": "scheduling",
	"planification": "scheduling", "planificacion": "scheduling", "pianificazione": "scheduling",
	"transkri": "transcription", "trascri": "transcription", "transcricao": "transcription",
	"besprechung": "meetings", "reunion": "meetings", "reuniones": "meetings", "riunion": "meetings",
	"vergader": "meetings", "reunioes": "meetings",
	// writing, images, AI, video, design, icons
	"schreib": "writing", "ecriture": "writing", "escritura": "writing",
	"redaccion": "writing", "scrittur": "writing", "schrijf": "writing", "schrijv": "writing", "escrita": "writing",
	"bilder": "images", "imagen": "images", "imagenes": "images", "immagin": "images", "afbeelding": "images",
	"imagem": "images", "imagens": "images", "generier": "generator", "generateur": "generator",
	"generador": "generator", "generatore": "generator", "gerador": "generator",
	"ki": "ai", "ia": "ai", "kunstliche": "ai", "intelligenz": "ai",
	"videobearbeit": "video editing", "videoschnitt": "video editing", "montaggio": "video editing",
	"edicion": "editing", "edicao": "editing", "bewerk": "editing",
	"gestaltung": "design", "diseno": "design", "progettazione": "design", "ontwerp": "design",
	"icone": "icons", "icono": "icons", "iconos": "icons", "icona": "icons", "pictogram": "icons",
	// developers, data, monitoring, SEO, marketing, analytics
	"entwickler": "developers", "developpeur": "developers", "desarrollador": "developers",
	"sviluppator": "developers", "ontwikkelaar": "developers", "desenvolvedor": "developers",
	"datenbank": "database", "donnees": "database data", "datos": "database data", "dati": "database data",
	"databank": "database", "dados": "database data",
	"uberwach": "monitoring", "surveillance": "monitoring", "monitoraggio": "monitoring", "bewaking": "monitoring",
	"referencement": "seo", "posicionamiento": "seo", "posizionamento": "seo", "zoekmachine": "seo",
	"courriel": "email", "correo": "email", "correio": "email", "posta=": "email",
	"sociaux": "social media", "sociales": "social media", "sozialen": "social media", "sociais": "social media",
	"statistik": "analytics", "statistique": "analytics", "analitica": "analytics", "estadistica": "analytics",
	"statistich": "analytics", "statistiek": "analytics", "estatistica": "analytics", "besucher": "visitors",
	// support, chat, CRM
	"kundendienst": "support helpdesk", "kundensupport": "support helpdesk", "soporte": "support helpdesk",
	"assistenza": "support helpdesk", "klantenservice": "support helpdesk", "suporte": "support helpdesk",
	"atendimento": "support helpdesk", "kundenverwaltung": "crm", "kundenbeziehung": "crm",
	// education, languages, courses, school
	"bildung": "education", "educacion": "education", "istruzione": "education", "onderwijs": "education",
	"educacao": "education", "kurs": "courses", "kurse": "courses", "cours=": "courses", "curso=": "courses", "cursos=": "courses",
	"corso=": "courses", "corsi": "courses", "cursus": "courses", "sprach": "language learning",
	"fremdsprach": "language learning", "langue": "language learning", "langues": "language learning",
	"idioma": "language learning", "lingua=": "language learning", "lingue": "language learning",
	"taal": "language learning", "talen=": "language learning", "lernen": "learning", "apprend": "learning",
	"aprend": "learning", "imparare": "learning", "leren": "learning",
	"karteikart": "flashcards", "lernkart": "flashcards", "tarjetas": "flashcards", "flitskaart": "flashcards",
	"cartoes": "flashcards", "etudiant": "students study", "estudiante": "students study", "studenti": "students study",
	"studenten": "students study", "estudante": "students study", "schul": "school", "ecole": "school",
	"scolaire": "school", "escuela": "school", "escolar": "school", "scuola": "school", "scolastic": "school",
	"escola": "school", "produktiv": "productivity", "produttiv": "productivity", "productiviteit": "productivity",
}

// translations returns the English words the glossary gives for the folded
// query word w ("" when none). A key ending in "=" matches only the word
// itself: it starts English words ("tempo": "temporary", "talen": "talent").
func translations(w string) string {
	if e, ok := glossary[w]; ok {
		return e
	}
	if e, ok := glossary[w+"="]; ok {
		return e
	}
	for n := len(w) - 1; n >= 5; n-- { // the longest key that starts w
		if e, ok := glossary[w[:n]]; ok {
			return e
		}
	}
	for i := 1; len(w)-i >= 6; i++ { // the longest key that ends w
		if e, ok := glossary[w[i:]]; ok {
			return e
		}
	}
	return ""
}

// translate returns the query text with the English words of its foreign
// directory terms appended, each once and only when the query lacks it.
func (t *tokenizer) translate(text string) string {
	toks := t.tokens(text, true)
	var add []string
	for _, tk := range toks {
		words := []string{tk.text}
		if len(tk.parts) > 0 {
			words = append(words, tk.parts...)
		}
		for _, w := range words {
			for _, e := range strings.Fields(translations(w)) {
				if !containsWord(toks, e) && !contains(add, e) {
					add = append(add, e)
				}
			}
		}
	}
	if len(add) == 0 {
		return text
	}
	return text + " " + strings.Join(add, " ")
}

func containsWord(toks []token, w string) bool {
	for _, t := range toks {
		if t.text == w {
			return true
		}
	}
	return false
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
