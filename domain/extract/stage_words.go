package extract

import (
	"strconv"
	"strings"
	"unicode"
)

// Stage stated in any language: traction (a count of users or customers,
// the stage growing from 1,000 on, as the directory's stages go: 1,000 users
// is growing), a public launch, an open or closed beta. Word lists, but the
// counts and markers are the forms sites use in every language.

// countPattern: a count as sites write it ("1 200", "4,000+", "5.000",
// "20 000", "2万", "3만").
const countPattern = `(\d{1,3}(?:[ ,.\x{00A0}\x{202F}]\d{3})+|\d+)\s?(万|萬|만|k\b|K\b)?\+?`

// tractionNouns: whom a count counts (users, customers, companies, teams,
// schools, shops, creators) in the fourteen languages.
const tractionNouns = `companies|teams|businesses|customers|clubs|schools|users|people|firms|agencies|shops|stores|organi[sz]ations|creators|members|` +
	`freelancers|developers|designers|writers|authors|students|teachers|clinics|restaurants|families|households|` +
	`unternehmen|kunden|nutzer\p{L}*|firmen|vereine|schulen|entreprises|équipes|clients|utilisateurs|associations|écoles|` +
	`empresas|equipos|clientes|usuarios|negocios|aziende|clienti|utenti|scuole|bedrijven|klanten|gebruikers|scholen|equipes|usuários|escolas|` +
	`firm|firmy|użytkownik\p{L}*|klient\p{L}*|zespoł\p{L}*|twórc\p{L}*|szkół|sklep\p{L}*|` +
	`företag|användare|kunder|föreningar|skolor|butiker|team|` +
	`firem|uživatel\p{L}*|zákazník\p{L}*|týmů|e-shop\p{L}*|škol|` +
	`şirket\p{L}*|işletme\p{L}*|kullanıcı\p{L}*|müşteri\p{L}*|ekip\p{L}*|kurum\p{L}*|okul\p{L}*` +
	// Finnish, Danish, Hungarian, Romanian, Indonesian, Vietnamese, Greek
	`|yritystä|yritys\p{L}*|käyttäjää|käyttäjä\p{L}*|asiakasta|tiimiä|virksomheder|brugere|cég\p{L}*|felhasználó\p{L}*|vállalkozás\p{L}*|ügyfél\p{L}*|` +
	`companii|utilizatori|clienți|firme|echipe|pengguna|perusahaan|bisnis|usaha|UMKM|pelanggan|doanh nghiệp|người dùng|khách hàng|công ty|` +
	`εταιρείες|εταιρίες|χρήστες|πελάτες|επιχειρήσεις|ομάδες`

var (
	// tractionRe: "used by more than 2,000 teams", "4,000+ teams use",
	// "ponad 1 200 firm", "över 2 500 föreningar", "přes 3 000 e-shopů",
	// "1.000'den fazla işletme", "導入企業 5,000社以上", "5,000社以上",
	// "超过 20,000 名创作者", "1,000개 이상의 기업". The count is the first group.
	tractionRe = lazyMustCompile(`(?i)(?:(?:used|trusted|loved|chosen|relied on|preferred)(?: daily)? by (?:more than |over |)` + countPattern + ` (?:` + tractionNouns + `)` +
		`|(?:^|[^\p{L}\d])` + countPattern + ` (?:` + tractionNouns + `) (?:already )?(?:use|trust|rely on|love|choose)\b` +
		`|(?:ponad|przeszło|więcej niż|över|mer än|přes|více než|plus de|mehr als|über|más de|oltre|meer dan|mais de|yli|több mint|peste|lebih dari|hơn|περισσότερ\p{L}* από)\s+` + countPattern + `\s+(?:` + tractionNouns + `)` +
		// a verb of use before the count says whom it counts, whatever the noun:
		// "korzysta już ponad 3 500 gabinetów", "används av över 800 kliniker".
		`|(?:korzysta\p{L}*|używa\p{L}*|zaufało|används av|använder|používá\p{L}*|použív\p{L}*|využív\p{L}*)(?:\s+\p{L}+){0,3}\s+(?:ponad|przeszło|więcej niż|över|mer än|přes|více než)\s+` + countPattern + `\s+\p{L}{3,}` +
		// "Join 10,000+ teams", "Rejoignez plus de 2 000 équipes": the count of those already there
		`|(?:join|rejoignez|únete a|unisciti a|junte-se a|sluit je aan bij)\s+(?:more than |over |plus de |más de |oltre |mais de |meer dan )?` + countPattern + `\s+(?:` + tractionNouns + `)` +
		`|` + countPattern + `['’]?(?:den|dan|ten|tan)? fazla (?:` + tractionNouns + `)` +
		`|導入(?:企業|社数|実績)?(?:数)?\s?` + countPattern + `\s?社` +
		`|` + countPattern + `\s?(?:社|名|人|店舗)以上` +
		// "利用企業数は1,200社を超えました": a count of users passed
		`|(?:利用|導入|登録|会員|ユーザー)[^\d。]{0,6}` + countPattern + `\s?(?:社|人|名|店舗)を?超え` +
		// "累計ダウンロード数は120万件を突破", "会員数10万人突破": a count passed
		`|(?:ダウンロード|利用者|ユーザー|会員|登録者|導入)[^\d。]{0,6}` + countPattern + `\s?(?:件|人|名|社|DL|ダウンロード)?を?突破` +
		`|(?:超过|超過|逾|已有|累计)\s?` + countPattern + `\s?(?:名|家|位|个|個|万)` +
		`|` + countPattern + `\s?(?:개|명|곳)?\s?이상의?\s?(?:기업|고객|사용자|팀|회사|학교|매장)` +
		`|(?:누적|가입자|사용자)\s?` + countPattern + `\s?(?:명|개)?)`)

	// launchedMore: a public launch in the languages without sentence
	// patterns ("od startu w 2021 roku", "sedan lanseringen 2019",
	// "herkese açık olarak yayına girdi", "正式上线").
	launchedMore = lazyMustCompile(`(?i)od startu w (?:19|20)\d\d|od premiery|sedan lanseringen|lanserades (?:19|20)\d\d|lanserades offentligt|` +
		`od spuštění|spuštěn\p{L}* veřejně|herkese açık olarak yayın|yayına (?:girdi|girdik|başladı)|yayına aldı\p{L}*|` +
		`正式リリース|正式版をリリース|正式上线|正式发布|正式上線|정식 출시|정식 서비스|` +
		`サービス(?:の)?提供を開始|サービスを開始し|サービスを開始いたし|正式推出|정식 오픈|정식 런칭|서비스를 오픈|` +
		// Danish, Finnish, Hungarian, Romanian, Indonesian, Vietnamese, Greek
		`siden vi lancerede|lanceret offentligt|officielt lanceret|julkaistiin yleisesti|lanseerattiin|hivatalosan elindult|nyilvánosan elindult|` +
		`lansat public|lansat oficial|lansare publică|resmi diluncurkan|diluncurkan secara resmi|chính thức ra mắt|ra mắt chính thức|κυκλοφόρησε επίσημα|επίσημη κυκλοφορία|` +
		// version 1.0 released ("Tessel 1.0 was released in June 2024"), general
		// availability ("seit Mai 2024 für alle Betriebe verfügbar", "一般提供を開始")
		`\b1\.0(?:\.0)? (?:was|has been) released\b|\bversion 1\.0(?:\.0)? is (?:out|here|available)\b|` +
		`seit [^.]{0,30}?für alle(?: \p{L}+)? verfügbar|(?:jetzt|nun) allgemein verfügbar|一般提供を開始|一般提供開始`)

	// betaMore: an open or closed beta said as such ("w otwartej becie",
	// "i öppen beta", "v otevřené betě", "açık beta", "オープンベータ",
	// "公测", "오픈 베타").
	betaMore = lazyMustCompile(`(?i)otwart\p{L}* (?:becie|beta|wersji beta)|zamknięt\p{L}* (?:becie|beta)|w fazie beta|` +
		`(?:öppen|öppna|stängd|sluten) beta|otevřené betě|otevřená beta|uzavřené betě|veřejné betě|` +
		`açık beta|kapalı beta|beta aşamasında|オープンベータ|クローズドベータ|β版|公测|内测|公開ベータ|오픈 베타|클로즈드 베타|비공개 베타|공개 베타|` +
		`beta sürüm\p{L}* yayında|베타 서비스|베타 기간|베타 테스트 중|` +
		// early access said of the product ("Carnetvet est en accès anticipé")
		`\b(?:is|are|now|currently|still) in early access\b|en accès anticipé|en acceso anticipado|in accesso anticipato|em acesso antecipado|` +
		`avoi\p{L}* beta\p{L}*|avoi\p{L}* beeta\p{L}*|suljet\p{L}* beeta\p{L}*|åben beta|lukket beta|nyilvános bét\p{L}*|nyílt bét\p{L}*|zárt bét\p{L}*|` +
		`beta publică|beta privată|beta deschisă|beta închisă|beta terbuka|beta tertutup|beta mở|beta kín|beta công khai|ανοιχτή beta|κλειστή beta`)
)

var countRe = lazyMustCompile(countPattern)

// tractionCount returns the count a traction match states.
func tractionCount(m string) int {
	loc := countRe.FindStringSubmatch(m)
	if loc == nil {
		return 0
	}
	digits := strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, loc[1])
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0
	}
	switch strings.ToLower(loc[2]) {
	case "万", "萬", "만":
		n *= 10000
	case "k":
		n *= 1000
	}
	return n
}

// limitWord: a preposition that makes the count after it a plan's limit
// ("pour plus de 100 utilisateurs", "for over 50 users", "do ponad 10").
var limitWord = lazyMustCompile(`(?i)(?:^|[^\p{L}])(?:for|up to|pour|jusqu'à|für|bis zu|para|hasta|per|fino a|voor|tot|até|dla|do|för|upp till|pro|až|için|kadar)\s*$`)

// limitBefore reports whether the text before a count ends with a limit's preposition.
func limitBefore(before string) bool {
	return limitWord.MatchString(before)
}
