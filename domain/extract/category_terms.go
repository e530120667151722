package extract

import (
	"regexp"
	"strings"
	"sync"
)

// categoryTermsCore are the words of the other six languages (German, French,
// Spanish, Italian, Dutch, Portuguese) and more English phrasings that show a
// product belongs to a category, by slug; they add to categoryTerms. Same
// notation: lower case, a trailing "*" matches any ending.
var categoryTermsCore = map[string][]string{
	"ai-tools": {"künstliche intelligenz", "ki-gestützt*", "intelligence artificielle", "inteligencia artificial",
		"intelligenza artificiale", "kunstmatige intelligentie", "inteligência artificial"},
	"productivity":    {"produktivität", "productivité", "productividad", "produttività", "productiviteit", "produtividade"},
	"developer-tools": {"entwickler", "développeurs", "desarrolladores", "sviluppatori", "ontwikkelaars", "desenvolvedores"},
	"finance":         {"finanzen", "finances", "finanzas", "finanza", "financiën", "finanças"},
	"sales-support": {"kundenservice", "kundensupport", "service client", "atención al cliente", "assistenza clienti",
		"klantenservice", "atendimento ao cliente"},
	"education": {"bildung", "éducation", "enseignement", "educación", "istruzione", "formazione", "onderwijs", "educação", "ensino"},
	"writing-assistants": {"schreibassistent*", "assistant d'écriture", "asistente de escritura", "assistente di scrittura",
		"schrijfassistent*", "assistente de escrita"},
	"image-generation": {"bildgenerator*", "bilder generieren", "génération d'images", "générer des images", "generación de imágenes",
		"generar imágenes", "generazione di immagini", "generare immagini", "afbeeldingen genereren", "geração de imagens", "gerar imagens"},
	"ai-agents": {"ai support agent", "ai customer service agent", "ki-agent*", "agent ia", "agents ia", "agent d'ia", "agent ai",
		"agente de ia", "agentes de ia", "agente ia", "agente ai", "agenti ai", "agenti ia", "ai-agent*", "agente de ia"},
	"transcription": {"transcripción", "transcripciones", "transcrição", "transcrições", "transcrire", "transcrit*", "transkription*", "transkribier*", "trascrizion*", "trascriv*", "transcriptie*", "besprechungsnotizen", "meetingnotizen", "besprechungsprotokoll*",
		"compte rendu de réunion", "comptes rendus de réunion", "actas de reuniones", "verbali delle riunioni", "notulen", "ata de reunião", "atas de reunião"},
	"note-taking": {"notizen", "notiz-app", "prise de notes", "toma de notas", "prendere appunti", "appunti", "notities",
		"aantekeningen", "anotações", "bloco de notas"},
	"task-management": {"aufgabenverwaltung", "aufgabenplanung", "aufgaben", "projektmanagement", "gestion de projet*", "gestion des tâches",
		"tâches", "gestión de proyectos", "gestión de tareas", "tareas", "gestione progetti", "gestione dei progetti", "gestione delle attività",
		"takenlijst*", "takenbeheer", "projectmanagement", "projectbeheer", "gestão de projetos", "gestão de tarefas", "tarefas"},
	"calendar-scheduling": {"online scheduling", "appointment booking", "terminbuchung*", "terminplan*", "terminvereinbarung*",
		"online-termin*", "termine buchen", "kalender", "dienstplan*", "schichtplan*", "prise de rendez-vous", "rendez-vous",
		"calendrier", "reserva de citas", "citas", "cita previa", "calendario", "agendar citas", "appuntamenti",
		"prenotazione appuntamenti", "prenotazioni online", "afspraak", "afspraken", "online agenda", "je agenda", "roosters",
		"roosterplanning", "agendamento*", "agendar", "calendário", "agenda online", "votre agenda", "tu agenda", "sua agenda", "la tua agenda"},
	"time-tracking": {"suivi du temps", "suivi des heures", "feuille de temps", "feuilles de temps", "pointage", "control horario",
		"registro de jornada", "control de tiempo", "registro horario", "rilevazione presenze", "tracciamento del tempo",
		"timesheet", "urenregistratie", "tijdregistratie", "urenregistratie", "controle de ponto", "registro de ponto", "controle de horas"},
	"databases": {"datenbank*", "base de données", "bases de données", "base de datos", "bases de datos", "banco de dados", "bancos de dados"},
	"devops-monitoring": {"überwachung", "supervision", "monitorización", "monitoraggio", "monitoramento", "uptime monitoring",
		"downtime", "status page", "statuspagina", "statusseite", "page de statut"},
	"testing-qa": {"testautomatisierung", "tests automatisés", "pruebas automatizadas", "test automatizzati", "geautomatiseerde tests", "testes automatizados"},
	"seo-tools": {"suchmaschinenoptimierung", "référencement", "posicionamiento web", "posizionamento", "zoekmachineoptimalisatie",
		"otimização para mecanismos de busca"},
	"email-marketing": {"e-mail-marketing", "email-marketing", "emailing", "e-mailmarketing", "e-mail marketing", "marketing por email",
		"marketing por e-mail", "marketing via e-mail", "newsletter-tool", "newsletter software", "campagnes e-mail", "campañas de email",
		"nieuwsbrieven versturen", "e-mailcampagnes"},
	"social-media-management": {"réseaux sociaux", "redes sociales", "redes sociais", "sociale media", "beiträge planen", "publications planifiées"},
	"web-analytics": {"webanalyse", "webanalytics", "analyse d'audience", "statistiques de visite", "analítica web", "analisi web",
		"análise de sites", "besucherstatistik*", "website-statistik*", "site analytics"},
	"ui-design": {"prototypen", "maquettes", "prototipos", "prototipi", "protótipos", "wireframes", "benutzeroberfläche*", "interfaces utilisateur"},
	"video-editing": {"videobearbeitung", "videoschnitt", "montage vidéo", "édition vidéo", "edición de vídeo", "edición de video",
		"editor de vídeo", "editor de video", "montaggio video", "video bewerken", "videobewerking", "edição de vídeo", "editor de vídeo"},
	"design-assets": {"icônes", "iconos", "icone", "iconen", "ícones", "illustrationen", "icons"},
	"invoicing": {"rechnung*", "angebote und rechnungen", "factur*", "devis", "fattur*", "factuur", "facturen", "factureren", "fatura*",
		"nota fiscal", "notas fiscais", "invoice*"},
	"accounting": {"buchhaltung*", "buchführung", "comptabilité", "comptable", "contabilidad", "contable", "contabilità", "contabile",
		"boekhoud*", "boekhouding", "contabilidade", "contábil", "bookkeeper*", "accountant*"},
	"expense-tracking": {"expense*", "spesen*", "reisekosten*", "notes de frais", "note de frais",
		"rendición de gastos", "control de gastos", "gestión de gastos", "note spese", "nota spese", "rimborsi spese", "gestione spese",
		"onkosten*", "uitgaven bijhouden", "declaraties", "declaratie*", "controle de despesas", "gestão de despesas", "reembolso de despesas",
		"gestion des dépenses", "suivi des dépenses", "ausgabenverwaltung", "ausgaben erfassen"},
	"crm": {"kundenverwaltung", "gestion de la relation client", "gestion des contacts", "gestión de clientes", "gestione clienti",
		"gestione dei contatti", "klantbeheer", "relatiebeheer", "gestão de clientes", "relacionamento com o cliente", "vertriebspipeline"},
	"help-desk": {"ticketsystem", "support-tickets", "supportticket*", "ticketing", "assistance client", "soporte al cliente", "klantvragen", "chamados"},
	"live-chat": {"live-chat", "livechat", "chat en direct", "chat en vivo", "chat en línea", "chat dal vivo", "chat in tempo reale",
		"chat ao vivo", "chat online", "chat-widget", "widget de chat", "widget di chat", "website chat", "site chat"},
	"online-courses": {"online-kurs*", "onlinekurs*", "kurse verkaufen", "cours en ligne", "formation en ligne", "formations en ligne",
		"vendre des formations", "cursos online", "cursos en línea", "curso online", "vender cursos", "corsi online", "corso online",
		"vendere corsi", "online cursus*", "cursussen verkopen", "e-learning", "curso on-line", "cursos on-line"},
	"language-learning": {"sprachen lernen", "sprache lernen", "apprendre une langue", "apprendre les langues", "aprender idiomas",
		"aprender un idioma", "imparare le lingue", "imparare una lingua", "talen leren", "taal leren", "aprender línguas", "aprender idiomas",
		"vokabeln", "vocabulaire", "vocabulario", "vocaboli", "woordjes", "vocabulário"},
	"flashcards": {"karteikarten", "lernkarten", "fiches de révision", "tarjetas de estudio", "fichas de estudio", "schede di studio",
		"flashcards", "cartões de estudo", "spaced repetition", "wiederholung in abständen", "répétition espacée", "repetición espaciada",
		"ripetizione dilazionata", "herhaling", "repetição espaçada"},
	"school-administration": {"schulverwaltung", "gestion scolaire", "vie scolaire", "gestión escolar", "gestione scolastica",
		"schooladministratie", "leerlingadministratie", "gestão escolar", "stundenplan*", "emploi du temps", "horarios escolares"},
}

// categoryNot are phrases whose words would map to a wrong category: they
// are blanked out before that category's terms are matched ("notes de frais"
// are expense reports, not note-taking).
var categoryNot = map[string][]string{
	"note-taking":         {"notes de frais", "note de frais", "note spese", "nota spese", "notas fiscais", "nota fiscal"},
	"calendar-scheduling": {"meeting notes"},
	"help-desk":           {"ticket price", "tickets for", "ticket de caisse", "tickets de caisse", "tickets restaurant", "ticket restaurant", "ticket medio", "ticket médio"},
}

// termsRe compiles terms into one pattern whose boundaries are letters and
// digits of any script (Go's \b knows only ASCII, so "contabilità" or
// "preços" would not end a word). The term is the first group.
func termsRe(terms []string) *regexp.Regexp {
	var alts []string
	for _, t := range terms {
		if strings.HasSuffix(t, "*") {
			alts = append(alts, regexp.QuoteMeta(strings.TrimSuffix(t, "*"))+`[\p{L}\p{N}]*`)
		} else {
			alts = append(alts, regexp.QuoteMeta(t)+`(?:s|es)?`)
		}
	}
	// Han, Kana and Hangul letters do not end words: "クラウド勤怠管理サービス"
	// holds "勤怠", "회의록을" holds "회의록"; nor do Thai letters (Thai puts no
	// spaces between words) or Hebrew ones (a preposition is joined to its
	// word: "לניהול פניות" holds "ניהול פניות").
	const cjk = `\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\p{Thai}\p{Hebrew}`
	return regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}]|[` + cjk + `])(` + strings.Join(alts, "|") + `)(?:$|[^\p{L}\p{N}]|[` + cjk + `])`)
}

// notRe is the pattern of a category's blanked phrases, nil when it has none.
func notRe(slug string) *regexp.Regexp {
	if len(categoryNot[slug]) == 0 {
		return nil
	}
	var alts []string
	for _, t := range categoryNot[slug] {
		alts = append(alts, regexp.QuoteMeta(t))
	}
	return regexp.MustCompile(`(?i)` + strings.Join(alts, "|"))
}

// termMatches returns the terms of re in s (with the blanked phrases of not
// left out) and the byte offset of the first.
func termMatches(re, not *regexp.Regexp, s string) ([]string, int) {
	if not != nil {
		s = not.ReplaceAllStringFunc(s, func(m string) string { return strings.Repeat(" ", len(m)) })
	}
	var out []string
	first := -1
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		if first < 0 {
			first = m[2]
		}
		out = append(out, s[m[2]:m[3]])
	}
	return out, first
}

// categoryPatternCache caches the compiled patterns of a category (by slug and name):
// compiling them for every draft cost more than the whole draft.
var categoryPatternCache sync.Map

type categoryPats struct {
	re, not *regexp.Regexp
	stems   []string // the terms without "*", lower case: a text holding none is skipped without the pattern
}

// may reports whether lower (a text in lower case) holds one of the stems.
func (pt categoryPats) may(lower string) bool {
	for _, st := range pt.stems {
		if strings.Contains(lower, st) {
			return true
		}
	}
	return false
}

// categoryPatterns returns the term and blank patterns of a category, nil when it has no terms.
func categoryPatterns(slug, name string) categoryPats {
	key := slug + "\x00" + name
	if v, ok := categoryPatternCache.Load(key); ok {
		return v.(categoryPats)
	}
	terms := categoryTerms[slug]
	if terms == nil {
		terms = nameTerms(name)
	}
	terms = append(append(append([]string{}, terms...), categoryTermsCore[slug]...), categoryTermsMore[slug]...)
	terms = append(terms, categoryTermsWorld[slug]...)
	var pt categoryPats
	if len(terms) > 0 {
		pt = categoryPats{re: termsRe(terms), not: notRe(slug)}
		for _, t := range terms {
			pt.stems = append(pt.stems, strings.ToLower(strings.TrimSuffix(t, "*")))
		}
	}
	categoryPatternCache.Store(key, pt)
	return pt
}
