package domain

import (
	"context"
	"encoding/json"
)

// checkPaidTrophy checks the trophy_id option of a trophy_verification
// item: a pending trophy of the item's listing (docs/trophies.md).
func (s *Service) checkPaidTrophy(ctx context.Context, it OrderItem, l *OrderListing, bad func(name, rule, format string, args ...any)) error {
	var opt struct {
		TrophyID int64 `json:"trophy_id"`
	}
	raw, _ := json.Marshal(it.Options)
	if err := json.Unmarshal(raw, &opt); err != nil || opt.TrophyID < 1 {
		bad("options.trophy_id", "required", "trophy_verification needs options.trophy_id: a pending trophy of the listing (list_my_trophies).")
		return nil
	}
	st, err := s.trophyStore()
	if err != nil {
		return err
	}
	rec, err := st.Trophy(ctx, opt.TrophyID)
	switch {
	case ErrorCode(err) == ENotFound || (err == nil && rec.ListingID != l.ID):
		bad("options.trophy_id", "exists", "listing %d has no trophy %d (list_my_trophies lists them).", l.ID, opt.TrophyID)
	case err != nil:
		return err
	case rec.State != TrophyPending:
		bad("options.trophy_id", "pending", "trophy %d is %s, not pending: only a pending trophy is verified by the site team for a fee.", opt.TrophyID, rec.State)
	}
	return nil
}
