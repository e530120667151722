package domain

import "time"

// AccountExport is everything the service holds about one account, as the
// file GET /account/export downloads (docs/privacy.md). Each section is a
// list of records with the stored fields by name; timestamps are RFC 3339
// UTC. Secrets are never part of it: API keys and sessions appear by name
// and dates only, never a hash or a token.
type AccountExport struct {
	ExportedAt time.Time `json:"exported_at"`
	Account    Record    `json:"account"`
	// SignInMethods is how the account signs in: the email link or an
	// OpenID Connect provider (issuer and subject).
	SignInMethods    []Record `json:"sign_in_methods"`
	Sessions         []Record `json:"sessions"`
	APIKeys          []Record `json:"api_keys"`
	ConnectedApps    []Record `json:"connected_apps"`
	Drafts           []Record `json:"drafts"`
	Invites          []Record `json:"invites"`
	Listings         []Record `json:"listings"`
	Claims           []Record `json:"claims"`
	Orders           []Record `json:"orders"`
	Votes            []Record `json:"votes"`
	Reviews          []Record `json:"reviews"`
	Follows          []Record `json:"follows"`
	Notifications    []Record `json:"notifications"`
	InterviewAnswers []Record `json:"interview_answers"`
	ListingEdits     []Record `json:"listing_edits"`
	TeamRoles        []Record `json:"team_roles"`
}

// Record is one stored record of an export: column name to value.
type Record map[string]any

// AccountDeletion counts what deleting an account did (docs/privacy.md).
type AccountDeletion struct {
	// ListingsDeleted are listings the person owned alone, deleted;
	// ListingsHidden those kept (archived, without owner) because paid
	// orders or finalised weeks refer to them; ListingsHandedOver those
	// that stay with their other owners.
	ListingsDeleted, ListingsHidden, ListingsHandedOver int
	// OrdersKept are paid orders kept for the tax records, linked to the
	// anonymised account row.
	OrdersKept int
}
