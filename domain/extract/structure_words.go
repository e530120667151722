package extract

import (
	"fmt"
	"strconv"
)

// Forms of the languages the extractor has no sentence patterns
// for (Polish, Swedish, Czech, Turkish, Japanese, Korean, Chinese). They are
// added to the patterns of pricing.go and pricing_prose.go as alternatives, and
// written without \b where a form ends in a letter outside ASCII (Go's \b
// only knows ASCII word characters). The floor does not depend on them:
// JSON-LD, tables and addresses are read by structure (structure.go).
const (
	// priceMore: amounts in local currencies, the currency after ("49 zł",
	// "99 kr", "149 Kč", "199 TL", "300円", "9,900원", "68元") or before
	// ("₺199", "¥68", "￥68", "₩9,900", "PLN 49", "zł 49" as Wix writes it);
	// the lira both ways ("0 ₺").
	priceMore = `|\d(?:[\d.,']*\d)?\s?(?:zł|Kč|円|원|元|₺|(?:kr|TL|PLN|SEK|NOK|DKK|CZK|TRY|JPY|KRW|CNY|RMB)\b)` +
		`|(?:₺|¥|￥|₩|zł|(?:PLN|SEK|NOK|DKK|CZK|TRY|JPY|KRW|CNY|RMB)\s)\s?\d(?:[\d.,]*\d)?` +
		// the dollars of other countries, written with their prefix ("NT$120", "HK$88", "A$15")
		`|\b(?:NT|HK|NZ|[ASC])\$\s?\d(?:[\d.,]*\d)?` +
		// forint, lei, dong after the amount ("1 490 Ft", "49 lei", "79.000 ₫"),
		// rupiah before it ("Rp 99.000")
		`|\d(?:[\d.,  ]*\d)?\s?(?:₫|(?:Ft|lei|HUF|RON|IDR|VND|DKK)\b)|\bRp\.?\s?\d(?:[\d.,]*\d)?`
	// pricingHdrMore: a pricing heading or page title ("Cennik", "Priser",
	// "Ceník", "Fiyatlar", "料金", "价格", "요금").
	pricingHdrMore = `|(?:^|[^\p{L}])(?:cennik|ceny|plany|priser|prisplaner|ceník|fiyatlar|fiyatlandırma|paketler|hinnat|hinnasto|árak|díjak|prețuri|preturi|tarife|harga|bảng giá|τιμές|τιμολόγηση|τιμοκατάλογος)(?:[^\p{L}]|$)|料金|価格|プラン|价格|定价|套餐|方案|價格|定價|요금|가격|플랜`
	// pricingPathMore: pricing pages named in those languages, romanised.
	pricingPathMore = `|cennik|priser|cenik|fiyat|ryokin|kakaku|jiage|dingjia|yogeum|fangan` +
		// a bare /price page, and the page a product is bought from ("/buy")
		`|(?:^|/)(?:price|buy|purchase)(?:/|\.|$)` +
		// Finnish, Hungarian, Romanian, Indonesian, Vietnamese and Greek pricing pages
		`|(?:^|/)(?:plan|hinnat|hinnasto|arak|dijak|preturi|tarife|harga|bang-gia|banggia|times|timologisi)(?:/|\.|$)`
	// trialMore: a free trial ("okres próbny", "provperiod", "zkušební",
	// "ücretsiz deneyin", "無料トライアル", "免费试用", "무료 체험") and "N days
	// free" in any language ("14 dni za darmo", "30 dní zdarma").
	trialMore = `|próbn|provperiod|testa gratis|prova gratis|zkušební|deneme|deneyin|トライアル|お試し|试用|体验|체험|` +
		`kokeile|kokeilu|prøv gratis|prøveperiode|próbaidő|kipróbál|perioada de probă|perioadă de probă|încearcă|uji coba|coba gratis|dùng thử|δοκιμή|` +
		`(?:^|[^\p{L}\d])\d{1,2}[ -]?(?:päivää|päivän|dage|dages|napig|napos|nap|zile|hari|ngày|ημερών|ημέρες)(?:[^\p{L}]|$)|` +
		`(?:^|[^\p{L}\d])\d{1,2}[ -]?(?:days?|dni|dní|dnů|dagar|gün|tage?n?|jours|días|dias|giorni|dagen)(?:[^\p{L}]|$)|\d{1,2}\s?(?:日間|天|일간|일)`
	// freeMore: free in those languages.
	freeMore = `|za darmo|darmow\p{L}*|bezpłatn\p{L}*|kostnadsfri\p{L}*|zdarma|bezplatn\p{L}*|ücretsiz|無料|免费|무료|ilmai\p{L}*|ingyenes\p{L}*|miễn phí|δωρεάν`
	// freePlan: a free plan named ("plan darmowy", "gratisplan",
	// "bezplatný tarif", "ücretsiz plan", "無料プラン", "免费版", "무료 플랜").
	freePlan = `|ilmai\p{L}* (?:paketti|pakettia|versio|tili)|gratis plan|ingyenes (?:csomag|csomagot|verzió|fiók)|plan gratuit|paket gratis|versi gratis|gói miễn phí|δωρεάν (?:πρόγραμμα|πακέτο|έκδοση)|plan darmowy|darmowy plan|gratisplan|gratis\s?version|bezplatný tarif|ücretsiz (?:plan|paket|sürüm)|無料プラン|フリープラン|免费版|免费套餐|무료 플랜|무료 요금제`
)

// aboutPathMore: about and company pages named in the languages without
// sentence patterns, as their paths are written (romanised or not).
const aboutPathMore = `|o-nas|onas|kim-jestesmy|o-firmie|om-oss|omoss|foretaget|företaget|o-firme|o-spolecnosti|hakkimizda|hakkımızda|biz-kimiz|kurumsal|kaisha|gaiyo|会社概要|guanyu|关于|jieshao|hoesa|소개`

// teamHeadingMore: a heading that introduces the team or its founders in
// those languages.
const teamHeadingMore = `|zespół|zespol|założyciel|zarząd|teamet|grundare|ledning|tým|zakladatel|vedení|ekib|kurucu|yönetim|チーム|創業者|経営陣|役員|团队|團隊|创始|創辦|管理层|팀|창업|경영진|구성원|メンバー|成员|成員|멤버`

// roleWordsMore are founders' and executives' titles in Polish, Swedish,
// Czech and Turkish, matched as words; cjkRoleRe those of Japanese, Chinese
// and Korean, matched inside runs of their scripts ("创始人兼 CEO").
const roleWordsMore = `|(?:współ)?założyciel(?:ka)?|prezes(?:ka)?(?: zarządu)?|dyrektor(?:ka)? (?:generaln[ya]|techniczn[ya]|zarządzając[ya]|operacyjn[ya])|` +
	`(?:med)?grundare|vd|verkställande direktör|teknikchef|(?:spolu)?zakladatel(?:ka)?|jednatel(?:ka)?|(?:výkonn|technick)[ýá] ředitel(?:ka)?|` +
	`kurucu(?: ortak)?|genel müdür|teknoloji direktörü`

var cjkRoleRe = lazyMustCompile(`代表取締役|取締役社長|共同創業者|創業者|社長|最高経営責任者|最高技術責任者|联合创始人|创始人|創辦人|首席执行官|首席技术官|总经理|董事长|대표이사|대표|공동창업자|공동 창업자|창업자|최고경영자|최고기술책임자`)

// foundingEntryRe: a history entry that is the company's founding
// ("Company founded", "Założenie spółki", "会社設立", "公司成立", "법인 설립").
var foundingEntryRe = lazyMustCompile(`(?i)^(?:company |the company |we were )?(?:founded|incorporated|established)\b|^(?:gründung|fondation|fundación|fondazione|oprichting|fundação)\b|` +
	`^założenie (?:spółki|firmy)|^grundande|^bolaget grundas|^založení (?:firmy|společnosti)|^şirket(?:in)? kuruluşu|^kuruluş|` +
	`会社設立|法人設立|創業|公司成立|成立公司|法人成立|법인 설립|회사 설립|창업`)

// negationRe: a line that denies ("no free plan", "kein kostenloser Tarif",
// "pas de version gratuite", "nie ma darmowego planu", "ücretsiz plan yok").
var negationRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(no|not|kein\p{L}*|pas de|sin|nessun\p{L}*|geen|sem|nie ma|brak|ingen|inget|inga|není|žádn\p{L}*|yok|yoktur|bulunmuyor|없|ei|nincs|nu avem|nu există|tidak ada|không có|δεν)(?:[^\p{L}]|$)|ありません|ございません|没有|不提供|없습니다|없음`)

// monthNamesMore are the month names (nominative and genitive, as dates
// write them) of Polish, Swedish, Czech and Turkish, January first, from
// CLDR; findDate reads them like those of the seven languages.
var monthNamesMore = [][]string{
	{"styczeń", "stycznia", "sty", "leden", "ledna", "ocak"},
	{"luty", "lutego", "lut", "únor", "února", "şubat"},
	{"marzec", "marca", "březen", "března", "mart"},
	{"kwiecień", "kwietnia", "kwi", "duben", "dubna", "nisan"},
	{"maj", "maja", "květen", "května", "mayıs"},
	{"czerwiec", "czerwca", "cze", "červen", "června", "haziran"},
	{"lipiec", "lipca", "lip", "červenec", "července", "temmuz"},
	{"sierpień", "sierpnia", "sie", "augusti", "srpen", "srpna", "ağustos"},
	{"wrzesień", "września", "wrz", "září", "eylül"},
	{"październik", "października", "paź", "říjen", "října", "ekim"},
	{"listopad", "listopada", "lis", "listopadu", "kasım"},
	{"grudzień", "grudnia", "gru", "prosinec", "prosince", "aralık"},
}

// cjkDateRe: a date written with 年/月/日 (Japanese, Chinese) or 년/월/일
// (Korean): "2021年3月", "2018年4月1日", "2021년 3월", "2022년 9월 15일".
var cjkDateRe = lazyMustCompile(`((?:19|20)\d\d)\s?[年년]\s?(\d{1,2})\s?[月월](?:\s?(\d{1,2})\s?[日일])?`)

func cjkDateString(m []string) string {
	mo, _ := strconv.Atoi(m[2])
	d := 1
	if m[3] != "" {
		d, _ = strconv.Atoi(m[3])
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 {
		return m[1] + "-01-01"
	}
	return fmt.Sprintf("%s-%02d-%02d", m[1], mo, d)
}

// faqHdrMore: an FAQ heading in the wordless languages ("Często zadawane
// pytania", "Vanliga frågor", "Časté dotazy", "Sıkça sorulan sorular",
// "よくある質問", "常见问题", "常見問題", "자주 묻는 질문").
const faqHdrMore = `|zadawane pytania|najczęstsze pytania|vanliga frågor|frågor och svar|časté dotazy|často kladené dotazy|sıkça sorulan sorular|sık sorulan sorular|` +
	`よくある質問|よくあるご質問|常见问题|常見問題|常见问答|자주 묻는 질문|자주 하는 질문`

// historyHdrMore: a company history or timeline heading in the wordless
// languages ("Historia firmy", "Vår historia", "Historie", "Tarihçe",
// "沿革", "연혁", "发展历程").
const historyHdrMore = `|historiamme|virstanpylvä\p{L}*|vores historie|milepæle|történet\p{L}*|mérföldkövek|istoric|istoria noastră|repere|perjalanan|sejarah|tonggak|lịch sử|hành trình|cột mốc|ιστορία|ιστορικό|ορόσημα|kamienie milowe|historia firmy|vår historia|milstolpar|historie|milníky|tarihçe|tarihçemiz|kilometre taşları|沿革|歩み|発展|历程|歷程|大事记|大事記|里程碑|연혁|발자취`

// namePriceRe: a plan's name, a colon and its price ("Základ: 149 Kč").
var namePriceRe = lazyMustCompile(`^([^:：]{1,30})[:：]\s*(.+)$`)

// featureHdrMore: a features heading in the wordless languages.
const featureHdrMore = `|özellikler|funkcje|możliwości|funktioner|funkce|機能|功能|기능`

// categoryTermsMore are words of Polish, Swedish, Czech, Turkish, Japanese,
// Chinese and Korean that show a product's category, by slug; they add to
// categoryTermsCore. Terms in Han, Kana or Hangul match inside longer runs of
// those scripts (termsRe).
var categoryTermsMore = map[string][]string{
	"ai-tools":                {"sztuczną inteligencj*", "sztuczna inteligencja", "artificiell intelligens", "umělá inteligence", "umělou inteligenc*", "yapay zeka", "人工知能", "人工智能", "인공지능"},
	"writing-assistants":      {"asystent pisania", "skrivassistent", "asistent psaní", "yazı asistanı", "文章作成", "写作助手", "글쓰기"},
	"image-generation":        {"generowanie obrazów", "bildgenerering", "generování obrázků", "görsel oluştur*", "画像生成", "图像生成", "이미지 생성"},
	"ai-agents":               {"agent ai", "agenci ai", "ai-agent*", "ai agentů", "yapay zeka ajan*", "aiエージェント", "智能体", "ai 에이전트"},
	"invoicing":               {"faktur*", "wystawianie faktur", "fakturering", "fakturace", "fatura*", "請求書", "发票", "開票", "인보이스", "청구서", "세금계산서"},
	"accounting":              {"księgowoś*", "bokföring*", "účetnictví", "muhasebe*", "会計", "会计", "记账", "회계"},
	"expense-tracking":        {"wydatk*", "utlägg", "výdaj*", "masraf*", "経費", "报销", "费用管理", "경비"},
	"time-tracking":           {"ewidencja czasu", "czas pracy", "tidrapport*", "docházk*", "mesai takibi", "puantaj", "勤怠", "考勤", "工时", "근태", "출퇴근", "근무 시간", "çalışma saat*", "arbetstid*", "pracovní dob*"},
	"calendar-scheduling":     {"rezerwacj*", "umawianie wizyt", "grafik pracy", "grafiki pracy", "grafików pracy", "planowanie zmian", "tidsbokning", "bokningssystem", "schemaläggning", "rezervac*", "plánování směn", "randevu*", "vardiya planla*", "予約", "シフト管理", "预约", "排班", "예약", "근무표"},
	"school-administration":   {"rozvrh*", "plan lekcji", "dziennik elektroniczny", "skolschema", "ders programı", "時間割", "课程表", "排课", "시간표"},
	"transcription":           {"transkrypcj*", "mötesanteckningar", "přepis*", "toplantı notları", "議事録", "文字起こし", "会议纪要", "会议记录", "회의록", "녹취"},
	"crm":                     {"zarządzanie klientami", "kundhantering", "kundregister", "správa zákazníků", "müşteri yönetimi", "müşteri ilişkileri", "顧客管理", "客户管理", "고객 관리"},
	"help-desk":               {"helpdesk", "obsługa klienta", "zgłoszeń", "zgłoszenia", "ärendehantering", "kundtjänst", "požadavků zákazníků", "zákaznická podpora", "tiket*", "destek talebi", "müşteri desteği", "yardım masası", "destek masası", "問い合わせ管理", "ヘルプデスク", "工单", "客服系统", "헬프데스크", "고객 문의"},
	"live-chat":               {"czat na stronie", "czat na żywo", "livechatt", "živý chat", "canlı destek", "canlı sohbet", "チャットサポート", "在线客服", "실시간 채팅"},
	"task-management":         {"zarządzanie zadaniami", "zarządzanie projektami", "projektledning", "uppgiftshantering", "správa úkolů", "görev yönetimi", "proje yönetimi", "タスク管理", "任务管理", "项目管理", "업무 관리", "프로젝트 관리"},
	"note-taking":             {"notatk*", "anteckningar", "anteckningsapp", "poznámk*", "not alma", "not defteri", "メモアプリ", "ノートアプリ", "笔记", "筆記", "메모 앱", "노트 앱"},
	"online-courses":          {"kursy online", "kursów online", "kurser online", "online kurzy", "online kurs*", "オンライン講座", "在线课程", "온라인 강의"},
	"language-learning":       {"nauka języków", "nauki języków", "språkinlärning", "lära sig språk", "učení jazyků", "dil öğren*", "語学", "学习语言", "外语学习", "어학", "외국어 학습"},
	"flashcards":              {"fiszk*", "flashkort", "glosor", "glosförhör", "kartič*", "bilgi kart*", "単語カード", "暗記カード", "闪卡", "单词卡", "암기 카드", "플래시카드"},
	"email-marketing":         {"newsletter*", "mailing", "nyhetsbrev", "e-postutskick", "e-postmarknadsföring", "e-mailing", "hromadné e-maily", "e-posta pazarlama*", "bülten", "メルマガ", "メール配信", "メールマーケティング", "邮件营销", "边件营销", "이메일 마케팅", "뉴스레터"},
	"social-media-management": {"media społecznościow*", "sociala medier", "sociální sít*", "sosyal medya", "ソーシャルメディア", "sns運用", "社交媒体", "소셜 미디어", "sns 관리"},
	"web-analytics":           {"analityka internetowa", "statystyki strony", "webbanalys", "webová analytika", "web analiti*", "アクセス解析", "网站分析", "웹 분석"},
	"seo-tools":               {"pozycjonowanie", "sökmotoroptimering", "optimalizace pro vyhledávače", "arama motoru optimizasyonu", "検索エンジン最適化", "搜索引擎优化", "검색엔진 최적화"},
	"video-editing":           {"edycja wideo", "montaż wideo", "napisy do filmów", "videoredigering", "undertexter", "střih videa", "úpravy vide*", "titulky", "video düzenle*", "altyazı", "動画編集", "字幕", "视频剪辑", "剪辑", "視頻剪輯", "영상 편집", "자막"},
	"ui-design":               {"projektowanie interfejsów", "gränssnittsdesign", "návrh rozhraní", "arayüz tasarım*", "ワイヤーフレーム", "原型设计", "프로토타입"},
	"design-assets":           {"ikony", "ikoner", "ikonlar", "アイコン素材", "图标", "아이콘"},
	"databases":               {"baza danych", "bazy danych", "databas*", "databáz*", "veritabanı", "データベース", "数据库", "데이터베이스"},
	"devops-monitoring":       {"monitorowanie", "övervakning", "monitorování", "izleme", "監視", "监控", "모니터링"},
	"testing-qa":              {"testy automatyczne", "automatiserade tester", "automatizované testy", "otomatik test*", "自動テスト", "自动化测试", "자동화 테스트"},
}
