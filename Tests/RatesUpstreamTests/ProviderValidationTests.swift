import RatesCore
import RatesUpstream
import RatesTestFixtures
import Testing

@Suite("Validation of every source's publications")
struct ProviderValidationTests {
    // MARK: - Rate text

    @Test("accepts rates as providers publish them", arguments: [
        "1.1097", "0.84163", "136", "20275.17", "0.0001", "1", "0.5", "1.1000", "372816", "123456789.123456789",
    ])
    func validRateText(_ text: String) {
        #expect(RateText.isValid(text))
    }

    @Test("rejects anything but a plain positive decimal", arguments: [
        "", "0", "0.0", "00.5", "01", "-1.1", "+1.1", "1e5", "1E5", "1.5e-3", "NaN", "nan", "inf", "Infinity",
        ".5", "1.", "1.2.3", " 1.1", "1.1 ", "1,1", "1 000", "0x1A", "١٢", "１", "1234567890123456789",
        "0." + String(repeating: "0", count: 40) + "1",
    ])
    func invalidRateText(_ text: String) {
        #expect(!RateText.isValid(text))
    }

    @Test("counts significant digits from the first non-zero digit")
    func significantDigits() {
        #expect(RateText.isValid("0.000123456789012345678"))  // 18 significant digits
        #expect(!RateText.isValid("0.0001234567890123456789"))  // 19
        #expect(RateText.isValid("123456789012345678"))
        #expect(!RateText.isValid("1234567890123456789"))
    }

    @Test("works on substrings too")
    func substrings() {
        let text = "rate=1.1097;"
        #expect(RateText.isValid(text.dropFirst(5).dropLast()))
    }

    // MARK: - Batches

    @Test("accepts a batch of real-looking days up to notAfter")
    func validBatch() throws {
        let batch = [daily("1999-01-04"), daily("2026-10-30"), daily("2026-10-31")]
        _ = try ProviderValidation.validate(batch, notAfter: day("2026-10-31"))
    }

    @Test("rejects a day after notAfter")
    func dayAfterNotAfter() {
        let batch = [daily("2026-10-30"), daily("2026-11-02")]
        #expect(throws: UpstreamDataError.dayOutOfRange(day("2026-11-02"))) {
            _ = try ProviderValidation.validate(batch, notAfter: day("2026-11-01"))
        }
    }

    @Test("rejects a day before the source's first day (1999-01-04 unless its history starts earlier, as the Bundesbank's in 1948)")
    func dayBeforeFirstPublication() throws {
        let batch = [daily("1999-01-01"), daily("1999-01-04")]
        #expect(throws: UpstreamDataError.dayOutOfRange(day("1999-01-01"))) {
            _ = try ProviderValidation.validate(batch, notAfter: day("2026-11-01"))
        }
        let history = try ProviderValidation.validate([daily("1948-06-21")], notAfter: day("2026-11-01"), notBefore: day("1948-06-21"))
        #expect(history.map(\.day) == [day("1948-06-21")])
    }

    @Test("rejects everything when notAfter is before the first publication")
    func notAfterBeforeFirstDay() {
        let batch = [daily("1999-01-04")]
        #expect(throws: UpstreamDataError.dayOutOfRange(day("1999-01-04"))) {
            _ = try ProviderValidation.validate(batch, notAfter: day("1998-12-31"))
        }
    }

    @Test("rejects an empty batch")
    func emptyBatch() {
        #expect(throws: UpstreamDataError.empty) {
            _ = try ProviderValidation.validate([], notAfter: day("2026-11-01"))
        }
    }

    @Test("rejects a day without rates")
    func emptyDay() {
        let batch = [ProviderPublication(day: day("2025-04-03"), quotes: [])]
        #expect(throws: UpstreamDataError.emptyDay(day("2025-04-03"))) {
            _ = try ProviderValidation.validate(batch, notAfter: day("2026-11-01"))
        }
    }

    @Test("rejects a day given twice")
    func duplicateDay() {
        let batch = [daily("2025-04-03"), daily("2025-04-04"), daily("2025-04-03")]
        #expect(throws: UpstreamDataError.duplicateDay(day("2025-04-03"))) {
            _ = try ProviderValidation.validate(batch, notAfter: day("2026-11-01"))
        }
    }

    @Test("rejects bad rate text, naming the alphabetically first bad currency")
    func invalidRate() {
        let quotes = [("USD", "1e5"), ("GBP", "-0.8"), ("JPY", "162.17"), ("ZAR", "NaN")].map {
            PublishedQuote(currency: code($0.0), value: $0.1, direction: .unitsPerPivot)
        }
        let batch = [ProviderPublication(day: day("2025-04-03"), quotes: quotes)]
        #expect(throws: UpstreamDataError.invalidRate(currency: code("GBP"), day: day("2025-04-03"), text: "-0.8")) {
            _ = try ProviderValidation.validate(batch, notAfter: day("2026-11-01"))
        }
    }

    // MARK: - Errors

    @Test("describes each error with what was wrong and where")
    func descriptions() {
        let day = day("2025-04-03")
        #expect(UpstreamDataError.invalidRate(currency: code("USD"), day: day, text: "1e5").description.contains("\"1e5\" for USD on 2025-04-03"))
        #expect(UpstreamDataError.malformedCSV(line: 12, reason: "3 fields").description == "malformed CSV at line 12: 3 fields")
        #expect(UpstreamDataError.dayOutOfRange(day).description.contains("2025-04-03"))
        #expect(UpstreamDataError.invalidDay("2024-02-30\n").description.contains(#""2024-02-30\n""#))
    }

    // MARK: - Continuity with what is stored

    @Test("rejects a payload whose newest day is older than the newest stored day")
    func olderThanStored() {
        let stored = rates("2026-10-30", usd: "1.1172")
        let batch = [rates("2026-10-28", usd: "1.1150")]
        #expect(throws: UpstreamDataError.olderThanStored(newest: day("2026-10-28"), stored: day("2026-10-30"))) {
            try ProviderValidation.checkContinuity(batch, after: stored)
        }
    }

    @Test("accepts corrections to older days when the payload reaches the newest stored day")
    func correctionsAccepted() throws {
        let stored = rates("2026-10-30", usd: "1.1172")
        let batch = [rates("2026-10-29", usd: "1.1160"), rates("2026-10-30", usd: "1.1172")]
        try ProviderValidation.checkContinuity(batch, after: stored)
        try ProviderValidation.checkContinuity(batch, after: nil)
    }

    @Test("rejects a rate more than 5x away from the previous one, in the payload or stored", arguments: [
        ("11.172", "1.1172"),   // a decimal point shifted by one place
        ("0.11172", "1.1172"),
        ("1234567890", "1.1172"),
        ("0.0000001", "1.1172"),
    ])
    func implausibleRate(_ text: String, previous: String) {
        let stored = rates("2026-10-30", usd: previous)
        #expect(throws: UpstreamDataError.implausibleRate(
            currency: code("USD"), day: day("2026-11-02"), text: text, previous: previous, previousDay: day("2026-10-30"))
        ) {
            try ProviderValidation.checkContinuity([rates("2026-11-02", usd: text)], after: stored)
        }
        let inPayload = [rates("2026-10-30", usd: previous), rates("2026-11-02", usd: text)]
        #expect(throws: UpstreamDataError.self) { try ProviderValidation.checkContinuity(inPayload, after: nil) }
    }

    @Test("a payload reaching back years is compared with the stored rates only from the stored day on")
    func longPayloadAfterStored() throws {
        // TRY was 1.7 in 2005 and 55.8 in 2026: the full history, fetched after a long outage,
        // must not be held against the stored latest day; its days after that day still are.
        let stored = rates("2026-06-01", usd: "50")
        let caughtUp = [rates("2005-01-03", usd: "1.7"), rates("2026-06-01", usd: "50"), rates("2026-10-30", usd: "55.8")]
        try ProviderValidation.checkContinuity(caughtUp, after: stored)
        let jump = [rates("2005-01-03", usd: "1.7"), rates("2026-10-30", usd: "5.58")]
        #expect(throws: UpstreamDataError.implausibleRate(
            currency: code("USD"), day: day("2026-10-30"), text: "5.58", previous: "50", previousDay: day("2026-06-01"))
        ) {
            try ProviderValidation.checkContinuity(jump, after: stored)
        }
        let shiftedCorrection = [rates("2026-06-01", usd: "5.0")]
        #expect(throws: UpstreamDataError.self, "a correction of the stored day itself is checked too") {
            try ProviderValidation.checkContinuity(shiftedCorrection, after: stored)
        }
    }

    @Test("figures are compared per unit, whichever way round they are quoted")
    func perUnitComparison() throws {
        // The CNB's JPY: 14.568 CZK per 100 JPY, then per 1 JPY: the same rate, no move.
        let per100 = ProviderPublication(day: day("2026-10-29"), quotes: [PublishedQuote(currency: code("JPY"), value: "14.568", unit: 100, direction: .pivotPerUnits)])
        let per1 = ProviderPublication(day: day("2026-10-30"), quotes: [PublishedQuote(currency: code("JPY"), value: "0.14568", unit: 1, direction: .pivotPerUnits)])
        try ProviderValidation.checkContinuity([per1], after: per100)
        let shifted = ProviderPublication(day: day("2026-10-30"), quotes: [PublishedQuote(currency: code("JPY"), value: "1.4568", unit: 1, direction: .pivotPerUnits)])
        #expect(throws: UpstreamDataError.self) { try ProviderValidation.checkContinuity([shifted], after: per100) }
    }

    @Test("the ECB's whole history since 1999 passes, its largest moves included")
    func realHistoryPasses() throws {
        let history = try ECBProvider().publications(inFiles: [Fixtures.historyZip], subjects: [], today: day("2026-11-01"))
        try ProviderValidation.checkContinuity(history, after: nil)
        // Fetched again over a store 100 publications behind (after a long outage), it still passes.
        try ProviderValidation.checkContinuity(history, after: history[history.count - 100])
        // ISK's 2.32x move across its 2008–2018 gap is the largest: still within the limit.
        let lastBeforeGap = history.first { $0.day == day("2008-12-09") }
        #expect(lastBeforeGap?.quotes.first { $0.currency == code("ISK") }?.value == "290")
    }
}

/// One day with a single valid rate.
private func daily(_ text: String) -> ProviderPublication {
    rates(text, usd: "1.1")
}

/// One day with only a USD rate, per EUR.
private func rates(_ text: String, usd: String) -> ProviderPublication {
    ProviderPublication(day: day(text), quotes: [PublishedQuote(currency: code("USD"), value: usd, direction: .unitsPerPivot)])
}
