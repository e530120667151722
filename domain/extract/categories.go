package extract

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// categoryTerms are the words that show a product belongs to a category, by
// slug of the directory's categories. A category of the list with no entry
// here is matched by its own name. Terms are lower case; a trailing "*" matches
// any ending, otherwise plurals match too.
var categoryTerms = map[string][]string{
	"ai-tools":                {"artificial intelligence", "machine learning", "ai-powered", "ai powered"},
	"productivity":            {"productivity"},
	"developer-tools":         {"developer tool", "developers", "sdk", "cli"},
	"marketing":               {"marketing"},
	"design":                  {"design tool", "designers"},
	"finance":                 {"finance", "financial"},
	"sales-support":           {"customer support", "sales team"},
	"education":               {"education", "students", "learning"},
	"writing-assistants":      {"writing assistant", "ai writing", "copywriting", "ai writer", "rewrite*", "drafts blog posts"},
	"image-generation":        {"image generat*", "ai image", "product photo", "ai photo", "text-to-image", "generates images", "ai art"},
	"ai-agents":               {"ai agent", "autonomous agent"},
	"transcription":           {"transcription", "transcribe*", "meeting notes", "speech to text", "speech-to-text"},
	"note-taking":             {"note-taking", "note taking", "notes app", "personal wiki", "daily notes", "notes"},
	"task-management":         {"task management", "project management", "kanban", "to-do", "todo list", "tasks", "task"},
	"calendar-scheduling":     {"calendar", "scheduling", "staff scheduling", "rota", "shift planning", "booking page", "appointment*"},
	"time-tracking":           {"time tracking", "time tracker", "timesheet", "track time", "zeiterfassung", "stundenzettel", "arbeitszeit*", "zeitkonto"},
	"apis":                    {"api gateway", "api management", "rest api", "graphql", "apis"},
	"databases":               {"database", "postgres", "postgresql", "mysql", "sql database"},
	"devops-monitoring":       {"monitoring", "observability", "uptime", "devops", "incident", "alerting"},
	"testing-qa":              {"test suite", "flaky test", "testing", "test runner", "end-to-end test", "qa", "unit test"},
	"seo-tools":               {"seo", "search engine optimization", "keyword research", "rank tracking"},
	"email-marketing":         {"email marketing", "email campaign", "abandoned-cart email", "mailing list", "send newsletters", "newsletter*", "subscribers", "email list"},
	"social-media-management": {"social media management", "schedule posts", "social media scheduling", "social media"},
	"web-analytics":           {"web analytics", "website analytics", "pageviews", "analytics"},
	"ui-design":               {"ui design", "prototyp*", "wireframe", "interface design", "figma"},
	"video-editing":           {"video editing", "video editor", "edit video", "edit videos", "editing video", "subtitles", "captions", "captioning", "video clips", "short videos"},
	"design-assets":           {"icon set", "illustrations", "stock photos", "mockups", "design assets"},
	"invoicing":               {"invoic*", "billing clients", "get paid"},
	"accounting":              {"accounting", "bookkeeping", "buchhaltung"},
	"expense-tracking":        {"expense tracking", "expenses", "receipts", "spend management"},
	"crm":                     {"crm", "customer relationship", "sales pipeline", "deal pipeline"},
	"help-desk":               {"help desk", "helpdesk", "ticketing", "support tickets", "service desk", "tickets", "shared inbox", "support inbox", "support team*", "customer questions", "support requests"},
	"live-chat":               {"live chat", "chat widget", "chatbot"},
	"online-courses":          {"online course", "course platform", "sell courses", "lms"},
	"language-learning":       {"language learning", "learn a language", "vocabulary"},
	"flashcards":              {"flashcard", "spaced repetition", "spaced-repetition", "study", "exam"},
	"school-administration":   {"school administration", "school management", "student information system", "timetabling"},
}

// termRe compiles the terms of a category into one pattern.
func termRe(terms []string) *regexp.Regexp {
	var alts []string
	for _, t := range terms {
		if strings.HasSuffix(t, "*") {
			alts = append(alts, regexp.QuoteMeta(strings.TrimSuffix(t, "*"))+`\w*`)
		} else {
			alts = append(alts, regexp.QuoteMeta(t)+`(?:s|es)?`)
		}
	}
	return regexp.MustCompile(`(?i)\b(?:` + strings.Join(alts, "|") + `)\b`)
}

// nameTerms derives terms from a category name ("Calendar & Scheduling" ->
// calendar, scheduling; "Writing Assistants" -> writing assistant).
func nameTerms(name string) []string {
	var out []string
	for _, part := range regexp.MustCompile(`\s*(?:&|/|,|\band\b)\s*`).Split(strings.ToLower(name), -1) {
		part = strings.TrimSpace(part)
		if len(part) < 3 {
			continue
		}
		if strings.HasSuffix(part, "s") && !strings.HasSuffix(part, "ss") {
			part = strings.TrimSuffix(part, "s")
		}
		out = append(out, part)
	}
	return out
}

func singular(s string) string {
	return strings.TrimSuffix(strings.ReplaceAll(s, "-", " "), "s")
}

// scored is a category and the quotes that show it.
type scored struct {
	c      domain.CategoryChoice
	score  int
	quotes []domain.Evidence
	terms  []string
	// inTitle: a term is in the home page's title, where a site says what it is.
	inTitle bool
}

// draftCategories maps the site onto the directory's categories by the words
// it uses about itself: title, meta and headings weigh more than body text.
// Subcategories are preferred; the best is primary; a second or third is kept
// only when it is nearly as clear. tags are the matching terms themselves.
func (s *site) draftCategories() {
	if len(s.req.Categories) == 0 {
		return
	}
	type text struct {
		p      *page
		t      string
		weight int
		title  bool // the home page's title: the site's own one-line statement of what it is
	}
	var texts []text
	for _, p := range s.content() {
		w := 1
		if p.kind == kindHome {
			w = 2
		}
		for i, d := range []string{p.wp.Title, p.meta["description"], p.meta["og:description"], p.meta["keywords"]} {
			if d != "" {
				texts = append(texts, text{p, d, 3 * w, i == 0 && p.kind == kindHome})
			}
		}
		for _, seg := range p.segs {
			if seg.foreign {
				continue
			}
			if seg.title != "" {
				texts = append(texts, text{p, seg.title, 2 * w, false})
			}
			for _, l := range seg.lines {
				if !l.foreign && !l.footer {
					texts = append(texts, text{p, l.text, w, false})
				}
			}
		}
	}
	lowers := make([]string, len(texts))
	for i, t := range texts {
		lowers[i] = strings.ToLower(t.t)
	}
	var all []*scored
	for _, c := range s.req.Categories {
		pt := categoryPatterns(c.Slug, c.Name)
		if pt.re == nil {
			continue
		}
		re, not := pt.re, pt.not
		sc := &scored{c: c}
		for i, t := range texts {
			if !pt.may(lowers[i]) {
				continue
			}
			// The product's own name says nothing of its category: "시간표"
			// (a timetable) is the name of a time tracker.
			ms, at := termMatches(re, not, s.withoutName(t.t))
			if len(ms) == 0 {
				continue
			}
			sc.score += t.weight * len(ms)
			sc.inTitle = sc.inTitle || t.title
			if len(sc.quotes) < 2 {
				q := t.t
				if len(q) > 300 {
					q = sentenceAround(t.t, at)
					ms, _ = termMatches(re, not, s.withoutName(q))
				}
				sc.quotes = append(sc.quotes, t.p.ev(q))
				// Tags are the terms of the quotes kept: each tag is in its evidence.
				for _, m := range ms {
					sc.terms = append(sc.terms, strings.ToLower(m))
				}
			}
		}
		if sc.score >= 4 {
			all = append(all, sc)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		li, lj := all[i].c.Parent != "", all[j].c.Parent != ""
		if li != lj {
			return li
		}
		if all[i].inTitle != all[j].inTitle {
			return all[i].inTitle
		}
		return all[i].score > all[j].score
	})
	if len(all) == 0 {
		s.ldCategory()
		return
	}
	var cats, tags domain.DraftedValue
	for i, sc := range all {
		if i > 0 && (sc.c.Parent == "" && all[0].c.Parent != "" || sc.score*2 < all[0].score || len(cats.List) == 3) {
			break
		}
		cats.List = append(cats.List, sc.c.Name)
		cats.Evidence = append(cats.Evidence, sc.quotes...)
		for _, term := range sc.terms {
			// One tag per term: "flashcards" and "flashcard" are the same tag.
			if !slices.ContainsFunc(tags.List, func(t string) bool { return singular(t) == singular(term) }) {
				tags.List = append(tags.List, term)
			}
		}
		tags.Evidence = append(tags.Evidence, sc.quotes...)
	}
	s.set("categories", cats)
	s.set("tags", tags)
}

// withoutName is t with the product's name blanked out (same length, so
// offsets hold): a name that is a word of a category is not that category.
func (s *site) withoutName(t string) string {
	if s.name == "" || !strings.Contains(t, s.name) {
		return t
	}
	return strings.ReplaceAll(t, s.name, strings.Repeat(" ", len(s.name)))
}
