package domain

// Words of the languages of the dev36 sites (Norwegian, Finnish, Hungarian,
// Romanian, Vietnamese, Thai, Indonesian, Hebrew) that speak of a pricing
// model, added to PricingModels: a free plan ("ingyenes", "miễn phí",
// "ฟรี") and a monthly price ("/ hó", "/ kk", "/ lună", "/tháng",
// "/เดือน", "/bulan", "per måned", "לחודש").
func init() {
	free := []string{"ingyenes", "miễn phí", "ฟรี"}
	PricingModels["free"] = append(PricingModels["free"], free...)
	PricingModels["freemium"] = append(PricingModels["freemium"], free...)
	PricingModels["subscription"] = append(PricingModels["subscription"],
		"/hó", "/ hó", "/kk", "/ kk", "kuukausi", "kuukaudessa", "/lună", "/ lună", "pe lună", "/tháng", "/ tháng", "mỗi tháng",
		"/เดือน", "/ เดือน", "ต่อเดือน", "/bulan", "/ bulan", "per bulan", "per måned", "i måneden", "/mnd", "לחודש", "בחודש")
}
