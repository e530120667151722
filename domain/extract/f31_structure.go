package extract

import (
	"strings"
	"unicode"
)

// textWords counts the words of s as a reader would: fields between spaces,
// and in scripts written without spaces (Han, Hiragana, Katakana) about one
// word for every two characters, so that "キンタイは小さな会社のためのクラウド勤怠管理サービスです。"
// is a sentence of many words, not one.
func textWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		cjk := 0
		for _, r := range f {
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
				cjk++
			}
		}
		n += max(1, (cjk+1)/2)
	}
	return n
}
