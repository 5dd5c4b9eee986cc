/// A rate fixed by law or by a monetary authority, not published daily: a currency pegged to
/// another (the UAE dirham at 3.6725 per US dollar), or a legacy currency's irrevocable conversion
/// rate to the euro (1.95583 Deutsche Mark per euro).
///
/// The merge uses both kinds, never as a market quote:
/// - a **peg** values its currency through the anchor's merged value where neither the ECB nor the
///   currency's issuer publishes it, before every other source and outside the consensus check (``pegs``);
/// - a **euro conversion rate** expresses a legacy currency per EUR: for a source that quotes
///   against it and quotes no EUR itself, and for the days before the euro existed (``euroConversions``).
public struct FixedParity: Hashable, Sendable {
    /// The currency fixed.
    public var currency: CurrencyCode
    /// The currency it is fixed to.
    public var anchor: CurrencyCode
    /// Units of ``currency`` per 1 ``anchor``, as the authority states it.
    public var rate: String
    /// The first day the rate holds.
    public var since: Day
    /// Who declares it.
    public var authority: String
    /// Where the authority says so.
    public var reference: String

    public init(_ currency: String, per anchor: String, _ rate: String, since: String, authority: String, reference: String) {
        self.currency = CurrencyCode(currency)!
        self.anchor = CurrencyCode(anchor)!
        self.rate = rate
        self.since = Day(since)!
        self.authority = authority
        self.reference = reference
    }

    /// The rate as a figure quoted against the anchor: ``rate`` units of ``currency`` per 1 ``anchor``.
    public var quote: PublishedQuote { PublishedQuote(currency: currency, value: rate, unit: 1, direction: .unitsPerPivot) }

    /// Units of ``currency`` per 1 EUR by this peg, given `anchorPerEuro`, the anchor's value per EUR
    /// (`nil` for a peg to the euro, whose value is its rate as declared): the product, rounded once to
    /// ``RateText/maxSignificantDigits``. The one rule by which the merge and a day's reading value a peg.
    public func perEuro(anchorPerEuro: ExactDecimal?) -> ExactDecimal? {
        guard let rate = ExactDecimal(rate) else { return nil }
        guard let anchorPerEuro else { return rate }
        return anchorPerEuro.multiplied(by: rate)?.rounded(significantDigits: RateText.maxSignificantDigits)
    }

    /// The key the merge's provenance names a peg's values with.
    public static let pegProvider = "PEG"

    /// The 21 declared pegs: fixed official parities of a currency to another, each with its authority.
    public static let pegs: [FixedParity] = [
        FixedParity("AED", per: "USD", "3.6725", since: "1997-11-02", authority: "Central Bank of the UAE",
                    reference: "https://www.centralbank.ae/en/our-operations/currency-operations/exchange-rates"),
        FixedParity("ANG", per: "USD", "1.79", since: "1971-12-18", authority: "Centrale Bank van Curaçao en Sint Maarten",
                    reference: "https://www.centralbank.cw/faq/monetary-foreign-exchange-policy"),
        FixedParity("BAM", per: "EUR", "1.95583", since: "1997-08-11", authority: "Central Bank of Bosnia and Herzegovina",
                    reference: "https://www.cbbh.ba/Content/Read/13"),
        FixedParity("BHD", per: "USD", "0.376", since: "2001-01-01", authority: "Central Bank of Bahrain",
                    reference: "https://www.cbb.gov.bh/monetary-policy/"),
        FixedParity("BMD", per: "USD", "1.0", since: "1972-02-06", authority: "Bermuda Monetary Authority",
                    reference: "https://en.wikipedia.org/wiki/Bermudian_dollar"),
        FixedParity("BND", per: "SGD", "1.0", since: "1967-06-12", authority: "Brunei Darussalam Central Bank",
                    reference: "https://www.bdcb.gov.bn/monetary-policy/monetary-policy-framework"),
        FixedParity("BTN", per: "INR", "1.0", since: "1974-01-01", authority: "Royal Monetary Authority of Bhutan",
                    reference: "https://www.rma.org.bt/mpolicy/"),
        FixedParity("CVE", per: "EUR", "110.265", since: "1999-01-01", authority: "Banco de Cabo Verde",
                    reference: "https://www.bcv.cv/pt/Supervisao/Consumidores/Servi%C3%A7os%20ao%20P%C3%BAblico/perguntasrespostasfrequentes/mercadocambial/Paginas/MercadoCambial.aspx"),
        FixedParity("FKP", per: "GBP", "1.0", since: "1966-02-14", authority: "Falkland Islands Government",
                    reference: "https://falklands.gov.fk/finance/currency"),
        FixedParity("GGP", per: "GBP", "1.0", since: "1921-01-01", authority: "States of Guernsey",
                    reference: "https://en.wikipedia.org/wiki/Guernsey_pound"),
        FixedParity("IMP", per: "GBP", "1.0", since: "1840-01-01", authority: "Isle of Man Government",
                    reference: "https://en.wikipedia.org/wiki/Manx_pound"),
        FixedParity("JEP", per: "GBP", "1.0", since: "1834-01-01", authority: "States of Jersey",
                    reference: "https://en.wikipedia.org/wiki/Jersey_pound"),
        FixedParity("JOD", per: "USD", "0.709", since: "1995-10-23", authority: "Central Bank of Jordan",
                    reference: "https://www.cbj.gov.jo/Pages/viewpage.aspx?pageID=65"),
        FixedParity("MOP", per: "HKD", "1.03", since: "1983-01-01", authority: "Autoridade Monetária de Macau",
                    reference: "https://www.amcm.gov.mo/en/about-amcm/history/the-pataca"),
        FixedParity("OMR", per: "USD", "0.3845", since: "1986-01-01", authority: "Central Bank of Oman",
                    reference: "https://cbo.gov.om/Pages/FixedPeg.aspx"),
        FixedParity("QAR", per: "USD", "3.64", since: "2001-07-09", authority: "Qatar Central Bank",
                    reference: "https://www.qcb.gov.qa/Documents/BankInstructions/EN/01-02.pdf"),
        FixedParity("SAR", per: "USD", "3.75", since: "1986-06-01", authority: "Saudi Central Bank",
                    reference: "https://www.sama.gov.sa/en-US/MonetaryPolicy/Pages/ExchangeRatePolicy.aspx"),
        FixedParity("SHP", per: "GBP", "1.0", since: "1976-02-02", authority: "Government of Saint Helena",
                    reference: "https://en.wikipedia.org/wiki/Saint_Helena_pound"),
        FixedParity("TMT", per: "USD", "3.5", since: "2015-01-01", authority: "Central Bank of Turkmenistan",
                    reference: "https://www.bloomberg.com/news/articles/2015-01-02/turkmenistan-devalues-currency-19-amid-oil-plunge-ruble-crisis"),
        FixedParity("XAF", per: "EUR", "655.957", since: "1999-01-01", authority: "Banque des États de l'Afrique Centrale",
                    reference: "https://en.wikipedia.org/wiki/Central_African_CFA_franc"),
        FixedParity("XOF", per: "EUR", "655.957", since: "1999-01-01", authority: "Banque Centrale des États de l'Afrique de l'Ouest",
                    reference: "https://en.wikipedia.org/wiki/West_African_CFA_franc"),
    ]

    /// The irrevocable conversion rates of the currencies the euro replaced, each from the day its
    /// country adopted the euro (Council Regulations (EC) No 2866/98 and later).
    public static let euroConversions: [FixedParity] = [
        ("ATS", "13.7603", "1999-01-01"), ("BEF", "40.3399", "1999-01-01"), ("DEM", "1.95583", "1999-01-01"),
        ("ESP", "166.386", "1999-01-01"), ("FIM", "5.94573", "1999-01-01"), ("FRF", "6.55957", "1999-01-01"),
        ("IEP", "0.787564", "1999-01-01"), ("ITL", "1936.27", "1999-01-01"), ("LUF", "40.3399", "1999-01-01"),
        ("NLG", "2.20371", "1999-01-01"), ("PTE", "200.482", "1999-01-01"), ("GRD", "340.750", "2001-01-01"),
        ("SIT", "239.640", "2007-01-01"), ("CYP", "0.585274", "2008-01-01"), ("MTL", "0.429300", "2008-01-01"),
        ("SKK", "30.1260", "2009-01-01"), ("EEK", "15.6466", "2011-01-01"), ("LVL", "0.702804", "2014-01-01"),
        ("LTL", "3.45280", "2015-01-01"), ("HRK", "7.53450", "2023-01-01"), ("BGN", "1.95583", "2026-01-01"),
    ].map { code, rate, since in
        FixedParity(code, per: "EUR", rate, since: since, authority: "Council of the European Union",
                    reference: "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:31998R2866")
    }

    /// The euro's first day, 1999-01-01. Before it a value per EUR is per the euro of its source's own
    /// currency's conversion rate (docs/MERGE.md, "Days before the euro"): two sources' values of one
    /// currency differ by the cross rate of their currencies, so they are not compared with each other.
    public static let euroIntroduction = Day(year: 1999, month: 1, day: 1)!

    /// How many units of `currency` make 1 EUR by a fixed rate: its euro conversion rate, or a peg
    /// to the euro; `nil` for a currency with neither. The day is not checked: before the euro existed,
    /// a legacy currency's conversion rate is how its figures are expressed per EUR (docs/MERGE.md).
    public static func perEuro(_ currency: CurrencyCode) -> FixedParity? {
        euroParities[currency]
    }

    private static let euroParities: [CurrencyCode: FixedParity] = Dictionary(
        (euroConversions + pegs.filter { $0.anchor == .euro }).map { ($0.currency, $0) }, uniquingKeysWith: { first, _ in first })

    /// The peg of `currency`, if it has one.
    public static func peg(of currency: CurrencyCode) -> FixedParity? { pegsByCurrency[currency] }

    private static let pegsByCurrency: [CurrencyCode: FixedParity] = Dictionary(pegs.map { ($0.currency, $0) }, uniquingKeysWith: { first, _ in first })
}
