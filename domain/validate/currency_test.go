package validate

import "testing"

func TestIsCurrency(t *testing.T) {
	for code, want := range map[string]bool{"USD": true, "EUR": true, "usd": false, "U$1": false, "EURO": false, "": false, "ÉUR": false} {
		if got := IsCurrency(code); got != want {
			t.Errorf("IsCurrency(%q) = %v, want %v", code, got, want)
		}
	}
}
