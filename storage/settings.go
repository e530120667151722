package storage

import (
	"context"
	"strconv"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

var _ console.SettingsStore = (*Store)(nil)

// StoredSettings implements console.SettingsStore.
func (s *Store) StoredSettings(ctx context.Context) (map[string]string, error) {
	return s.storedSettings(ctx, s.db.sql)
}

// storedSettings reads the stored settings with one query (a JSON object
// of key to value), so that it runs on a transaction or the database alike.
func (s *Store) storedSettings(ctx context.Context, q queryRower) (map[string]string, error) {
	var raw string
	err := q.QueryRowContext(ctx, `SELECT COALESCE(`+s.db.eng.jsonGroupObject("key", "value")+`, '{}') FROM site_settings WHERE site_id = ?`, s.siteID).Scan(&raw)
	if err != nil {
		return nil, mapErr(err, "site settings", s.site.Key)
	}
	out := map[string]string{}
	if err := decodeJSON(raw, &out, "site settings"); err != nil {
		return nil, err
	}
	return out, nil
}

// SaveSettings implements console.SettingsStore.
func (s *Store) SaveSettings(ctx context.Context, set map[string]string, entries []console.AuditEntry) error {
	by, at := console.ActorCommandLine, s.db.Now().Unix()
	if len(entries) > 0 {
		by, at = entries[0].Actor, entries[0].At.Unix()
	}
	err := s.db.inTx(ctx, func(tx *Tx) error {
		for k, v := range set {
			_, err := tx.ExecContext(ctx, `INSERT INTO site_settings (site_id, key, value, updated_by, updated_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (site_id, key) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
				s.siteID, k, v, by, at)
			if err != nil {
				return mapErr(err, "site setting", k)
			}
		}
		for _, e := range entries {
			if err := s.writeAudit(ctx, tx, e); err != nil {
				return err
			}
		}
		return nil
	})
	return mapErr(err, "site settings", s.site.Key)
}

// overlayFreeSettings puts the stored free queue settings over set (the
// site row's, read by freeSettings): a stored setting wins.
func (s *Store) overlayFreeSettings(ctx context.Context, q queryRower, set *domain.FreeSettings) error {
	stored, err := s.storedSettings(ctx, q)
	if err != nil {
		return err
	}
	for key, to := range map[string]*int{domain.SettingFreeWeeksMin: &set.WeeksMin, domain.SettingFreeWeeksMax: &set.WeeksMax,
		domain.SettingFreeWeekCapacity: &set.WeekCapacity, domain.SettingBadgeCheckHours: &set.CheckHours} {
		if v, ok := stored[key]; ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				*to = n
			}
		}
	}
	return nil
}
