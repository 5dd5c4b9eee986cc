import Foundation
import RatesCore
import RatesUpstream
import RatesTestFixtures
import Testing

@Suite("ECB CSV history")
struct ECBCSVTests {
    /// The bundled history, read once for the whole suite.
    static let history = Result { try ECBHistoryFile.read(contentsOf: Fixtures.historyZip) }

    // MARK: - The bundled history

    @Test("reads the bundled zip history from 1999-01-04 to 2026-10-30")
    func bundledHistory() throws {
        let history = try Self.history.get()
        #expect(history.base == .euro)
        #expect(history.days.count == 7126)
        let first = try #require(history.days.first)
        let last = try #require(history.days.last)
        #expect(first.day == day("1999-01-04"))
        #expect(first.rates[code("USD")] == "1.1789")
        #expect(first.rates[code("JPY")] == "133.73")
        #expect(last.day == day("2026-10-30"))
        #expect(last.rates[code("GBP")] == "0.8338")
        #expect(last.rates[code("ISK")] == "136")
        _ = try ProviderValidation.validate(ECBProvider.publications(of: history), notAfter: day("2026-10-31"))
    }

    @Test("leaves out currencies on the days the ECB did not publish them", arguments: [
        (currency: "RUB", lastDay: "2022-03-01"),
        (currency: "HRK", lastDay: "2022-12-30"),
        (currency: "BGN", lastDay: "2025-12-31"),
    ])
    func withdrawnCurrencies(currency: String, lastDay: String) throws {
        let history = try Self.history.get()
        let code = code(currency)
        let published = history.days.filter { $0.rates[code] != nil }.map(\.day)
        #expect(published.last == day(lastDay))
        #expect(history.days.filter { $0.day > day(lastDay) }.allSatisfy { $0.rates[code] == nil })
    }

    @Test("RUB stops after 2022-03-01, HRK is absent from 2023-01-01, BGN from 2026-01-01")
    func absentFromDates() throws {
        let history = try Self.history.get()
        func has(_ currency: String, on text: String) -> Bool? {
            history.days.first { $0.day == day(text) }.map { $0.rates[code(currency)] != nil }
        }
        #expect(has("RUB", on: "2022-03-01") == true)
        #expect(has("RUB", on: "2022-03-02") == false)
        #expect(history.days.filter { $0.day >= day("2023-01-01") }.allSatisfy { $0.rates[code("HRK")] == nil })
        #expect(history.days.filter { $0.day >= day("2026-01-01") }.allSatisfy { $0.rates[code("BGN")] == nil })
        #expect(history.days.filter { $0.day < day("2000-07-19") }.allSatisfy { $0.rates[code("BGN")] == nil })
    }

    @Test("agrees with the real 90-day XML on every value of their common days")
    func agreesWithXML() throws {
        let history = try Self.history.get()
        let xml = try ECBXML.parse(Fixtures.data("eurofxref-hist-90d.xml"))
        let csvDays = Dictionary(uniqueKeysWithValues: history.days.map { ($0.day, $0.rates) })
        var common = 0
        var sameText = 0
        for xmlDay in xml.days {
            let csvRates = try #require(csvDays[xmlDay.day], "\(xmlDay.day) is missing from the CSV")
            common += 1
            #expect(Set(csvRates.keys) == Set(xmlDay.rates.keys), "currencies differ on \(xmlDay.day)")
            for (currency, text) in xmlDay.rates {
                let csvText = try #require(csvRates[currency])
                #expect(decimal(csvText) == decimal(text), "\(currency) on \(xmlDay.day): CSV \(csvText), XML \(text)")
                if csvText == text { sameText += 1 }
            }
        }
        #expect(common == 65)
        // The two files also publish the same text: no trailing zeros differ.
        #expect(sameText == xml.valueCount)
    }

    @Test("reads back the newest 250 days written as ECB XML, currencies in the CSV's order")
    func xmlRoundTrip() throws {
        let history = try Self.history.get()
        let days = Array(history.days.suffix(250))
        let order = [
            "USD", "JPY", "BGN", "CZK", "DKK", "GBP", "HUF", "PLN", "RON", "SEK", "CHF", "ISK", "NOK", "TRY", "AUD",
            "BRL", "CAD", "CNY", "HKD", "IDR", "ILS", "INR", "KRW", "MXN", "MYR", "NZD", "PHP", "SGD", "THB", "ZAR",
        ].map(code)
        #expect(days.allSatisfy { Set($0.rates.keys).isSubset(of: order) })
        let cubes = days.reversed().map { daily in
            let rates = order.compactMap { code in daily.rates[code].map { "<Cube currency=\"\(code)\" rate=\"\($0)\"/>" } }
            return "<Cube time=\"\(daily.day)\">" + rates.joined() + "</Cube>"
        }
        let batch = try ECBXML.parse(Array(envelope(cubes.joined(separator: "\n")).utf8))
        #expect(batch.days == days)
    }

    // MARK: - The layout

    @Test("reads LF and CRLF line endings alike, with or without a final newline", arguments: ["\n", "\r\n"])
    func lineEndings(_ newline: String) throws {
        let lines = ["Date,USD,JPY,", "2025-04-04,1.1057,160.56,", "2025-04-03,1.1097,162.17,"]
        let expected = [
            DailyRates(day: day("2025-04-03"), rates: [code("USD"): "1.1097", code("JPY"): "162.17"]),
            DailyRates(day: day("2025-04-04"), rates: [code("USD"): "1.1057", code("JPY"): "160.56"]),
        ]
        #expect(try ECBCSV.parse(Array(lines.joined(separator: newline).utf8)).days == expected)
        #expect(try ECBCSV.parse(Array((lines.joined(separator: newline) + newline).utf8)).days == expected)
    }

    @Test("reads a header without the trailing comma")
    func noTrailingComma() throws {
        let batch = try ECBCSV.parse(Array("Date,USD,JPY\n2025-04-03,1.1097,162.17\n".utf8))
        #expect(batch.days == [DailyRates(day: day("2025-04-03"), rates: [code("USD"): "1.1097", code("JPY"): "162.17"])])
    }

    @Test("treats N/A and empty cells as absent")
    func absentCells() throws {
        let batch = try ECBCSV.parse(Array("Date,USD,JPY,BGN,\n2025-04-03,1.1097,N/A,,\n".utf8))
        #expect(batch.days == [DailyRates(day: day("2025-04-03"), rates: [code("USD"): "1.1097"])])
    }

    @Test("keeps the published text, trailing zeros included")
    func exactText() throws {
        let batch = try ECBCSV.parse(Array("Date,USD,\n2025-04-03,1.1000,\n".utf8))
        #expect(batch.days.first?.rates[code("USD")] == "1.1000")
    }

    // MARK: - Rejections

    @Test("rejects a row with the wrong number of fields", arguments: [
        "2025-04-03,1.1097,",
        "2025-04-03,1.1097,162.17,1.9558,",
        "2025-04-03,1.1097,162.17",
    ])
    func wrongFieldCount(_ row: String) {
        let csv = "Date,USD,JPY,\n2025-04-04,1.1057,160.56,\n" + row + "\n"
        let error = csvError(csv)
        #expect(error?.isMalformedCSV == true, "\(String(describing: error))")
        if case .malformedCSV(let line, _) = error { #expect(line == 3) }
    }

    @Test("rejects a header that is not Date and currency codes", arguments: [
        "Datum,USD,JPY,", "Date,usd,JPY,", "Date,USD,,JPY,", "Date,USD,USD,", "Date,", "<html><body>Error</body></html>",
    ])
    func badHeader(_ header: String) {
        let error = csvError(header + "\n2025-04-03,1.1,1.2,\n")
        #expect(error?.isMalformedCSV == true, "\(String(describing: error))")
        if case .malformedCSV(let line, _) = error { #expect(line == 1) }
    }

    @Test("rejects a value under the unnamed last column")
    func valueInTrailingColumn() {
        #expect(csvError("Date,USD,\n2025-04-03,1.1097,1.2\n")?.isMalformedCSV == true)
    }

    @Test("rejects days that do not exist or are not YYYY-MM-DD", arguments: ["2024-02-30", "30/10/2026", " 2025-04-03", ""])
    func invalidDay(_ text: String) {
        #expect(csvError("Date,USD,\n\(text),1.1,\n") == .invalidDay(text))
    }

    @Test("rejects rates that are not positive plain decimals", arguments: ["-1.1097", "0", "0.0", "NaN", "1e5", "1.1097 ", "\"1.1097\"", "n/a"])
    func invalidRates(_ rate: String) {
        #expect(csvError("Date,USD,\n2025-04-03,\(rate),\n") == .invalidRate(currency: code("USD"), day: day("2025-04-03"), text: rate))
    }

    @Test("rejects a day given twice")
    func duplicateDay() {
        #expect(csvError("Date,USD,\n2025-04-03,1.1,\n2025-04-03,1.2,\n") == .duplicateDay(day("2025-04-03")))
    }

    @Test("rejects a day without any rate")
    func emptyDay() {
        #expect(csvError("Date,USD,JPY,\n2025-04-03,N/A,N/A,\n") == .emptyDay(day("2025-04-03")))
    }

    @Test("rejects a blank line between days")
    func blankLine() {
        #expect(csvError("Date,USD,\n2025-04-04,1.1,\n\n2025-04-03,1.2,\n") == .malformedCSV(line: 3, reason: "blank line before the last day"))
    }

    @Test("rejects an empty file or one with only the header", arguments: ["", "\n", "Date,USD,JPY,\n", "Date,USD,JPY,\n\n"])
    func noDay(_ csv: String) {
        #expect(csvError(csv) == .empty)
    }

    // MARK: - History files

    @Test("reads a history file by its extension")
    func historyFileByExtension() throws {
        try withTemporaryDirectory { directory in
            let xml = try ECBHistoryFile.read(contentsOf: Fixtures.url("eurofxref-hist-90d.xml"))
            #expect(xml.days.count == 65)

            let csvURL = directory.appendingPathComponent("history.CSV")
            try Data("Date,USD,\n2025-04-03,1.1097,\n".utf8).write(to: csvURL)
            #expect(try ECBHistoryFile.read(contentsOf: csvURL).days.count == 1)

            let other = directory.appendingPathComponent("history.json")
            try Data("{}".utf8).write(to: other)
            #expect(throws: UpstreamDataError.self) { try ECBHistoryFile.read(contentsOf: other) }
        }
    }

    // The limit only catches a hang: the five reads take seconds alone, but took 125 s once on the
    // debug build beside the whole suite on two busy cores.
    @Test("rejects a zip that is damaged, cut short or holds no .csv, without hanging", .timeLimit(.minutes(5)))
    func damagedZip() throws {
        let zip = try [UInt8](Data(contentsOf: Fixtures.historyZip))
        var renamed = zip  // the member's name appears in its local header and in the central directory
        let name = Array("eurofxref-hist.csv".utf8)
        var replaced = 0
        for index in 0...(renamed.count - name.count) where renamed[index] == name[0] && renamed[index..<index + name.count].elementsEqual(name) {
            renamed.replaceSubrange(index..<index + name.count, with: Array("eurofxref-hist.txt".utf8))
            replaced += 1
        }
        #expect(replaced == 2)
        var flipped = zip
        flipped[zip.count / 3] ^= 0x55
        // Found by fuzzing: this deflate stream no longer ends within the member, which made
        // ZIPFoundation's own extraction loop forever.
        var unending = zip
        unending[zip.count - 108] = 144

        let damaged = [
            ("no .csv", renamed), ("a flipped byte", flipped), ("a stream that does not end", unending),
            ("cut short", Array(zip.prefix(zip.count / 2))), ("not a zip", Array("PK".utf8)),
        ]
        try withTemporaryDirectory { directory in
            for (label, bytes) in damaged {
                let url = directory.appendingPathComponent("eurofxref-hist.zip")
                try Data(bytes).write(to: url)
                do {
                    _ = try ECBHistoryFile.read(contentsOf: url)
                    Issue.record("\(label): read without error")
                } catch {
                    #expect((error as? UpstreamDataError)?.isUnreadableArchive == true, "\(label): \(error)")
                }
            }
        }
    }

    @Test("reports a missing file as the file system's error")
    func missingFile() {
        let missing = URL(fileURLWithPath: "/nonexistent/eurofxref-hist.zip")
        do {
            _ = try ECBHistoryFile.read(contentsOf: missing)
            Issue.record("read a file that does not exist")
        } catch {
            #expect(!(error is UpstreamDataError))
        }
    }
}

/// Runs `body` with a new empty directory, removed afterwards.
func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rates-upstream-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory)
}

/// The error parsing `text` as the ECB history CSV throws, or `nil` when it parses.
func csvError(_ text: String) -> UpstreamDataError? {
    do {
        _ = try ECBCSV.parse(Array(text.utf8))
        return nil
    } catch {
        return error
    }
}

func decimal(_ text: String) -> Decimal? { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) }
