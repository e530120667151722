package vat

import (
	"errors"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestRules_ParseVATNumber checks the adapter's error mapping: the order core
// reads the rule to tell the person what is wrong.
func TestRules_ParseVATNumber(t *testing.T) {
	n, err := Rules{}.ParseVATNumber("de 136 695 976")
	if err != nil || n.String() != "DE136695976" || n.Country != "DE" {
		t.Fatalf("valid number: %+v %v", n, err)
	}
	for raw, rule := range map[string]string{"DE136695977": "checksum", "DE1366": "format", "US123456789": "prefix", "GR094259216": "prefix"} {
		_, err := Rules{}.ParseVATNumber(raw)
		var e *domain.Error
		if !errors.As(err, &e) || e.Code != domain.EInvalid || len(e.Fields) != 1 || e.Fields[0].Rule != rule || e.Message == "" {
			t.Errorf("%s: %v, want rule %s", raw, err, rule)
		}
	}
	if rate, eu := (Rules{}).StandardRate("FI"); !eu || rate != 2550 {
		t.Errorf("FI rate = %d %v", rate, eu)
	}
}
