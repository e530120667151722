package domain_test

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestGround_PricingModelWordsInSevenLanguages: a pricing model stands when
// its quote speaks of that pricing in any of the seven languages the
// extractor reads, or shows a zero price for a free plan; it is dropped when
// no quote does.
func TestGround_PricingModelWordsInSevenLanguages(t *testing.T) {
	cases := []struct {
		model, quote string
		keep         bool
	}{
		{"subscription", "€12 per maand", true},
		{"subscription", "29 €/mes", true},
		{"subscription", "R$ 49/mês", true},
		{"subscription", "9,00 € pro Monat", true},
		{"subscription", "15 € al mese per operatore", true},
		{"subscription", "5 € par utilisateur et par mois", true},
		{"freemium", "Gratuit", true},
		{"freemium", "Kostenlos", true},
		{"freemium", "$0", true},
		{"freemium", "R$ 0", true},
		{"freemium", "$0.90 per resolved conversation", false},
		{"freemium", "$10 per month", false},
		{"one-time", "Einmalig 49 €", true},
		{"usage-based", "$0.90 per resolved conversation", true},
		{"contact-sales", "Auf Anfrage", true},
		{"contact-sales", "Sob consulta", true},
		{"subscription", "Made in Lyon", false},
	}
	for _, c := range cases {
		site := &domain.SiteCrawl{URL: "https://x.test/", Pages: []domain.WebPage{{URL: "https://x.test/", Text: c.quote}}}
		d := &domain.Drafted{Fields: map[string]domain.DraftedValue{
			"pricing_model": {Text: c.model, Evidence: []domain.Evidence{{Quote: c.quote, URL: "https://x.test/"}}},
		}}
		out, dropped := domain.Ground(domain.DraftRequest{Site: site}, d)
		_, kept := out.Fields["pricing_model"]
		if kept != c.keep {
			t.Errorf("%s from %q: kept %v (dropped %s), want %v", c.model, c.quote, kept, strings.Join(dropped, "; "), c.keep)
		}
	}
}
