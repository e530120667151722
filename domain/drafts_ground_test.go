package domain_test

import (
	"slices"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

func TestGround(t *testing.T) {
	site := &domain.SiteCrawl{URL: "https://acme.example/", Pages: []domain.WebPage{
		{URL: "https://acme.example/", Text: "Acme\nInvoices that send themselves.\n© 2024 Acme Inc. All rights reserved.", Data: []string{"https://x.com/acme"}},
		{URL: "https://acme.example/about", Text: "Acme was founded in 2019 in Berlin, Germany.\nPlans from $9/month."},
	}}
	req := domain.DraftRequest{Site: site, Categories: []domain.CategoryChoice{{Slug: "finance", Name: "Finance"}}, Stages: []string{"beta"}}
	home, about := "https://acme.example/", "https://acme.example/about"
	ev := func(url, q string) []domain.Evidence { return []domain.Evidence{{URL: url, Quote: q}} }
	in := &domain.Drafted{Fields: map[string]domain.DraftedValue{
		"name":          {Text: "Acme", Evidence: ev(home, "Acme")},
		"tagline":       {Text: "Invoices that send themselves.", Evidence: ev(about, "Invoices that send themselves.")}, // wrong page
		"founded_year":  {Text: "2024", Evidence: ev(home, "© 2024 Acme Inc.")},                                          // copyright line
		"country":       {Text: "Germany", Evidence: ev(about, "founded in 2019 in Berlin, Germany.")},
		"city":          {Text: "Munich", Evidence: ev(about, "Berlin, Germany")}, // value not in its quote
		"categories":    {List: []string{"Finance", "Crypto"}, Evidence: ev(home, "Invoices that send themselves.")},
		"pricing_model": {Text: "subscription", Evidence: ev(about, "Plans from $9/month.")},
		"stage":         {Text: "growth", Evidence: ev(home, "Acme")},
		"contact_email": {Text: "hi@acme.example", Evidence: nil},
	}, Socials: map[string]domain.DraftedLink{"x": {URL: "https://x.com/acme", Evidence: ev(home, "https://x.com/acme")}},
		Founders: []domain.DraftedFounder{{Name: "Jane Roe", Evidence: ev(about, "Acme was founded in 2019")}}}
	out, dropped := domain.Ground(req, in)
	var kept []string
	for k := range out.Fields {
		kept = append(kept, k)
	}
	slices.Sort(kept)
	if want := []string{"country", "name", "pricing_model"}; !slices.Equal(kept, want) {
		t.Errorf("kept %v, want %v; dropped %v", kept, want, dropped)
	}
	if out.Fields["country"].Text != "DE" {
		t.Errorf("country = %q, want the code DE", out.Fields["country"].Text)
	}
	if _, ok := out.Socials["x"]; !ok || len(out.Founders) != 0 {
		t.Errorf("socials %v founders %v", out.Socials, out.Founders)
	}
	if len(dropped) != 7 {
		t.Errorf("dropped %d: %v", len(dropped), dropped)
	}
	// The founding year from the about page is kept.
	in2 := &domain.Drafted{Fields: map[string]domain.DraftedValue{"founded_year": {Text: "2019", Evidence: ev(about, "founded in 2019")}}}
	if out, d := domain.Ground(req, in2); out.Fields["founded_year"].Text != "2019" {
		t.Errorf("founding statement dropped: %v", d)
	}
}

// TestGround_PricingUnits: a subscription quoted by a price per person in
// the words the extractor reads as recurring ("€ 4,50 per medewerker", "12 €
// pro Mitarbeiter") passes the gate; a price alone does not.
func TestGround_PricingUnits(t *testing.T) {
	for _, c := range []struct {
		quote string
		kept  bool
	}{{"€ 4,50 per medewerker", true}, {"12 € pro Mitarbeiter", true}, {"9 € par personne", true}, {"€ 4,50", false}} {
		site := &domain.SiteCrawl{URL: "https://acme.example/", Pages: []domain.WebPage{{URL: "https://acme.example/", Text: c.quote}}}
		in := &domain.Drafted{Fields: map[string]domain.DraftedValue{"pricing_model": {Text: "subscription", Evidence: []domain.Evidence{{URL: "https://acme.example/", Quote: c.quote}}}}}
		out, _ := domain.Ground(domain.DraftRequest{Site: site}, in)
		if _, ok := out.Fields["pricing_model"]; ok != c.kept {
			t.Errorf("%q: kept %v, want %v", c.quote, ok, c.kept)
		}
	}
}
