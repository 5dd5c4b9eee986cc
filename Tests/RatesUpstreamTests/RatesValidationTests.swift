import RatesCore
import RatesUpstream
import RatesTestSupport
import Testing

@Suite("Rates validation")
struct RatesValidationTests {
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
        let batch = RatesBatch(base: .euro, days: [daily("1999-01-04"), daily("2026-10-30"), daily("2026-10-31")])
        try RatesValidation.validate(batch, notAfter: day("2026-10-31"))
    }

    @Test("rejects a day after notAfter")
    func dayAfterNotAfter() {
        let batch = RatesBatch(base: .euro, days: [daily("2026-10-30"), daily("2026-11-02")])
        #expect(throws: UpstreamDataError.dayOutOfRange(day("2026-11-02"))) {
            try RatesValidation.validate(batch, notAfter: day("2026-11-01"))
        }
    }

    @Test("rejects a day before the first publication on 1999-01-04")
    func dayBeforeFirstPublication() {
        let batch = RatesBatch(base: .euro, days: [daily("1999-01-01"), daily("1999-01-04")])
        #expect(throws: UpstreamDataError.dayOutOfRange(day("1999-01-01"))) {
            try RatesValidation.validate(batch, notAfter: day("2026-11-01"))
        }
    }

    @Test("rejects everything when notAfter is before the first publication")
    func notAfterBeforeFirstDay() {
        let batch = RatesBatch(base: .euro, days: [daily("1999-01-04")])
        #expect(throws: UpstreamDataError.dayOutOfRange(day("1999-01-04"))) {
            try RatesValidation.validate(batch, notAfter: day("1998-12-31"))
        }
    }

    @Test("rejects an empty batch")
    func emptyBatch() {
        #expect(throws: UpstreamDataError.empty) {
            try RatesValidation.validate(RatesBatch(base: .euro, days: []), notAfter: day("2026-11-01"))
        }
    }

    @Test("rejects a day without rates")
    func emptyDay() {
        let batch = RatesBatch(base: .euro, days: [DailyRates(day: day("2025-04-03"), rates: [:])])
        #expect(throws: UpstreamDataError.emptyDay(day("2025-04-03"))) {
            try RatesValidation.validate(batch, notAfter: day("2026-11-01"))
        }
    }

    @Test("rejects a day given twice")
    func duplicateDay() {
        let batch = RatesBatch(base: .euro, days: [daily("2025-04-03"), daily("2025-04-04"), daily("2025-04-03")])
        #expect(throws: UpstreamDataError.duplicateDay(day("2025-04-03"))) {
            try RatesValidation.validate(batch, notAfter: day("2026-11-01"))
        }
    }

    @Test("rejects bad rate text, naming the alphabetically first bad currency")
    func invalidRate() {
        let rates = [code("USD"): "1e5", code("GBP"): "-0.8", code("JPY"): "162.17", code("ZAR"): "NaN"]
        let batch = RatesBatch(base: .euro, days: [DailyRates(day: day("2025-04-03"), rates: rates)])
        #expect(throws: UpstreamDataError.invalidRate(currency: code("GBP"), day: day("2025-04-03"), text: "-0.8")) {
            try RatesValidation.validate(batch, notAfter: day("2026-11-01"))
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
        let stored = DailyRates(day: day("2026-10-30"), rates: [code("USD"): "1.1172"])
        let batch = RatesBatch(base: .euro, days: [rates("2026-10-28", usd: "1.1150")])
        #expect(throws: UpstreamDataError.olderThanStored(newest: day("2026-10-28"), stored: day("2026-10-30"))) {
            try RatesValidation.checkContinuity(batch, after: stored)
        }
    }

    @Test("accepts corrections to older days when the payload reaches the newest stored day")
    func correctionsAccepted() throws {
        let stored = DailyRates(day: day("2026-10-30"), rates: [code("USD"): "1.1172"])
        let batch = RatesBatch(base: .euro, days: [rates("2026-10-29", usd: "1.1160"), rates("2026-10-30", usd: "1.1172")])
        try RatesValidation.checkContinuity(batch, after: stored)
        try RatesValidation.checkContinuity(batch, after: nil)
    }

    @Test("rejects a rate more than 5x away from the previous one, in the payload or stored", arguments: [
        ("11.172", "1.1172"),   // a decimal point shifted by one place
        ("0.11172", "1.1172"),
        ("1234567890", "1.1172"),
        ("0.0000001", "1.1172"),
    ])
    func implausibleRate(_ text: String, previous: String) {
        let stored = DailyRates(day: day("2026-10-30"), rates: [code("USD"): previous])
        #expect(throws: UpstreamDataError.implausibleRate(
            currency: code("USD"), day: day("2026-11-02"), text: text, previous: previous, previousDay: day("2026-10-30"))
        ) {
            try RatesValidation.checkContinuity(RatesBatch(base: .euro, days: [rates("2026-11-02", usd: text)]), after: stored)
        }
        let inPayload = RatesBatch(base: .euro, days: [rates("2026-10-30", usd: previous), rates("2026-11-02", usd: text)])
        #expect(throws: UpstreamDataError.self) { try RatesValidation.checkContinuity(inPayload, after: nil) }
    }

    @Test("a payload reaching back years is compared with the stored rates only from the stored day on")
    func longPayloadAfterStored() throws {
        // TRY was 1.7 in 2005 and 55.8 in 2026: the full history, fetched after a long outage,
        // must not be held against the stored latest day; its days after that day still are.
        let stored = DailyRates(day: day("2026-06-01"), rates: [code("USD"): "50"])
        let caughtUp = RatesBatch(base: .euro, days: [rates("2005-01-03", usd: "1.7"), rates("2026-06-01", usd: "50"), rates("2026-10-30", usd: "55.8")])
        try RatesValidation.checkContinuity(caughtUp, after: stored)
        let jump = RatesBatch(base: .euro, days: [rates("2005-01-03", usd: "1.7"), rates("2026-10-30", usd: "5.58")])
        #expect(throws: UpstreamDataError.implausibleRate(
            currency: code("USD"), day: day("2026-10-30"), text: "5.58", previous: "50", previousDay: day("2026-06-01"))
        ) {
            try RatesValidation.checkContinuity(jump, after: stored)
        }
        let shiftedCorrection = RatesBatch(base: .euro, days: [rates("2026-06-01", usd: "5.0")])
        #expect(throws: UpstreamDataError.self, "a correction of the stored day itself is checked too") {
            try RatesValidation.checkContinuity(shiftedCorrection, after: stored)
        }
    }

    @Test("the ECB's whole history since 1999 passes, its largest moves included")
    func realHistoryPasses() throws {
        let history = try ECBHistoryFile.read(contentsOf: Fixtures.historyZip)
        try RatesValidation.checkContinuity(history, after: nil)
        // Fetched again over a store 100 publications behind (after a long outage), it still passes.
        try RatesValidation.checkContinuity(history, after: history.days[history.days.count - 100])
        // ISK's 2.32x move across its 2008–2018 gap is the largest: still within the limit.
        let lastBeforeGap = history.days.first { $0.day == day("2008-12-09") }
        #expect(lastBeforeGap?.rates[code("ISK")] == "290")
    }
}

/// One day with a single valid rate.
private func daily(_ text: String) -> DailyRates {
    DailyRates(day: day(text), rates: [code("USD"): "1.1"])
}

/// One day with only a USD rate.
private func rates(_ text: String, usd: String) -> DailyRates {
    DailyRates(day: day(text), rates: [code("USD"): usd])
}
