package validate

// IsCurrency is the one currency rule of the service: an ISO 4217 code as
// stored and shown, three upper-case ASCII letters ("USD", "EUR"). Callers
// upper-case what a person typed before asking.
func IsCurrency(code string) bool {
	if len(code) != 3 {
		return false
	}
	for i := 0; i < len(code); i++ {
		if code[i] < 'A' || code[i] > 'Z' {
			return false
		}
	}
	return true
}
