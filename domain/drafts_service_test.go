package domain_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestService_UpdateDraft checks each rule of update_draft the schema cannot
// express against a real SQLite file and PostgreSQL: one subtest per rule, checking the
// error code and the field and rule it names, and that a refused edit leaves
// the draft as it was.
func TestService_UpdateDraft(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		env := newEnvOn(t, engine, true)
		ctx := fixtures.Caller(t, env.DB, context.Background(), "owner@example.com")
		owner := fixtures.ID(t, env.DB, "users", fixtures.Cols{"email": "owner@example.com"})
		stranger := fixtures.User(t, env.DB, "stranger@example.com")
		ready := fixtures.Draft(t, env.Store, owner, "https://acme.test/", domain.DraftReady)
		building := fixtures.Draft(t, env.Store, owner, "https://acme.test/", domain.DraftCrawling)
		theirs := fixtures.Draft(t, env.Store, stranger, "https://acme.test/", domain.DraftReady)
		// in decodes the body of an update_draft call, as both transports do.
		in := func(t *testing.T, id, body string) domain.UpdateDraftInput {
			t.Helper()
			var u domain.UpdateDraftInput
			if err := json.Unmarshal([]byte(body), &u); err != nil {
				t.Fatalf("table bug: %s: %v", body, err)
			}
			u.ID = id
			return u
		}
		version := func(t *testing.T) string {
			t.Helper()
			return fixtures.Rows(t, env.DB, "drafts", fixtures.Cols{"id": ready})[0]["version"]
		}

		for _, c := range []struct {
			name, body  string
			field, rule string
		}{
			{"LockUnknownField", `{"lock_fields":["nope"]}`, "lock_fields[0]", "enum"},
			{"RestoreUnknownField", `{"restore":["tagline","nope"]}`, "restore[1]", "enum"},
			{"RegenerateLocked", `{"lock_fields":["tagline"],"regenerate":["tagline"]}`, "regenerate[0]", "locked"},
			{"RegenerateAndSet", `{"fields":{"tagline":"Mine"},"regenerate":["tagline"]}`, "regenerate[0]", "conflict"},
			{"RegenerateNoEvidence", `{"regenerate":["tagline"]}`, "regenerate", "no_evidence"},
			{"ListBlankItem", `{"fields":{"features":["Fast"," "]}}`, "fields.features[1]", "minLength"},
			{"UnknownCategory", `{"fields":{"categories":["No Such Category"]}}`, "fields.categories[0]", "enum"},
			{"Country", `{"fields":{"country":"XX"}}`, "fields.country", "country"},
			{"FoundedYear", `{"fields":{"founded_year":"1700"}}`, "fields.founded_year", "year"},
			{"Stage", `{"fields":{"stage":"unicorn"}}`, "fields.stage", "enum"},
			{"ContactEmail", `{"fields":{"contact_email":"Acme <hello@acme.test>"}}`, "fields.contact_email", "format"},
			{"LogoURL", `{"fields":{"logo_url":"ftp://acme.test/logo.png"}}`, "fields.logo_url", "format"},
			{"FounderBlankName", `{"founders":[{"name":"  "}]}`, "founders[0].name", "minLength"},
			{"MilestoneDate", `{"milestones":[{"date":"2026-02-30","title":"Launch"}]}`, "milestones[0].date", "format"},
			{"SocialNotHTTP", `{"company_socials":{"github":"ftp://github.com/acme"}}`, "company_socials.github", "format"},
		} {
			t.Run(c.name, func(t *testing.T) {
				before := version(t)
				_, err := env.Service.UpdateDraft(ctx, in(t, ready, c.body))
				wantRule(t, err, c.field, c.rule)
				if version(t) != before {
					t.Fatalf("a refused edit wrote the draft")
				}
			})
		}
		t.Run("NotADraftID", func(t *testing.T) {
			_, err := env.Service.UpdateDraft(ctx, in(t, "draft-1", `{}`))
			wantRule(t, err, "id", "format")
		})
		t.Run("NotYours", func(t *testing.T) {
			_, err := env.Service.UpdateDraft(ctx, in(t, theirs, `{"fields":{"tagline":"Mine"}}`))
			wantCode(t, err, domain.ENotFound)
		})
		t.Run("StillBuilding", func(t *testing.T) {
			_, err := env.Service.UpdateDraft(ctx, in(t, building, `{"fields":{"tagline":"Mine"}}`))
			wantCode(t, err, domain.EConflict)
		})
		t.Run("Unauthenticated", func(t *testing.T) {
			_, err := env.Service.UpdateDraft(context.Background(), in(t, ready, `{"fields":{"tagline":"Mine"}}`))
			wantCode(t, err, domain.EUnauthenticated)
		})
		t.Run("OK", func(t *testing.T) {
			before := version(t)
			d, err := env.Service.UpdateDraft(ctx, in(t, ready, `{"fields":{"tagline":"  Notes   for teams ","country":"de"}}`))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(d)
			var view map[string]any
			_ = json.Unmarshal(b, &view)
			fields, _ := view["fields"].(map[string]any)
			tagline, _ := fields["tagline"].(map[string]any)
			country, _ := fields["country"].(map[string]any)
			if tagline["value"] != "Notes for teams" || country["value"] != "DE" || version(t) == before {
				t.Fatalf("after the edit: tagline %v, country %v", tagline, country)
			}
		})
	})
}
