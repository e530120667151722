package search

import (
	"strings"

	snowball "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/spanish"
)

// Word forms. A listing's words are indexed as written
// and, when it differs, also as their Snowball stem in the listing's
// language (guessed from its text's function words, English by default), as
// a derived token. A query word is looked up as written and as its stem in
// each of the seven languages the service drafts in, since a query is too
// short to tell its language: "invoicing", "invoices" and "invoice" all
// reach the stem "invoic".

// Languages, in the order of stemmers and stopWords.
const (
	langEN = iota
	langDE
	langFR
	langES
	langIT
	langNL
	langPT
	numLangs
)

var stemmers = [numLangs]func(*snowball.Env) bool{
	english.Stem, german.Stem, french.Stem, spanish.Stem, italian.Stem, dutch.Stem, portuguese.Stem,
}

// minStem is the shortest word (in bytes) that is stemmed: shorter words are
// mostly function words and abbreviations, which stems only blur.
const minStem = 4

// stemmer stems words; it keeps its Snowball environment between calls.
type stemmer struct{ env *snowball.Env }

// stem returns w's stem in language lang (w itself when too short or all
// digits). w must be folded (lower case, no accents), as tokens are.
func (s *stemmer) stem(w string, lang int) string {
	if len(w) < minStem || isDigits(w) {
		return w
	}
	if s.env == nil {
		s.env = snowball.NewEnv("")
	}
	s.env.SetCurrent(w)
	stemmers[lang](s.env)
	return s.env.Current()
}

func isDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// stopWords are frequent function words of each language, folded; a
// listing's language is the one whose words its text uses most.
var stopWords = func() map[string][numLangs]bool {
	lists := [numLangs]string{
		langEN: "the and for with your you is are that this from our it its be can all into more without",
		langDE: "der die das und mit fur ist ein eine einen den dem von zu auf sie wir ihre nicht auch oder bei ihr ihren sich",
		langFR: "le les et des pour avec est une vos votre nous dans sur qui du au aux ou sans plus sont",
		langES: "el los las y para con una del por que sus tu su es al sin mas como",
		langIT: "il gli e per con una della che di sono tuo tua tuoi nel alla delle dei senza piu",
		langNL: "het een en voor met van je jouw op dat zijn ons onze wij niet ook bij naar",
		langPT: "os e para com uma um do dos em seu sua voce nao mais sem seus suas",
	}
	m := map[string][numLangs]bool{}
	for l, s := range lists {
		for _, w := range strings.Fields(s) {
			v := m[w]
			v[l] = true
			m[w] = v
		}
	}
	return m
}()

// guessLang returns the language whose function words occur most often in
// toks (English when none do, or on a tie with English).
func guessLang(toks ...[]token) int {
	var n [numLangs]int
	for _, ts := range toks {
		for _, t := range ts {
			if !t.primary {
				continue
			}
			if v, ok := stopWords[t.text]; ok {
				for l, in := range v {
					if in {
						n[l]++
					}
				}
			}
		}
	}
	best := langEN
	for l := range numLangs {
		if n[l] > n[best] {
			best = l
		}
	}
	return best
}

// genericWords are query words that never exclude a listing on their own
// (ranking, search.go): function words of the seven languages and the words
// people add to any product search ("app", "tool", "software"). They still
// rank: a listing that has them ranks above one that does not, other
// things equal. A query made only of them matches them as any other word.
var genericWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range stopWords {
		m[w] = true
	}
	for _, w := range strings.Fields(`a an of to in on at by or my me i we us is it
		app apps application applications tool tools software platform platforms service services
		solution solutions online web website best top good great new simple easy
		program programs programme system systems product products help helps helper way ways
		something thing things looking need want find use using used who what which how where
		outil outils logiciel logiciels plateforme application service
		werkzeug werkzeuge programm plattform dienst anwendung
		herramienta herramientas aplicacion aplicaciones plataforma programa servicio
		strumento strumenti applicazione applicazioni piattaforma programma servizio
		hulpmiddel programma platform dienst toepassing
		ferramenta ferramentas aplicativo aplicacao plataforma programa servico
		de la le les des du un une el lo las y o da di del het een en van voor`) {
		m[w] = true
	}
	return m
}()
