import RatesCore

/// Every source, by its key (Frankfurter's: `ECB`, `NBP`, …): the one list of sources.
///
/// Each source's facts are one row of ``entries`` (``ProviderIdentity``: key, name, country, the
/// currencies it issues, pivot, rate type, schedule, endpoints, tier, history start, API-key need,
/// validity), and everything else that needs the sources derives from it: the merge's precedence
/// (each entry's ``Tier``, then its place in the list), what a server fetches, `/v1/providers` and
/// `/v2/providers`, the metrics' labels, and the schedule the merged dataset's freshness follows
/// (``referenceSchedule``); a test checks docs/PROVIDERS.md against it. Adding a source is its
/// adapter, its recordings, its tests and one row here (docs/NEW_PROVIDER.md).
///
/// FRED, BANXICO, BOT, BAM and BCCH need an API key: without one they are off (``select(enabled:apiKeys:)``)
/// and ``make(key:baseURL:apiKey:)`` refuses them; reading their answers needs none (``Entry/adapter``).
public enum ProviderRegistry {
    /// Where a source stands in the merge's precedence, before its place within the tier.
    ///
    /// For a currency, the first tier wins; the currency's issuer (``Entry/issues``) and then its
    /// declared peg come right after ``reference``, whatever the issuer's own tier; a source whose
    /// figures for a currency are typically far from the others' ranks below every source that is
    /// not (docs/MERGE.md).
    public enum Tier: Int, Comparable, Sendable {
        /// The ECB's euro reference rates: first for every currency it quotes.
        case reference
        /// Banca d'Italia: about 150 currencies per EUR, fixed from the same ECB concertation.
        case broad
        /// Other European central banks, whose daily fixings are taken around the ECB's 14:15 CET
        /// concertation and quote EUR themselves.
        case europe
        /// Central banks elsewhere.
        case elsewhere
        /// USD-pivot series: they price other currencies only through the dollar or with a lag.
        case dollarSeries
        /// Sources of retired currencies' history (the Bundesbank's DEM since 1948): the days before
        /// the euro, and currencies no daily source quotes any more.
        case historical
        /// Monthly and quarterly figures (HMRC, the US Treasury, the BIS), served for the period they
        /// are valid for: below every daily figure.
        case periodic
        /// Declared fixed parities (pegs): last, and never in the consensus check.
        case peg

        public static func < (left: Tier, right: Tier) -> Bool { left.rawValue < right.rawValue }
    }

    /// One source: its row of facts and its adapter.
    public struct Entry: Sendable {
        /// Who the source is and how its figures are taken.
        public let identity: ProviderIdentity
        /// The adapter with its default endpoints, no API key and the system clock: what reading
        /// files (an import) needs. Made when asked for, so that a start, which reads every row,
        /// runs no adapter's code (each brings its neighbouring code into memory with it).
        public var adapter: any RatesProvider { identity.adapterType.init(source: ProviderSource(identity: identity)) }

        /// ``ProviderIdentity/key``.
        public var key: String { identity.key }
        /// ``ProviderIdentity/tier``.
        public var tier: Tier { identity.tier }
        /// ``ProviderIdentity/issues``.
        public var issues: [CurrencyCode] { identity.issues }
        /// ``ProviderIdentity/needsAPIKey``.
        public var needsAPIKey: Bool { identity.needsAPIKey }
        /// ``ProviderIdentity/pivot``.
        public var pivot: CurrencyCode { identity.pivot }
        /// ``ProviderIdentity/publishesInParts``.
        public var publishesInParts: Bool { identity.publishesInParts }
    }

    /// Every source, tier by tier, in the order of precedence within each (also the order of listing and fetching).
    public static let entries = rows.map { Entry(identity: $0) }

    /// The table: one ``ProviderIdentity`` a source, in the order of ``entries``.
    private static let rows: [ProviderIdentity] = [
        // Its 30 or so currencies never moved 5x between two publications since 1999 (``ProviderValidation/maxRateMove``).
        ProviderIdentity(
            ECBProvider.self, ProviderKey.ecb, "European Central Bank", country: "EU", .reference, issues: ["EUR"], pivot: "EUR",
            schedule: PublicationSchedule.ecbReferenceRates, baseURL: "https://www.ecb.europa.eu/stats/eurofxref/",
            maxRateMove: ProviderValidation.maxRateMove),
        ProviderIdentity(
            BDIProvider.self, "BDI", "Banca d'Italia", country: "IT", .broad, issues: [], pivot: "EUR",
            rateType: "exchange rate against the euro", schedule: PublicationSchedule(timeZone: "Europe/Rome", expectedMinute: 17 * 60),
            baseURL: "https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0"),
        // Table B's currencies stay out of the four daily table A publications between two Wednesdays.
        ProviderIdentity(
            NBPProvider.self, "NBP", "National Bank of Poland", country: "PL", .europe, issues: ["PLN"], pivot: "PLN",
            rateType: "average rate", schedule: PublicationSchedule(timeZone: "Europe/Warsaw", expectedMinute: 12 * 60 + 15),
            baseURL: "https://api.nbp.pl/api/exchangerates", publishesInParts: true),
        ProviderIdentity(
            CNBProvider.self, "CNB", "Czech National Bank", country: "CZ", .europe, issues: ["CZK"], pivot: "CZK",
            rateType: "exchange rate fixing", schedule: PublicationSchedule(timeZone: "Europe/Prague", expectedMinute: 14 * 60 + 30),
            baseURL: "https://www.cnb.cz/cs/financni-trhy/devizovy-trh/kurzy-devizoveho-trhu/kurzy-devizoveho-trhu",
            historyStart: Day(year: 1991, month: 1, day: 1)!),
        ProviderIdentity(
            DNBProvider.self, "DNB", "Danmarks Nationalbank", country: "DK", .europe, issues: ["DKK"], pivot: "DKK",
            rateType: "indicative rate", schedule: PublicationSchedule(timeZone: "Europe/Copenhagen", expectedMinute: 16 * 60),
            baseURL: "https://www.nationalbanken.dk", historyStart: Day(year: 1977, month: 1, day: 3)!),
        ProviderIdentity(
            NBProvider.self, "NB", "Norges Bank", country: "NO", .europe, issues: ["NOK"], pivot: "NOK", rateType: "middle rate",
            schedule: PublicationSchedule(timeZone: "Europe/Oslo", expectedMinute: 16 * 60), baseURL: "https://data.norges-bank.no/api"),
        ProviderIdentity(
            RBProvider.self, "RB", "Sveriges Riksbank", country: "SE", .europe, issues: ["SEK"], pivot: "SEK", rateType: "indicative rate",
            schedule: PublicationSchedule(timeZone: "Europe/Stockholm", expectedMinute: 16 * 60 + 15),
            baseURL: "https://api.riksbank.se/swea/v1", historyStart: Day(year: 1993, month: 1, day: 4)!),
        ProviderIdentity(
            MNBProvider.self, "MNB", "Magyar Nemzeti Bank", country: "HU", .europe, issues: ["HUF"], pivot: "HUF",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Europe/Budapest", expectedMinute: 12 * 60),
            baseURL: "http://www.mnb.hu/arfolyamok.asmx"),
        ProviderIdentity(
            BNRProvider.self, "BNR", "National Bank of Romania", country: "RO", .europe, issues: ["RON"], pivot: "RON",
            schedule: PublicationSchedule(timeZone: "Europe/Bucharest", expectedMinute: 13 * 60 + 15),
            baseURL: "https://curs.bnr.ro"),
        ProviderIdentity(
            SBIProvider.self, "SBI", "Central Bank of Iceland", country: "IS", .europe, issues: ["ISK"], pivot: "ISK",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Atlantic/Reykjavik", expectedMinute: 11 * 60),
            baseURL: "https://sedlabanki.is/xmltimeseries/Default.aspx", historyStart: Day(year: 1981, month: 1, day: 1)!),
        ProviderIdentity(
            NBUProvider.self, "NBU", "National Bank of Ukraine", country: "UA", .europe, issues: ["UAH"], pivot: "UAH",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Europe/Kyiv", expectedMinute: 15 * 60 + 30),
            baseURL: "https://bank.gov.ua"),
        ProviderIdentity(
            NBRBProvider.self, "NBRB", "National Bank of the Republic of Belarus", country: "BY", .europe, issues: ["BYN"], pivot: "BYN",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Europe/Minsk", expectedMinute: 12 * 60),
            baseURL: "https://api.nbrb.by/exrates", historyStart: Day(year: 2016, month: 7, day: 1)!),
        ProviderIdentity(
            CBRProvider.self, "CBR", "Bank of Russia", country: "RU", .europe, issues: ["RUB"], pivot: "RUB", rateType: "official rate",
            schedule: PublicationSchedule(timeZone: "Europe/Moscow", expectedMinute: 13 * 60), baseURL: "https://www.cbr.ru",
            publishesInParts: true),
        ProviderIdentity(
            TCMBProvider.self, "TCMB", "Central Bank of the Republic of Türkiye", country: "TR", .europe, issues: ["TRY"], pivot: "TRY",
            rateType: "midpoint of the indicative buying and selling rates",
            schedule: PublicationSchedule(timeZone: "Europe/Istanbul", expectedMinute: 15 * 60 + 30),
            baseURL: "https://www.tcmb.gov.tr/kurlar", historyStart: Day(year: 1996, month: 4, day: 16)!),
        ProviderIdentity(
            NBGProvider.self, "NBG", "National Bank of Georgia", country: "GE", .europe, issues: ["GEL"], pivot: "GEL",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Asia/Tbilisi", expectedMinute: 17 * 60 + 15),
            baseURL: "https://nbg.gov.ge/gw/api/ct/monetarypolicy", historyStart: Day(year: 1995, month: 10, day: 14)!),
        ProviderIdentity(
            BOEProvider.self, "BOE", "Bank of England", country: "GB", .europe, issues: ["GBP"], pivot: "GBP", rateType: "spot rate",
            schedule: PublicationSchedule(timeZone: "Europe/London", expectedMinute: 16 * 60 + 30),
            baseURL: "https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp"),
        ProviderIdentity(
            NBRMProvider.self, "NBRM", "National Bank of the Republic of North Macedonia", country: "MK", .europe, issues: ["MKD"],
            pivot: "MKD", rateType: "middle rate",
            schedule: PublicationSchedule(timeZone: "Europe/Skopje", weekdays: [1, 2, 3, 4, 5, 6, 7], expectedMinute: 12 * 60),
            baseURL: "https://www.nbrm.mk", historyStart: Day(year: 1993, month: 1, day: 1)!),
        ProviderIdentity(
            CBBHProvider.self, "CBBH", "Central Bank of Bosnia and Herzegovina", country: "BA", .europe, issues: ["BAM"], pivot: "BAM",
            rateType: "middle rate", schedule: PublicationSchedule(timeZone: "Europe/Sarajevo", expectedMinute: 16 * 60),
            baseURL: "https://www.cbbh.ba", historyStart: Day(year: 1997, month: 8, day: 11)!),
        ProviderIdentity(
            BNBProvider.self, "BNB", "Bulgarian National Bank", country: "BG", .europe, issues: ["BGN"], pivot: "BGN",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Europe/Sofia", expectedMinute: 18 * 60),
            baseURL: "https://www.bnb.bg"),
        ProviderIdentity(
            NBMProvider.self, "NBM", "National Bank of Moldova", country: "MD", .europe, issues: ["MDL"], pivot: "MDL",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Europe/Chisinau", expectedMinute: 16 * 60),
            baseURL: "https://www.bnm.md"),
        ProviderIdentity(
            BSHProvider.self, "BSH", "Bank of Albania", country: "AL", .europe, issues: ["ALL"], pivot: "ALL",
            rateType: "official exchange rate", schedule: PublicationSchedule(timeZone: "Europe/Tirane", expectedMinute: 12 * 60 + 15),
            baseURL: "https://www.bankofalbania.org"),
        ProviderIdentity(
            HNBProvider.self, "HNB", "Croatian National Bank", country: "HR", .europe, issues: ["HRK"], pivot: "EUR",
            rateType: "middle rate", schedule: PublicationSchedule(timeZone: "Europe/Zagreb", expectedMinute: 13 * 60),
            baseURL: "https://api.hnb.hr"),
        ProviderIdentity(
            BANXICOProvider.self, "BANXICO", "Banco de México", country: "MX", .elsewhere, issues: ["MXN"], pivot: "MXN",
            rateType: "FIX rate", schedule: PublicationSchedule(timeZone: "America/Mexico_City", expectedMinute: 12 * 60 + 30),
            baseURL: "https://www.banxico.org.mx/SieAPIRest/service/v1", historyStart: Day(year: 1991, month: 11, day: 12)!,
            needsAPIKey: true),
        ProviderIdentity(
            BCBProvider.self, "BCB", "Banco Central do Brasil", country: "BR", .elsewhere, issues: ["BRL"], pivot: "BRL",
            rateType: "midpoint of the PTAX closing buying and selling rates",
            schedule: PublicationSchedule(timeZone: "America/Sao_Paulo", expectedMinute: 13 * 60 + 15),
            baseURL: "https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata"),
        ProviderIdentity(
            BNMProvider.self, "BNM", "Bank Negara Malaysia", country: "MY", .elsewhere, issues: ["MYR"], pivot: "MYR",
            rateType: "middle rate (the exact midpoint of buying and selling where no middle rate is published)",
            schedule: PublicationSchedule(timeZone: "Asia/Kuala_Lumpur", expectedMinute: 12 * 60),
            baseURL: "https://api.bnm.gov.my/public"),
        ProviderIdentity(
            BOCProvider.self, "BOC", "Bank of Canada", country: "CA", .elsewhere, issues: ["CAD"], pivot: "CAD",
            rateType: "indicative rate", schedule: PublicationSchedule(timeZone: "America/Toronto", expectedMinute: 16 * 60 + 30),
            baseURL: "https://www.bankofcanada.ca/valet"),
        ProviderIdentity(
            BOIProvider.self, "BOI", "Bank of Israel", country: "IL", .elsewhere, issues: ["ILS"], pivot: "ILS",
            rateType: "representative rate", schedule: PublicationSchedule(timeZone: "Asia/Jerusalem", expectedMinute: 15 * 60 + 30),
            baseURL: "https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/"),
        ProviderIdentity(
            BOTProvider.self, "BOT", "Bank of Thailand", country: "TH", .elsewhere, issues: ["THB"], pivot: "THB",
            rateType: "commercial banks' average middle rate",
            schedule: PublicationSchedule(timeZone: "Asia/Bangkok", expectedMinute: 18 * 60), baseURL: "https://gateway.api.bot.or.th",
            needsAPIKey: true),
        ProviderIdentity(
            CBUProvider.self, "CBU", "Central Bank of Uzbekistan", country: "UZ", .elsewhere, issues: ["UZS"], pivot: "UZS",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Asia/Tashkent", expectedMinute: 14 * 60),
            baseURL: "https://cbu.uz/en/arkhiv-kursov-valyut", historyStart: Day(year: 1994, month: 7, day: 1)!),
        ProviderIdentity(
            FBILProvider.self, "FBIL", "Financial Benchmarks India", country: "IN", .elsewhere, issues: ["INR"], pivot: "INR",
            schedule: PublicationSchedule(timeZone: "Asia/Kolkata", expectedMinute: 13 * 60 + 30),
            baseURL: "https://www.fbil.org.in/wasdm/refrates/fetchfiltered"),
        ProviderIdentity(
            HKMAProvider.self, "HKMA", "Hong Kong Monetary Authority", country: "HK", .elsewhere, issues: ["HKD"], pivot: "HKD",
            rateType: "market rate", schedule: PublicationSchedule(timeZone: "Asia/Hong_Kong", expectedMinute: 11 * 60, cadence: .monthly),
            baseURL: "https://api.hkma.gov.hk/public", historyStart: Day(year: 1981, month: 1, day: 2)!),
        ProviderIdentity(
            NBKProvider.self, "NBK", "National Bank of Kazakhstan", country: "KZ", .elsewhere, issues: ["KZT"], pivot: "KZT",
            rateType: "official (market) rate", schedule: PublicationSchedule(timeZone: "Asia/Almaty", expectedMinute: 15 * 60 + 30),
            baseURL: "https://nationalbank.kz/rss/get_rates.cfm"),
        ProviderIdentity(
            RBAProvider.self, "RBA", "Reserve Bank of Australia", country: "AU", .elsewhere, issues: ["AUD"], pivot: "AUD",
            rateType: "indicative rate", schedule: PublicationSchedule(timeZone: "Australia/Sydney", expectedMinute: 16 * 60 + 30),
            baseURL: "https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv"),
        ProviderIdentity(
            AMCMProvider.self, "AMCM", "Monetary Authority of Macao", country: "MO", .elsewhere, issues: ["MOP"], pivot: "MOP",
            rateType: "interbank middle rate", schedule: PublicationSchedule(timeZone: "Asia/Macau", expectedMinute: 11 * 60),
            baseURL: "https://www.amcm.gov.mo"),
        ProviderIdentity(
            BAMProvider.self, "BAM", "Bank Al-Maghrib", country: "MA", .elsewhere, issues: ["MAD"], pivot: "MAD",
            rateType: "transfer rate", schedule: PublicationSchedule(timeZone: "Africa/Casablanca", expectedMinute: 15 * 60),
            baseURL: "https://api.centralbankofmorocco.ma", needsAPIKey: true),
        ProviderIdentity(
            BANREPProvider.self, "BANREP", "Banco de la República", country: "CO", .elsewhere, issues: ["COP"], pivot: "COP",
            rateType: "representative market rate", schedule: PublicationSchedule(timeZone: "America/Bogota", expectedMinute: 18 * 60),
            baseURL: "https://www.datos.gov.co/resource/32sa-8pi3.json"),
        ProviderIdentity(
            BCCProvider.self, "BCC", "Banco Central de Cuba", country: "CU", .elsewhere, issues: ["CUP"], pivot: "CUP",
            rateType: "informal market rate",
            schedule: PublicationSchedule(timeZone: "America/Havana", weekdays: Set(1...7), expectedMinute: 0),
            baseURL: "https://api.bc.gob.cu/v1/tasas-de-cambio"),
        ProviderIdentity(
            BCCHProvider.self, "BCCH", "Banco Central de Chile", country: "CL", .elsewhere, issues: ["CLP"], pivot: "CLP",
            rateType: "observed rate", schedule: PublicationSchedule(timeZone: "America/Santiago", expectedMinute: 13 * 60),
            baseURL: "https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx", needsAPIKey: true),
        ProviderIdentity(
            BCRAProvider.self, "BCRA", "Banco Central de la República Argentina", country: "AR", .elsewhere, issues: ["ARS"], pivot: "ARS",
            schedule: PublicationSchedule(timeZone: "America/Argentina/Buenos_Aires", expectedMinute: 13 * 60),
            baseURL: "https://api.bcra.gob.ar/estadisticascambiarias/v1.0"),
        ProviderIdentity(
            BNAProvider.self, "BNA", "Banco Nacional de Angola", country: "AO", .elsewhere, issues: ["AOA"], pivot: "AOA",
            schedule: PublicationSchedule(timeZone: "Africa/Luanda", expectedMinute: 16 * 60),
            baseURL: "https://www.bna.ao/service/rest/taxas"),
        ProviderIdentity(
            BNRRWProvider.self, "BNRRW", "National Bank of Rwanda", country: "RW", .elsewhere, issues: ["RWF"], pivot: "RWF",
            schedule: PublicationSchedule(timeZone: "Africa/Kigali", expectedMinute: 16 * 60),
            baseURL: "https://fxrates.bnr.rw/currency_history/"),
        ProviderIdentity(
            BOMProvider.self, "BOM", "Bank of Mongolia", country: "MN", .elsewhere, issues: ["MNT"], pivot: "MNT",
            rateType: "statutory reference rate", schedule: PublicationSchedule(timeZone: "Asia/Ulaanbaatar", expectedMinute: 10 * 60),
            baseURL: "https://www.mongolbank.mn/en"),
        // Working days, by 11:00 Banjul time (UTC).
        ProviderIdentity(
            CBGProvider.self, "CBG", "Central Bank of The Gambia", country: "GM", .elsewhere, issues: ["GMD"], pivot: "GMD",
            rateType: "indicative rate", schedule: PublicationSchedule(timeZone: "Africa/Banjul", expectedMinute: 11 * 60),
            baseURL: "https://www.cbg.gm/ajax/indicative-exchange-rates"),
        ProviderIdentity(
            CBMProvider.self, "CBM", "Central Bank of Myanmar", country: "MM", .elsewhere, issues: ["MMK"], pivot: "MMK",
            schedule: PublicationSchedule(timeZone: "Asia/Yangon", expectedMinute: 10 * 60 + 30),
            baseURL: "https://forex.cbm.gov.mm"),
        ProviderIdentity(
            CBNProvider.self, "CBN", "Central Bank of Nigeria", country: "NG", .elsewhere, issues: ["NGN"], pivot: "NGN",
            rateType: "official exchange rate", schedule: PublicationSchedule(timeZone: "Africa/Lagos", expectedMinute: 16 * 60),
            baseURL: "https://www.cbn.gov.ng"),
        ProviderIdentity(
            MMAProvider.self, "MMA", "Maldives Monetary Authority", country: "MV", .elsewhere, issues: ["MVR"], pivot: "MVR",
            schedule: PublicationSchedule(timeZone: "Indian/Maldives", weekdays: [7, 1, 2, 3, 4], expectedMinute: 8 * 60),
            baseURL: "https://www.mma.gov.mv"),
        ProviderIdentity(
            NBEProvider.self, "NBE", "National Bank of Ethiopia", country: "ET", .elsewhere, issues: ["ETB"], pivot: "ETB",
            rateType: "weighted average", schedule: PublicationSchedule(timeZone: "Africa/Addis_Ababa", expectedMinute: 13 * 60),
            baseURL: "https://api.nbe.gov.et"),
        ProviderIdentity(
            NRBProvider.self, "NRB", "Nepal Rastra Bank", country: "NP", .elsewhere, issues: ["NPR"], pivot: "NPR",
            rateType: "midpoint of the published buying and selling rates",
            schedule: PublicationSchedule(timeZone: "Asia/Kathmandu", weekdays: [1, 2, 3, 4, 5, 6, 7], expectedMinute: 11 * 60 + 45),
            baseURL: "https://www.nrb.org.np"),
        ProviderIdentity(
            SARBProvider.self, "SARB", "South African Reserve Bank", country: "ZA", .elsewhere, issues: ["ZAR"], pivot: "ZAR",
            rateType: "weighted average", schedule: PublicationSchedule(timeZone: "Africa/Johannesburg", expectedMinute: 11 * 60),
            baseURL: "https://custom.resbank.co.za"),
        ProviderIdentity(
            BCRPProvider.self, "BCRP", "Banco Central de Reserva del Perú", country: "PE", .elsewhere, issues: ["PEN"], pivot: "PEN",
            rateType: "midpoint of the published buying and selling rates",
            schedule: PublicationSchedule(timeZone: "America/Lima", expectedMinute: 17 * 60), baseURL: "https://estadisticas.bcrp.gob.pe",
            historyStart: Day(year: 1997, month: 1, day: 2)!),
        ProviderIdentity(
            CBTTProvider.self, "CBTT", "Central Bank of Trinidad and Tobago", country: "TT", .elsewhere, issues: ["TTD"], pivot: "TTD",
            rateType: "midpoint of the published buying and selling rates",
            schedule: PublicationSchedule(timeZone: "America/Port_of_Spain", expectedMinute: 16 * 60),
            baseURL: "https://www.central-bank.org.tt", historyStart: Day(year: 1991, month: 1, day: 1)!, bridgesThroughECB: true),
        ProviderIdentity(
            BFMProvider.self, "BFM", "Banky Foiben'i Madagasikara", country: "MG", .elsewhere, issues: ["MGA"], pivot: "MGA",
            schedule: PublicationSchedule(timeZone: "Indian/Antananarivo", expectedMinute: 13 * 60),
            baseURL: "https://www.banky-foibe.mg"),
        ProviderIdentity(
            CFETSProvider.self, "CFETS", "China Foreign Exchange Trade System", country: "CN", .elsewhere, issues: ["CNY"], pivot: "CNY",
            rateType: "central parity rate", schedule: PublicationSchedule(timeZone: "Asia/Shanghai", expectedMinute: 9 * 60 + 15),
            baseURL: "https://www.chinamoney.com.cn"),
        ProviderIdentity(
            CBAProvider.self, "CBA", "Central Bank of Armenia", country: "AM", .elsewhere, issues: ["AMD"], pivot: "AMD",
            rateType: "average rate", schedule: PublicationSchedule(timeZone: "Asia/Yerevan", expectedMinute: 16 * 60),
            baseURL: "https://api.cba.am/exchangerates.asmx"),
        ProviderIdentity(
            BANGUATProvider.self, "BANGUAT", "Banco de Guatemala", country: "GT", .elsewhere, issues: ["GTQ"], pivot: "GTQ",
            schedule: PublicationSchedule(timeZone: "America/Guatemala", expectedMinute: 8 * 60),
            baseURL: "https://www.banguat.gob.gt/variables/ws/TipoCambio.asmx"),
        ProviderIdentity(
            BCNProvider.self, "BCN", "Banco Central de Nicaragua", country: "NI", .elsewhere, issues: ["NIO"], pivot: "NIO",
            rateType: "official rate",
            schedule: PublicationSchedule(timeZone: "America/Managua", weekdays: Set(1...7), expectedMinute: 8 * 60),
            baseURL: "https://servicios.bcn.gob.ni/Tc_Servicio/ServicioTC.asmx"),
        ProviderIdentity(
            BCUProvider.self, "BCU", "Banco Central del Uruguay", country: "UY", .elsewhere, issues: ["UYU"], pivot: "UYU",
            rateType: "midpoint of the published buying and selling rates",
            schedule: PublicationSchedule(timeZone: "America/Montevideo", expectedMinute: 12 * 60),
            baseURL: "https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones"),
        ProviderIdentity(
            CBTProvider.self, "CBT", "Central Bank of Turkmenistan", country: "TM", .elsewhere, issues: ["TMT"], pivot: "TMT",
            rateType: "official rate",
            schedule: PublicationSchedule(timeZone: "Asia/Ashgabat", weekdays: Set(1...6), expectedMinute: 10 * 60),
            baseURL: "https://cbt.tm"),
        ProviderIdentity(
            CBARProvider.self, "CBAR", "Central Bank of the Republic of Azerbaijan", country: "AZ", .elsewhere, issues: ["AZN"],
            pivot: "AZN", rateType: "official rate", schedule: PublicationSchedule(timeZone: "Asia/Baku", expectedMinute: 10 * 60),
            baseURL: "https://www.cbar.az"),
        ProviderIdentity(
            NBTProvider.self, "NBT", "National Bank of Tajikistan", country: "TJ", .elsewhere, issues: ["TJS"], pivot: "TJS",
            rateType: "official rate",
            schedule: PublicationSchedule(timeZone: "Asia/Dushanbe", weekdays: Set(1...7), expectedMinute: 9 * 60),
            baseURL: "https://www.nbt.tj"),
        ProviderIdentity(
            NBKRProvider.self, "NBKR", "National Bank of the Kyrgyz Republic", country: "KG", .elsewhere, issues: ["KGS"], pivot: "KGS",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Asia/Bishkek", expectedMinute: 14 * 60),
            baseURL: "https://www.nbkr.kg", historyStart: Day(year: 1999, month: 1, day: 1)!, publishesInParts: true),
        ProviderIdentity(
            BCPProvider.self, "BCP", "Central Bank of Paraguay", country: "PY", .elsewhere, issues: ["PYG"], pivot: "PYG",
            rateType: "interbank reference rate", schedule: PublicationSchedule(timeZone: "America/Asuncion", expectedMinute: 16 * 60),
            baseURL: "https://www.bcp.gov.py"),
        ProviderIdentity(
            CBKProvider.self, "CBK", "Central Bank of Kenya", country: "KE", .elsewhere, issues: ["KES"], pivot: "KES",
            rateType: "indicative rate", schedule: PublicationSchedule(timeZone: "Africa/Nairobi", expectedMinute: 11 * 60),
            baseURL: "https://www.centralbank.go.ke"),
        ProviderIdentity(
            RBVProvider.self, "RBV", "Reserve Bank of Vanuatu", country: "VU", .elsewhere, issues: ["VUV"], pivot: "VUV",
            schedule: PublicationSchedule(timeZone: "Pacific/Efate", expectedMinute: 8 * 60),
            baseURL: "https://www.rbv.gov.vu"),
        ProviderIdentity(
            NBCProvider.self, "NBC", "National Bank of Cambodia", country: "KH", .elsewhere, issues: ["KHR"], pivot: "KHR",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Asia/Phnom_Penh", expectedMinute: 16 * 60),
            baseURL: "https://www.nbc.gov.kh"),
        ProviderIdentity(
            CBLLRProvider.self, "CBLLR", "Central Bank of Liberia", country: "LR", .elsewhere, issues: ["LRD"], pivot: "USD",
            rateType: "midpoint of the published buying and selling rates",
            schedule: PublicationSchedule(timeZone: "Africa/Monrovia", weekdays: [1, 2, 3, 4, 5, 6], expectedMinute: 13 * 60),
            baseURL: "https://www.cbl.org.lr"),
        // Monthly, from the middle of the month (the bank's window opens on the 15th, 10:00 Karachi time).
        ProviderIdentity(
            SBPProvider.self, "SBP", "State Bank of Pakistan", country: "PK", .elsewhere, issues: ["PKR"], pivot: "PKR",
            rateType: "daily average banks' floating rate",
            schedule: PublicationSchedule(timeZone: "Asia/Karachi", expectedMinute: 10 * 60, cadence: .monthly),
            baseURL: "https://www.sbp.org.pk/assets/document"),
        // Monday to Friday, by 17:00 Tonga time (the bank's window opens at 04:00 UTC).
        ProviderIdentity(
            NRBTProvider.self, "NRBT", "National Reserve Bank of Tonga", country: "TO", .elsewhere, issues: ["TOP"], pivot: "TOP",
            rateType: "authorized persons' average daily exchange rate",
            schedule: PublicationSchedule(timeZone: "Pacific/Tongatapu", expectedMinute: 17 * 60), baseURL: "https://www.reservebank.to"),
        // Monthly, 13:00 Algiers time (the bank's window opens at 12:00 UTC).
        ProviderIdentity(
            BOAProvider.self, "BOA", "Bank of Algeria", country: "DZ", .elsewhere, issues: ["DZD"], pivot: "DZD",
            schedule: PublicationSchedule(timeZone: "Africa/Algiers", expectedMinute: 13 * 60, cadence: .monthly),
            baseURL: "https://www.bank-of-algeria.dz"),
        // Monday to Friday, by 14:00 Fiji time (the bank's window opens at 02:00 UTC).
        ProviderIdentity(
            RBFProvider.self, "RBF", "Reserve Bank of Fiji", country: "FJ", .elsewhere, issues: ["FJD"], pivot: "FJD",
            rateType: "mid rate", schedule: PublicationSchedule(timeZone: "Pacific/Fiji", expectedMinute: 14 * 60),
            baseURL: "https://www.rbf.gov.fj"),
        // Monday to Friday, by 08:00 Apia time (the bank's window opens at 19:00 UTC the day before).
        ProviderIdentity(
            CBSProvider.self, "CBS", "Central Bank of Samoa", country: "WS", .elsewhere, issues: ["WST"], pivot: "WST",
            rateType: "indicative reference rate", schedule: PublicationSchedule(timeZone: "Pacific/Apia", expectedMinute: 8 * 60),
            baseURL: "https://cbs.gov.ws"),
        // Sunday to Thursday, by 13:00 Baghdad time (the bank's window opens at 10:00 UTC).
        ProviderIdentity(
            CBIProvider.self, "CBI", "Central Bank of Iraq", country: "IQ", .elsewhere, issues: ["IQD"], pivot: "IQD",
            rateType: "midpoint of the published buying and selling rates",
            schedule: PublicationSchedule(timeZone: "Asia/Baghdad", weekdays: [7, 1, 2, 3, 4], expectedMinute: 13 * 60),
            baseURL: "https://cbi.iq"),
        ProviderIdentity(
            BOTAProvider.self, "BOTA", "Bank of Tanzania", country: "TZ", .elsewhere, issues: ["TZS"], pivot: "TZS",
            rateType: "indicative rate",
            schedule: PublicationSchedule(timeZone: "Africa/Dar_es_Salaam", weekdays: [1, 2, 3, 4, 5, 6, 7], expectedMinute: 11 * 60),
            baseURL: "https://www.bot.go.tz"),
        ProviderIdentity(
            CBEProvider.self, "CBE", "Central Bank of Egypt", country: "EG", .elsewhere, issues: ["EGP"], pivot: "EGP",
            rateType: "midpoint of the published buying and selling rates",
            schedule: PublicationSchedule(timeZone: "Africa/Cairo", weekdays: [7, 1, 2, 3, 4], expectedMinute: 10 * 60),
            baseURL: "https://www.cbe.org.eg"),
        ProviderIdentity(
            CBSLProvider.self, "CBSL", "Central Bank of Sri Lanka", country: "LK", .elsewhere, issues: ["LKR"], pivot: "LKR",
            rateType: "indicative rate", schedule: PublicationSchedule(timeZone: "Asia/Colombo", expectedMinute: 9 * 60 + 30),
            baseURL: "https://www.cbsl.gov.lk"),
        ProviderIdentity(
            MASProvider.self, "MAS", "Monetary Authority of Singapore", country: "SG", .elsewhere, issues: ["SGD"], pivot: "SGD",
            rateType: "noon rate", schedule: PublicationSchedule(timeZone: "Asia/Singapore", expectedMinute: 18 * 60),
            baseURL: "https://eservices.mas.gov.sg", historyStart: Day(year: 1988, month: 1, day: 1)!),
        ProviderIdentity(
            BIProvider.self, "BI", "Bank Indonesia", country: "ID", .elsewhere, issues: ["IDR"], pivot: "IDR",
            rateType: "midpoint of the published buying and selling rates",
            schedule: PublicationSchedule(timeZone: "Asia/Jakarta", expectedMinute: 8 * 60), baseURL: "https://www.bi.go.id"),
        ProviderIdentity(
            BEACProvider.self, "BEAC", "Banque des États de l'Afrique Centrale", country: nil, .elsewhere, issues: ["XAF"], pivot: "XAF",
            rateType: "midpoint of the published buying and selling rates",
            schedule: PublicationSchedule(timeZone: "Africa/Douala", expectedMinute: 10 * 60), baseURL: "https://www.beac.int"),
        ProviderIdentity(
            BOBProvider.self, "BOB", "Bank of Botswana", country: "BW", .elsewhere, issues: ["BWP"], pivot: "BWP",
            rateType: "daily exchange rate", schedule: PublicationSchedule(timeZone: "Africa/Gaborone", expectedMinute: 12 * 60),
            baseURL: "https://www.bankofbotswana.bw"),
        ProviderIdentity(
            BCCRProvider.self, "BCCR", "Banco Central de Costa Rica", country: "CR", .elsewhere, issues: ["CRC"], pivot: "CRC",
            rateType: "midpoint of the published buying and selling rates",
            schedule: PublicationSchedule(timeZone: "America/Costa_Rica", expectedMinute: 12 * 60),
            baseURL: "https://apim.bccr.fi.cr/SDDE/api"),
        ProviderIdentity(
            BOJAProvider.self, "BOJA", "Bank of Jamaica", country: "JM", .elsewhere, issues: ["JMD"], pivot: "JMD",
            rateType: "midpoint of the published buying and selling counter rates",
            schedule: PublicationSchedule(timeZone: "America/Jamaica", expectedMinute: 13 * 60), baseURL: "https://boj.org.jm"),
        ProviderIdentity(
            RBMProvider.self, "RBM", "Reserve Bank of Malawi", country: "MW", .elsewhere, issues: ["MWK"], pivot: "MWK",
            rateType: "middle rate", schedule: PublicationSchedule(timeZone: "Africa/Blantyre", expectedMinute: 16 * 60),
            baseURL: "https://www.rbm.mw"),
        ProviderIdentity(
            BCTProvider.self, "BCT", "Central Bank of Tunisia", country: "TN", .elsewhere, issues: ["TND"], pivot: "TND",
            rateType: "interbank average rate", schedule: PublicationSchedule(timeZone: "Africa/Tunis", expectedMinute: 18 * 60),
            baseURL: "https://www.bct.gov.tn"),
        ProviderIdentity(
            BCEAOProvider.self, "BCEAO", "Central Bank of West African States", country: nil, .elsewhere, issues: ["XOF"], pivot: "XOF",
            schedule: PublicationSchedule(timeZone: "Africa/Dakar", weekdays: [7, 1, 2, 3, 4, 5], expectedMinute: 10 * 60),
            baseURL: "https://www.bceao.int"),
        ProviderIdentity(
            DABProvider.self, "DAB", "Da Afghanistan Bank", country: "AF", .elsewhere, issues: ["AFN"], pivot: "AFN",
            rateType: "midpoint of the published transfer buying and selling rates",
            schedule: PublicationSchedule(timeZone: "Asia/Kabul", weekdays: DABProvider.publicationWeekdays, expectedMinute: 9 * 60 + 30),
            baseURL: "https://www.dab.gov.af"),
        ProviderIdentity(
            BDLProvider.self, "BDL", "Banque du Liban", country: "LB", .elsewhere, issues: ["LBP"], pivot: "LBP",
            rateType: "published mid rate", schedule: PublicationSchedule(timeZone: "Asia/Beirut", expectedMinute: 13 * 60),
            baseURL: "https://www.bdl.gov.lb"),
        ProviderIdentity(
            BCBOProvider.self, "BCBO", "Banco Central de Bolivia", country: "BO", .elsewhere, issues: ["BOB"], pivot: "BOB",
            rateType: "official rate (TCO) of the dollar and indicative rates of the others; before 2008, the midpoint of the dollar's buying and selling rates",
            schedule: PublicationSchedule(timeZone: "America/La_Paz", expectedMinute: 8 * 60), baseURL: "https://www.bcb.gob.bo"),
        ProviderIdentity(
            BCCCDProvider.self, "BCCCD", "Banque Centrale du Congo", country: "CD", .elsewhere, issues: ["CDF"], pivot: "CDF",
            rateType: "average rate (cours moyen)", schedule: PublicationSchedule(timeZone: "Africa/Kinshasa", expectedMinute: 12 * 60),
            baseURL: "https://www.bcc.cd/marche-des-changes/cours-de-change"),
        ProviderIdentity(
            BMProvider.self, "BM", "Banco de Moçambique", country: "MZ", .elsewhere, issues: ["MZN"], pivot: "MZN",
            rateType: "reference rate (taxa média)", schedule: PublicationSchedule(timeZone: "Africa/Maputo", expectedMinute: 17 * 60),
            baseURL: "https://www.bancomoc.mz"),
        ProviderIdentity(
            BRBProvider.self, "BRB", "Banque de la République du Burundi", country: "BI", .elsewhere, issues: ["BIF"], pivot: "BIF",
            rateType: "official rate (cours moyen)", schedule: PublicationSchedule(timeZone: "Africa/Bujumbura", expectedMinute: 10 * 60),
            baseURL: "https://www.brb.bi"),
        ProviderIdentity(
            BSPProvider.self, "BSP", "Bangko Sentral ng Pilipinas", country: "PH", .elsewhere, issues: ["PHP"], pivot: "PHP",
            rateType: "reference rate (New York closing of the day before)",
            schedule: PublicationSchedule(timeZone: "Asia/Manila", expectedMinute: 9 * 60), baseURL: "https://www.bsp.gov.ph"),
        ProviderIdentity(
            PMAProvider.self, "PMA", "Palestine Monetary Authority", country: "PS", .elsewhere, issues: [], pivot: "USD",
            rateType: "published middle rate",
            schedule: PublicationSchedule(timeZone: "Asia/Hebron", weekdays: [7, 1, 2, 3, 4], expectedMinute: 12 * 60),
            baseURL: "https://wcur.pma.ps"),
        ProviderIdentity(
            CBSSCProvider.self, "CBSSC", "Central Bank of Seychelles", country: "SC", .elsewhere, issues: ["SCR"], pivot: "SCR",
            rateType: "mid rate, the average of all authorised dealers",
            schedule: PublicationSchedule(timeZone: "Indian/Mahe", expectedMinute: 12 * 60), baseURL: "https://www.cbs.sc",
            historyStart: Day(year: 2000, month: 1, day: 4)!),
        ProviderIdentity(
            CBKKWProvider.self, "CBKKW", "Central Bank of Kuwait", country: "KW", .elsewhere, issues: ["KWD"], pivot: "KWD",
            rateType: "exchange rate (fils per unit)",
            schedule: PublicationSchedule(timeZone: "Asia/Kuwait", weekdays: [7, 1, 2, 3, 4], expectedMinute: 12 * 60),
            baseURL: "https://www.cbk.gov.kw", historyStart: Day(year: 2008, month: 1, day: 2)!),
        ProviderIdentity(
            FREDProvider.self, "FRED", "Federal Reserve Bank of St. Louis (H.10)", country: "US", .dollarSeries, issues: ["USD"],
            pivot: "USD", rateType: "H.10 noon buying rate",
            schedule: PublicationSchedule(timeZone: "America/New_York", weekdays: [1], expectedMinute: 16 * 60 + 15, cadence: .weekly),
            baseURL: "https://api.stlouisfed.org/fred/series/observations", historyStart: Day(year: 1971, month: 1, day: 4)!,
            needsAPIKey: true),
        ProviderIdentity(
            BOJProvider.self, "BOJ", "Bank of Japan", country: "JP", .dollarSeries, issues: ["JPY"], pivot: "USD",
            rateType: "Tokyo market interbank rate", schedule: PublicationSchedule(timeZone: "Asia/Tokyo", expectedMinute: 9 * 60 + 30),
            baseURL: "https://www.stat-search.boj.or.jp/api/v1/getDataCode", historyStart: Day(year: 1998, month: 1, day: 5)!),
        ProviderIdentity(
            IMFProvider.self, "IMF", "International Monetary Fund", country: nil, .dollarSeries, issues: [], pivot: "USD",
            rateType: "representative rate", schedule: PublicationSchedule(timeZone: "America/New_York", expectedMinute: 14 * 60),
            baseURL: "https://www.imf.org/external/np/fin/data/rms_mth.aspx"),
        ProviderIdentity(
            CBCProvider.self, "CBC", "Central Bank of the Republic of China (Taiwan)", country: "TW", .dollarSeries, issues: ["TWD"],
            pivot: "USD", rateType: "interbank spot market closing rate",
            schedule: PublicationSchedule(timeZone: "Asia/Taipei", expectedMinute: 16 * 60, cadence: .monthly),
            baseURL: "https://cpx.cbc.gov.tw", historyStart: Day(year: 1993, month: 1, day: 5)!),
        // The first day of the bank's litas tables.
        ProviderIdentity(
            LBProvider.self, "LB", "Bank of Lithuania", country: "LT", .historical, issues: ["LTL"], pivot: "LTL",
            rateType: "official rate", schedule: PublicationSchedule(timeZone: "Europe/Vilnius", expectedMinute: 14 * 60),
            baseURL: "https://www.lb.lt/webservices/FxRates/FxRates.asmx", historyStart: Day(year: 1994, month: 4, day: 1)!),
        // The first day of the Deutsche Mark (the currency reform of 1948).
        ProviderIdentity(
            BBKProvider.self, "BBK", "Deutsche Bundesbank", country: "DE", .historical, issues: ["DEM"], pivot: "DEM",
            rateType: "official Frankfurt fixing (middle rate)",
            schedule: PublicationSchedule(timeZone: "Europe/Berlin", weekdays: [], expectedMinute: 13 * 60),
            baseURL: "https://api.statistiken.bundesbank.de", historyStart: Day(year: 1948, month: 6, day: 21)!),
        ProviderIdentity(
            BDPProvider.self, "BDP", "Banco de Portugal", country: "PT", .historical, issues: ["PTE"], pivot: "PTE",
            rateType: "historical reference rate",
            schedule: PublicationSchedule(timeZone: "Europe/Lisbon", weekdays: [], expectedMinute: 15 * 60),
            baseURL: "https://bpstat.bportugal.pt", historyStart: Day(year: 1987, month: 1, day: 2)!),
        ProviderIdentity(
            HMRCProvider.self, "HMRC", "HM Revenue & Customs", country: "GB", .periodic, issues: [], pivot: "GBP",
            rateType: "monthly exchange rate for customs and VAT",
            schedule: PublicationSchedule(timeZone: "Europe/London", weekdays: Set(1...7), expectedMinute: 0, cadence: .monthly),
            baseURL: "https://www.trade-tariff.service.gov.uk", validityDays: 31),
        // A quarter's rates hold until the next quarter's.
        ProviderIdentity(
            USTProvider.self, "UST", "U.S. Department of the Treasury", country: "US", .periodic, issues: [], pivot: "USD",
            rateType: "Treasury reporting rate of exchange",
            schedule: PublicationSchedule(timeZone: "America/New_York", expectedMinute: 12 * 60, cadence: .monthly),
            baseURL: "https://api.fiscaldata.treasury.gov", validityDays: 92, publishesInParts: true),
        // The first working day of every month, from noon Basel time.
        ProviderIdentity(
            BISProvider.self, "BIS", "Bank for International Settlements", country: nil, .periodic, issues: [], pivot: "USD",
            rateType: "end-of-month exchange rate",
            schedule: PublicationSchedule(timeZone: "Europe/Zurich", expectedMinute: 12 * 60, cadence: .monthly),
            baseURL: "https://stats.bis.org", validityDays: 31),
        ProviderIdentity(
            INFOREUROProvider.self, "INFOREURO", "European Commission (InforEuro)", country: nil, .periodic, issues: [], pivot: "EUR",
            rateType: "monthly accounting rate",
            schedule: PublicationSchedule(timeZone: "Europe/Brussels", weekdays: Set(1...7), expectedMinute: 0, cadence: .monthly),
            baseURL: "https://ec.europa.eu", historyStart: Day(year: 1999, month: 1, day: 1)!, validityDays: 31),
    ]

    /// The keys of the reference tier (the ECB): always fetched, whatever else a server enables.
    public static let referenceKeys = entries.filter { $0.tier == .reference }.map(\.key)

    /// The schedule the merged dataset's freshness follows (`expectedLatestDate`, `Rates-Stale`,
    /// cache lifetimes): the first source's, the ECB's.
    public static let referenceSchedule = entries[0].identity.schedule

    /// How many days the figures of the sources that say so hold (``RatesProvider/validityDays``:
    /// monthly and quarterly sources), by key; the others' hold for the merge's carry-forward limit.
    public static let validityDays: [String: Int] = Dictionary(
        entries.compactMap { entry in entry.identity.validityDays.map { (entry.key, $0) } }, uniquingKeysWith: { first, _ in first })

    /// The currencies each source issues (``Entry/issues``), by key; sources that issue none are absent.
    public static let issuedCurrencies: [String: Set<CurrencyCode>] = Dictionary(
        entries.filter { !$0.issues.isEmpty }.map { ($0.key, Set($0.issues)) }, uniquingKeysWith: { first, _ in first })

    /// Every key, in the order of ``entries``.
    public static var keys: [String] { entries.map(\.key) }

    /// The keys of the providers that need an API key: FRED, BANXICO, BOT, BAM, BCCH.
    public static var keysNeedingAPIKey: Set<String> { Set(entries.filter(\.needsAPIKey).map(\.key)) }

    /// The entry for `key` (any letter case), or `nil` for a key no adapter has.
    public static func entry(_ key: String) -> Entry? {
        (positions[key] ?? positions[key.uppercased()]).map { entries[$0] }
    }

    /// Each entry's position in ``entries``, by key.
    private static let positions = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($0.element.key, $0.offset) })

    /// Each entry's position in ``entries``, by its adapter's type.
    private static let typePositions = Dictionary(uniqueKeysWithValues: entries.enumerated().map { (ObjectIdentifier($0.element.identity.adapterType), $0.offset) })

    /// The row of the adapter `type` (each adapter has exactly one: a test checks it).
    static func identity(of type: any RatesProvider.Type) -> ProviderIdentity {
        guard let position = typePositions[ObjectIdentifier(type)] else { preconditionFailure("\(type) has no row in ProviderRegistry.entries") }
        return entries[position].identity
    }

    /// Makes the adapter for `key`.
    ///
    /// - Parameters:
    ///   - key: Frankfurter's key, in any letter case.
    ///   - baseURL: Replaces the adapter's default endpoint base (a mirror, a test server); `nil` for the real one.
    ///   - apiKey: The provider's API key, for those that need one (secret); ignored by the others.
    /// - Throws: ``ProviderConfigurationError/unknownProvider(_:)`` for a key no adapter has,
    ///   ``ProviderConfigurationError/apiKeyMissing(provider:)`` for a provider that needs a key given none (or an empty one).
    public static func make(key: String, baseURL: String? = nil, apiKey: String? = nil) throws(ProviderConfigurationError) -> any RatesProvider {
        guard let entry = entry(key) else { throw .unknownProvider(key) }
        let apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
        if entry.needsAPIKey, apiKey == nil { throw .apiKeyMissing(provider: entry.key) }
        return entry.identity.adapterType.init(source: ProviderSource(identity: entry.identity, baseURL: baseURL, apiKey: apiKey ?? ""))
    }

    /// The providers a configuration turns on, and why the others asked for are off.
    public struct Selection: Sendable {
        /// The adapters on, in the order asked (``ProviderRegistry/entries``' order when all are);
        /// which one's value is served is the merge's precedence, not this order.
        public var providers: [any RatesProvider]
        /// The keys asked for but off, each with its reason (unknown key, no API key), in the order asked.
        public var off: [(key: String, reason: ProviderConfigurationError)]
    }

    /// The adapters of `enabled` (every key, in the default order, when `nil`), keys that need an
    /// API key without one left off. Each asks its own public endpoints unless `baseURLs` names
    /// another (a server also sends a provider's requests elsewhere with an ``UpstreamOverride``).
    ///
    /// - Parameters:
    ///   - enabled: The keys to turn on, in the order wanted (`providers`); `nil` for all.
    ///   - apiKeys: API keys by provider key (secrets).
    ///   - baseURLs: Replacements of default endpoint bases by provider key (a mirror, a test server).
    public static func select(enabled: [String]? = nil, apiKeys: [String: String] = [:], baseURLs: [String: String] = [:]) -> Selection {
        var selection = Selection(providers: [], off: [])
        var seen = Set<String>()
        for key in enabled ?? keys {
            let canonical = entry(key)?.key ?? key
            guard seen.insert(canonical).inserted else { continue }
            do {
                selection.providers.append(try make(key: canonical, baseURL: baseURLs[canonical], apiKey: apiKeys[canonical]))
            } catch {
                selection.off.append((canonical, error))
            }
        }
        return selection
    }
}

/// Why a configured provider cannot be turned on.
public enum ProviderConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No adapter has this key.
    case unknownProvider(String)
    /// The provider needs an API key and none was configured: it stays off.
    case apiKeyMissing(provider: String)

    public var description: String {
        switch self {
        case .unknownProvider(let key):
            return "no provider has the key \(UpstreamDataError.quoted(key)); known keys: \(ProviderRegistry.keys.joined(separator: ", "))"
        case .apiKeyMissing(let key):
            return "provider \(key) needs an API key and none is configured: it stays off until one is"
        }
    }
}
