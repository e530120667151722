package domain

// Issue 31, dev35 round: the words of a pricing quote in Finnish, Danish,
// Hungarian, Romanian, Indonesian, Vietnamese and Greek (domain/extract
// reads these languages' free plans and monthly prices too). Kept apart
// from PricingModels' literal so that each round's languages are one list.
func init() {
	free := []string{"ilmai", "ingyenes", "miễn phí", "δωρεάν"}
	PricingModels["free"] = append(PricingModels["free"], free...)
	PricingModels["freemium"] = append(PricingModels["freemium"], free...)
	PricingModels["subscription"] = append(PricingModels["subscription"],
		"/ kk", "/kk", "kuukau", "måned", "/ hó", "/hó", "havonta", "havi", "lună", "bulan", "tháng", "μήνα", "μηνιαία", "abonament", "tilaus", "előfizetés", "langganan", "συνδρομή")
}
