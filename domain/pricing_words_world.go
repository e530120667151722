package domain

// The words of a pricing quote beyond PricingModels' literal, in one place:
// the languages of the dev35 and dev36 sets (Finnish, Danish, Hungarian,
// Romanian, Indonesian, Vietnamese, Greek, Norwegian, Thai, Hebrew), whose
// free plans and monthly prices domain/extract reads (docs/drafts.md, "dev35
// round", "dev36 round"). A recurring price's period or unit ("per
// medewerker", "/user") is PricingPeriodPattern's, which the gate reads too.
func init() {
	free := []string{"ilmai", "ingyenes", "miễn phí", "δωρεάν", "ฟรี"}
	PricingModels["free"] = append(PricingModels["free"], free...)
	PricingModels["freemium"] = append(PricingModels["freemium"], free...)
	PricingModels["subscription"] = append(PricingModels["subscription"],
		// months, and subscriptions named
		"/ kk", "/kk", "kuukau", "måned", "/mnd", "/ hó", "/hó", "havonta", "havi", "lună", "bulan", "tháng", "mỗi tháng",
		"/เดือน", "/ เดือน", "ต่อเดือน", "לחודש", "בחודש", "μήνα", "μηνιαία",
		"abonament", "tilaus", "előfizetés", "langganan", "συνδρομή")
}
