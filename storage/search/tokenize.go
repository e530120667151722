package search

import (
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/unicode/norm"
)

// token is one indexed or queried term. Primary tokens are the words as
// written; the others are derived forms (the parts of a camelCase word, the
// joined form of a hyphenated compound or of a whole name) that are indexed
// but do not count towards a field's length.
type token struct {
	text    string
	primary bool
	// parts holds, for a joined query word, the words it was joined from.
	parts []string
}

// maxJoined bounds the byte length of a joined compound.
const maxJoined = 48

// isConnector reports whether r joins two words into a compound when it sits
// directly between them ("note-taking", "don't", "example.com").
func isConnector(r rune) bool {
	switch r {
	case '-', '_', '\'', '\u2019', '.', '\u2010', '\u2011':
		return true
	}
	return false
}

// foldTable maps runes below foldLimit to their lower-case, accent-free form
// ("" for runes that are not letters or digits). It is built on first use.
var (
	foldOnce  sync.Once
	foldTable []string
)

const foldLimit = 0x3000

// special holds letters that Unicode does not decompose into a base letter.
var special = map[rune]string{
	'ß': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ø': "o", 'Ø': "o",
	'ł': "l", 'Ł': "l", 'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th",
	'Þ': "th", 'ı': "i", 'ħ': "h", 'Ħ': "h",
}

func buildFoldTable() {
	foldTable = make([]string, foldLimit)
	var buf []byte
	for r := rune(0x80); r < foldLimit; r++ {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			continue
		}
		if s, ok := special[r]; ok {
			foldTable[r] = s
			continue
		}
		buf = buf[:0]
		for _, c := range norm.NFD.String(string(r)) {
			if unicode.Is(unicode.Mn, c) {
				continue
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(c))
		}
		foldTable[r] = string(buf)
	}
}

// appendFold appends the folded form of the word rune r to dst.
func appendFold(dst []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(dst, byte(r))
	}
	if r < foldLimit {
		foldOnce.Do(buildFoldTable)
		return append(dst, foldTable[r]...)
	}
	return utf8.AppendRune(dst, unicode.ToLower(r))
}

// runeClass tells how the tokenizer treats a rune.
type runeClass uint8

const (
	sep   runeClass = iota // ends a word
	word                   // part of a word
	mark                   // combining mark: dropped, does not end a word
	upper                  // an upper-case letter: part of a word, may start a camelCase part
)

func classify(r rune) runeClass {
	if r < utf8.RuneSelf {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return word
		case r >= 'A' && r <= 'Z':
			return upper
		}
		return sep
	}
	switch {
	case unicode.IsUpper(r):
		return upper
	case unicode.IsLetter(r), unicode.IsDigit(r):
		return word
	case unicode.Is(unicode.Mn, r):
		return mark
	}
	return sep
}

// tokenizer splits text into tokens; it keeps its buffers between calls.
type tokenizer struct {
	buf   []byte   // folded bytes of the current chain's words, back to back
	words []int    // end offsets in buf of the chain's words
	camel []int    // camelCase split offsets in buf for the current word
	out   []token  // tokens of the last call
	parts []string // scratch for a chain's parts
	// borrow makes the plain tokens' texts point into arena instead of
	// each being allocated: they stay valid only until the next call.
	borrow bool
	arena  []byte
}

// str returns b as a token's text: a copy, or with borrow a string over
// the bytes appended to t.arena (an earlier array stays as it was when
// arena grows, so the texts of this call stay valid).
func (t *tokenizer) str(b []byte) string {
	if !t.borrow {
		return string(b)
	}
	n := len(t.arena)
	t.arena = append(t.arena, b...)
	return unsafe.String(unsafe.SliceData(t.arena[n:]), len(b))
}

// tokens returns the tokens of s. With query set, a hyphenated compound
// yields one token (the joined form, carrying its parts) instead of its parts
// plus the joined form, and camelCase words are not split.
func (t *tokenizer) tokens(s string, query bool) []token {
	t.out = t.out[:0]
	t.buf, t.words, t.camel, t.arena = t.buf[:0], t.words[:0], t.camel[:0], t.arena[:0]
	prev := sep // class of the previous word rune in the current word
	wordStart := 0
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		c := classify(r)
		switch c {
		case word, upper:
			if c == upper && prev == word && len(t.buf) > wordStart {
				t.camel = append(t.camel, len(t.buf))
			}
			t.buf = appendFold(t.buf, r)
			prev = c
			continue
		case mark:
			continue
		}
		// A separator: end the word, and end the chain unless r connects it
		// to a following word.
		if len(t.buf) > wordStart {
			t.endWord(wordStart, query)
			wordStart = len(t.buf)
			if isConnector(r) && i < len(s) {
				nr, _ := utf8.DecodeRuneInString(s[i:])
				if nc := classify(nr); nc == word || nc == upper {
					prev = sep
					continue
				}
			}
		}
		t.endChain(query)
		wordStart, prev = 0, sep
	}
	if len(t.buf) > wordStart {
		t.endWord(wordStart, query)
	}
	t.endChain(query)
	return t.out
}

// endWord records the word buf[start:] and, outside queries, its camelCase parts.
func (t *tokenizer) endWord(start int, query bool) {
	t.words = append(t.words, len(t.buf))
	if !query && len(t.camel) > 0 {
		from := start
		for _, at := range t.camel {
			t.out = append(t.out, token{text: t.str(t.buf[from:at])})
			from = at
		}
		t.out = append(t.out, token{text: t.str(t.buf[from:])})
	}
	t.camel = t.camel[:0]
}

// endChain emits the words of the current chain and its joined form.
func (t *tokenizer) endChain(query bool) {
	if len(t.words) == 0 {
		t.buf = t.buf[:0]
		return
	}
	if query && len(t.words) > 1 && len(t.buf) <= maxJoined {
		t.parts = t.parts[:0]
		from := 0
		for _, end := range t.words {
			t.parts = append(t.parts, string(t.buf[from:end]))
			from = end
		}
		t.out = append(t.out, token{text: string(t.buf), primary: true, parts: append([]string(nil), t.parts...)})
	} else {
		from := 0
		for _, end := range t.words {
			t.out = append(t.out, token{text: t.str(t.buf[from:end]), primary: true})
			from = end
		}
		if len(t.words) > 1 && len(t.buf) <= maxJoined {
			t.out = append(t.out, token{text: t.str(t.buf)})
		}
	}
	t.buf, t.words = t.buf[:0], t.words[:0]
}
