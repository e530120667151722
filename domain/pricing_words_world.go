package domain

// The words of a pricing quote beyond PricingModels' literal, in one place:
// the languages of the dev35 and dev36 sets (Finnish, Danish, Hungarian,
// Romanian, Indonesian, Vietnamese, Greek, Norwegian, Thai, Hebrew), whose
// free plans and monthly prices domain/extract reads, and the units of a
// recurring price the extractor reads in the seven first languages ("per
// medewerker", "pro Mitarbeiter", "par personne"): a quote the extractor
// takes as a subscription's passes the gate with the same words
// (docs/drafts.md, "dev35 round", "dev36 round", "dev38 round").
func init() {
	free := []string{"ilmai", "ingyenes", "miễn phí", "δωρεάν", "ฟรี"}
	PricingModels["free"] = append(PricingModels["free"], free...)
	PricingModels["freemium"] = append(PricingModels["freemium"], free...)
	PricingModels["subscription"] = append(PricingModels["subscription"],
		// months, and subscriptions named
		"/ kk", "/kk", "kuukau", "måned", "/mnd", "/ hó", "/hó", "havonta", "havi", "lună", "bulan", "tháng", "mỗi tháng",
		"/เดือน", "/ เดือน", "ต่อเดือน", "לחודש", "בחודש", "μήνα", "μηνιαία",
		"abonament", "tilaus", "előfizetés", "langganan", "συνδρομή",
		// a price per person or seat, as periodRe reads it
		"per agent", "per member", "per person", "per operator", "per medewerker", "per operatore",
		"pro benutzer", "pro person", "pro mitarbeiter", "pro user", "par personne",
		"por utilizador", "por persona", "por pessoa")
}
