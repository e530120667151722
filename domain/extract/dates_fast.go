package extract

// hasYear reports whether s holds a year from 1900 to 2099 written in ASCII
// digits ("19dd" or "20dd"). Every date form findDate reads has one, so a
// text without one has no date, and the patterns need not run on it.
func hasYear(s string) bool {
	for i := 0; i+3 < len(s); i++ {
		if (s[i] == '1' && s[i+1] == '9' || s[i] == '2' && s[i+1] == '0') && isDigit(s[i+2]) && isDigit(s[i+3]) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
