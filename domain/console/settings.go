package console

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// Site settings (docs/console.md "Site settings"): what the
// site team may change without a restart. A setting stored in the database
// wins; without one, the default is today's value from the flags and the
// code (--vote-min-account-age, LAUNCHDIR_SITE_NAME, the free queue's
// defaults). Every read happens at the time of use, so a change made on
// /admin/settings or with "launchdir admin settings set" takes effect on the
// next request, in every process using the database.

// Kinds of settings.
const (
	settingText = "text"
	settingInt  = "int"
)

// SettingDef describes one site setting: its key, what a person reads on
// the page, its kind (text or a whole number) and its bounds (the length of
// a text, the range of a number, both inclusive).
type SettingDef struct {
	Key, Label, Help string
	Kind             string
	Min, Max         int
}

// Bounds says the bounds in words ("1-52", "1-80 characters").
func (d SettingDef) Bounds() string {
	if d.Kind == settingText {
		return fmt.Sprintf("%d-%d characters", d.Min, d.Max)
	}
	return fmt.Sprintf("%d-%d", d.Min, d.Max)
}

// Text says whether the setting is a text (else a whole number).
func (d SettingDef) Text() bool { return d.Kind == settingText }

// SettingDefs are every site setting, in the order the page shows them.
var SettingDefs = []SettingDef{
	{domain.SettingSiteName, "Site name", "Shown in every page's title and header, and by get_site_info.", settingText, 1, 80},
	{domain.SettingSitePurpose, "Site purpose", "One or two sentences on what the directory is for (pages' description, get_site_info).", settingText, 1, 500},
	{domain.SettingFreeWeeksMin, "Free queue: earliest week", "A free listing launches this many weeks after the week it joins the queue, at the earliest.", settingInt, 1, 52},
	{domain.SettingFreeWeeksMax, "Free queue: latest week", "... and at the latest (not below the earliest week).", settingInt, 1, 52},
	{domain.SettingFreeWeekCapacity, "Free listings per week", "How many free listings one launch week takes.", settingInt, 1, 1000},
	{domain.SettingBadgeCheckHours, "Badge check interval (hours)", "The time between two checks of a free listing's badge.", settingInt, 1, 168},
	{domain.SettingVoteMinAgeHours, "Vote hold: minimum account age (hours)", "Votes and reviews of younger accounts are held until the account is this old; 0 holds none for age.", settingInt, 0, 720},
}

// SettingDefOf returns the definition of key.
func SettingDefOf(key string) (SettingDef, bool) {
	for _, d := range SettingDefs {
		if d.Key == key {
			return d, true
		}
	}
	return SettingDef{}, false
}

// SettingsStore keeps the stored site settings.
type SettingsStore interface {
	domain.SettingsReader
	// SaveSettings stores set and writes entries to the audit log, in one
	// transaction.
	SaveSettings(ctx context.Context, set map[string]string, entries []AuditEntry) error
}

// SettingView is one setting as the console shows it.
type SettingView struct {
	SettingDef
	// Value is the value in effect; Default the value without a stored one;
	// Stored says whether one is stored.
	Value, Default string
	Stored         bool
}

// settingsStore is s.Settings; nil when it is not set (the defaults only).
func (s *Console) settingsStore() SettingsStore {
	return s.Settings
}

// SettingDefaults are the values of the settings when none is stored:
// the site's configuration and the flags.
func (s *Console) SettingDefaults() map[string]string {
	f := domain.FreeSettings{WeeksMin: s.Site.FreeWeeksMin, WeeksMax: s.Site.FreeWeeksMax,
		WeekCapacity: s.Site.FreeWeekCapacity, CheckHours: s.Site.BadgeCheckHours}.Norm()
	return map[string]string{
		domain.SettingSiteName: s.Site.Name, domain.SettingSitePurpose: s.Site.Purpose,
		domain.SettingFreeWeeksMin: strconv.Itoa(f.WeeksMin), domain.SettingFreeWeeksMax: strconv.Itoa(f.WeeksMax),
		domain.SettingFreeWeekCapacity: strconv.Itoa(f.WeekCapacity), domain.SettingBadgeCheckHours: strconv.Itoa(f.CheckHours),
		domain.SettingVoteMinAgeHours: strconv.FormatFloat(s.VoteMinAccountAge.Hours(), 'f', -1, 64),
	}
}

// SiteSettings returns every setting with its value in effect, its default
// and its bounds, in the order of SettingDefs.
func (s *Console) SiteSettings(ctx context.Context) ([]SettingView, error) {
	stored := map[string]string{}
	if st := s.settingsStore(); st != nil {
		var err error
		if stored, err = st.StoredSettings(ctx); err != nil {
			return nil, err
		}
	}
	def := s.SettingDefaults()
	out := make([]SettingView, 0, len(SettingDefs))
	for _, d := range SettingDefs {
		v := SettingView{SettingDef: d, Default: def[d.Key], Value: def[d.Key]}
		if sv, ok := stored[d.Key]; ok {
			v.Value, v.Stored = sv, true
		}
		out = append(out, v)
	}
	return out, nil
}

// CheckSetting validates value for key, returning it normalised (a text
// trimmed, a number without leading zeros or signs).
func CheckSetting(key, value string) (string, *domain.FieldError) {
	d, ok := SettingDefOf(key)
	if !ok {
		keys := make([]string, len(SettingDefs))
		for i, d := range SettingDefs {
			keys[i] = d.Key
		}
		return "", &domain.FieldError{Field: "key", Rule: "enum", Message: fmt.Sprintf("%q is no site setting; the settings are %s.", key, strings.Join(keys, ", "))}
	}
	value = strings.TrimSpace(value)
	if d.Text() {
		if strings.ContainsAny(value, "\r\n") {
			return "", &domain.FieldError{Field: key, Rule: "pattern", Message: fmt.Sprintf("%s is one line of text.", d.Label)}
		}
		switch n := utf8.RuneCountInString(value); {
		case n < d.Min:
			return "", &domain.FieldError{Field: key, Rule: "minLength", Message: fmt.Sprintf("%s is %s long; it is empty.", d.Label, d.Bounds())}
		case n > d.Max:
			return "", &domain.FieldError{Field: key, Rule: "maxLength", Message: fmt.Sprintf("%s is %s long; this is %d.", d.Label, d.Bounds(), n)}
		}
		return value, nil
	}
	n, err := strconv.Atoi(value)
	if err != nil {
		return "", &domain.FieldError{Field: key, Rule: "type", Message: fmt.Sprintf("%s is a whole number from %s; %q is not one.", d.Label, d.Bounds(), value)}
	}
	if n < d.Min {
		return "", &domain.FieldError{Field: key, Rule: "minimum", Message: fmt.Sprintf("%s is %s; %d is below.", d.Label, d.Bounds(), n)}
	}
	if n > d.Max {
		return "", &domain.FieldError{Field: key, Rule: "maximum", Message: fmt.Sprintf("%s is %s; %d is above.", d.Label, d.Bounds(), n)}
	}
	return strconv.Itoa(n), nil
}

// SetSiteSettings validates values (setting key to its new value; keys not
// given keep theirs) and, when every one is valid, stores the ones that
// change, each with a setting.set entry in the audit log by actor. When
// any is wrong nothing is stored and the error names every wrong field.
func (s *Console) SetSiteSettings(ctx context.Context, actor string, values map[string]string) error {
	st := s.settingsStore()
	if st == nil {
		return fmt.Errorf("site settings are not configured (they need a SettingsStore)")
	}
	cur, err := s.SiteSettings(ctx)
	if err != nil {
		return err
	}
	var bad []domain.FieldError
	clean := map[string]string{}
	now := map[string]string{}
	for _, v := range cur {
		now[v.Key] = v.Value
	}
	for _, d := range SettingDefs {
		if v, ok := values[d.Key]; ok {
			if strings.TrimSpace(v) == now[d.Key] {
				// Unchanged: a default from a flag outside the bounds (a
				// --vote-min-account-age of 90m) does not block the form.
				continue
			}
			c, fe := CheckSetting(d.Key, v)
			if fe != nil {
				bad = append(bad, *fe)
				continue
			}
			clean[d.Key] = c
		}
	}
	for k, v := range values {
		if _, ok := SettingDefOf(k); !ok {
			_, fe := CheckSetting(k, v)
			bad = append(bad, *fe)
		}
	}
	merged := map[string]string{}
	for k, v := range now {
		merged[k] = v
	}
	for k, v := range clean {
		merged[k] = v
	}
	lo, _ := strconv.Atoi(merged[domain.SettingFreeWeeksMin])
	hi, _ := strconv.Atoi(merged[domain.SettingFreeWeeksMax])
	_, minGiven := clean[domain.SettingFreeWeeksMin]
	_, maxGiven := clean[domain.SettingFreeWeeksMax]
	if hi < lo && (minGiven || maxGiven) {
		field := domain.SettingFreeWeeksMax
		if !maxGiven {
			field = domain.SettingFreeWeeksMin
		}
		bad = append(bad, domain.FieldError{Field: field, Rule: "free_weeks_order", Message: fmt.Sprintf(
			"The latest free week (%d) cannot come before the earliest (%d).", hi, lo)})
	}
	if len(bad) > 0 {
		return &domain.Error{Code: domain.EInvalid, Message: bad[0].Message, Fields: bad}
	}
	set := map[string]string{}
	var entries []AuditEntry
	for _, v := range cur {
		nv, ok := clean[v.Key]
		if !ok || nv == v.Value {
			continue
		}
		set[v.Key] = nv
		entries = append(entries, s.auditEntry(actor, "setting.set", "setting:"+v.Key,
			map[string]string{"value": v.Value}, map[string]string{"value": nv}))
	}
	if len(set) == 0 {
		return nil
	}
	return st.SaveSettings(ctx, set, entries)
}
