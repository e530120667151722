package domain_test

import (
	"encoding/json"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

func decodeEdit(t *testing.T, body string) domain.UpdateMyListingInput {
	t.Helper()
	var in domain.UpdateMyListingInput
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		t.Fatal(err)
	}
	return in
}

// TestEditValues checks the canonical values update_my_listing stores and
// the rules the schema cannot express.
func TestEditValues(t *testing.T) {
	t.Run("Canonical", func(t *testing.T) {
		in := decodeEdit(t, `{"listing_id": 1, "fields": {"summary": "  Line one.\n\nLine two.  ", "headline": "  Big   news ",
			"pricing_model": "FreeMium", "country": "de", "founded_year": 2019.0, "keywords": ["AI", "ai", " notes "]},
			"socials": {"x": " https://x.com/acme ", "github": ""}, "faqs": []}`)
		got, err := domain.ListingEditValues(&in)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"summary": `"Line one.\n\nLine two."`, "headline": `"Big news"`, "pricing_model": `"freemium"`,
			"country": `"DE"`, "founded_year": `2019`, "keywords": `["AI","notes"]`, "socials": `{"x":"https://x.com/acme"}`, "faqs": `[]`}
		if len(got) != len(want) {
			t.Fatalf("values %v, want %v", got, want)
		}
		for k, v := range want {
			if string(got[k]) != v {
				t.Errorf("%s = %s, want %s", k, got[k], v)
			}
		}
	})
	// An empty patch is no error and no value; "fields": {} never gets here
	// (the schema declares minProperties on fields).
	for _, body := range []string{`{"listing_id": 1}`, `{"listing_id": 1, "fields": {}}`} {
		in := decodeEdit(t, body)
		if got, err := domain.ListingEditValues(&in); err != nil || len(got) != 0 {
			t.Errorf("%s: values %v, err %v; want none", body, got, err)
		}
	}
	for name, c := range map[string]struct{ body, field, rule string }{
		"OnlyApplyTo":    {`{"listing_id": 1, "apply_to": ["all"]}`, "apply_to", "requires"},
		"NullString":     {`{"listing_id": 1, "fields": {"tagline": null}}`, "fields.tagline", "type"},
		"BlankFAQAnswer": {`{"listing_id": 1, "faqs": [{"question": "Why?", "answer": " "}]}`, "faqs[0].answer", "minLength"},
		"SocialNotHTTP":  {`{"listing_id": 1, "socials": {"website": "acme.test"}}`, "socials.website", "format"},
	} {
		t.Run(name, func(t *testing.T) {
			in := decodeEdit(t, c.body)
			_, err := domain.ListingEditValues(&in)
			e, ok := err.(*domain.Error)
			if !ok || e.Code != domain.EInvalid || e.Fields[0].Field != c.field || e.Fields[0].Rule != c.rule {
				t.Fatalf("err = %v, want invalid %s %s", err, c.field, c.rule)
			}
		})
	}
}
