import CompressNIO
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RatesCore
import RatesServer
import RatesTestSupport
import Synchronization
import Testing

/// The sources of a sync page as the server writes them, resolved per day and currency.
struct PageSources: Decodable {
    var upserts: [String: [String: String]]
    var sources: [[String]]?
    var upsertSources: [String: [Int]]?

    /// `"NBU 2026-03-04"` for each currency of `day` whose value has a source entry; the others are the ECB's of `day`.
    func named(on day: String) -> [String: String] {
        guard let indexes = upsertSources?[day], let codes = upserts[day]?.keys.sorted() else { return [:] }
        var named: [String: String] = [:]
        for (code, index) in zip(codes, indexes) where index > 0 {
            named[code] = sources?[index - 1].joined(separator: " ")
        }
        return named
    }

    /// How many distinct providers the values of `day` come from, the ECB's of that day included when it has any.
    func providerCount(on day: String) -> Int {
        let codes = upserts[day]?.count ?? 0
        let named = self.named(on: day)
        let providers = Set(named.values.map { $0.split(separator: " ")[0] })
        return providers.count + (named.count < codes ? 1 : 0)
    }
}

extension TestResponse {
    func pageSources() throws -> PageSources { try JSONDecoder().decode(PageSources.self, from: Data(body.readableBytesView)) }
}

@Suite("Sources in sync pages", .serialized)
struct SyncSourcesTests {
    @Test("a delta of other providers' values names each one's provider and own day through the page's table; the ECB's own values need nothing")
    func deltaNamesSources() async throws {
        let cursor = Mutex<String?>(nil)
        // The ECB's history alone first: a client takes its snapshot and cursor.
        try await RecordedProviders.withServer(whileECBOnly: { _, server in
            let snapshot = try await pullAll(server, from: "2026-02-23")
            cursor.withLock { $0 = snapshot.last?.cursor }
        }) { _, server in
            let cursor = try #require(cursor.withLock { $0 })
            let response = try await server.request("/v1/sync?cursor=\(cursor)")
            let violations = try OpenAPIContract.repository().violations(
                method: "GET", path: "/v1/sync", status: Int(response.status.code), contentType: response.headers[.contentType],
                body: Array(response.body.readableBytesView))
            #expect(violations.isEmpty, "\(violations)")
            #expect(try response.syncPage().upserts["2026-03-04"]?["UAH"] == "50.4597", "read as a client from before sources reads it")
            let page = try response.pageSources()
            let table = try #require(page.sources)
            #expect(Set(table.map { $0.count }) == [2], "each entry is a provider and a day")
            #expect(Set(table.map { $0.description }).count == table.count, "each source once")

            let wednesday = page.named(on: "2026-03-04")
            #expect(wednesday["UAH"] == "NBU 2026-03-04", "UAH from its own central bank")
            #expect(wednesday["AFN"] == "NBP 2026-03-04", "the afghani from the NBP's table B")
            #expect(page.upserts["2026-03-04"]?["USD"] == nil, "the ECB's own figure did not change")
            // A Saturday the HKMA dates its figures: the ECB's of Friday are carried forward, and say so.
            let saturday = page.named(on: "2026-02-28")
            #expect(saturday["USD"] == "ECB 2026-02-27")
            #expect(page.upserts["2026-02-28"]?.count == saturday.count, "every value that day is from another day or provider")
            // Every index points into the table, one per upserted currency.
            for (day, indexes) in page.upsertSources ?? [:] {
                #expect(indexes.count == page.upserts[day]?.count, "\(day)")
                #expect(indexes.allSatisfy { (0...table.count).contains($0) }, "\(day)")
            }
        }
    }

    @Test("pages of the ECB's own figures carry no sources: the history costs nothing more")
    func ecbOnlyPagesCarryNone() async throws {
        try await withSeededServer { client in
            let pages = try await pullAll(client, from: "2026-06-01")
            #expect(pages.reduce(0) { $0 + $1.valueCount } > 3_000)
            let first = try await client.request("/v1/sync?from=2026-06-01")
            #expect(!first.text.contains("\"sources\"") && !first.text.contains("\"upsertSources\""))
            let delta = try await client.request("/v1/sync?cursor=\(try #require(pages.last?.cursor))")
            #expect(try delta.syncPage().upserts.isEmpty)
            #expect(!delta.text.contains("\"sources\"") && !delta.text.contains("\"upsertSources\""))
        }
    }

    @Test("one day of every currency from several providers is under 2.5 KB with gzip, its computed values carrying 18 digits and no peg")
    func oneDayUnderTwoKilobytes() async throws {
        try await RecordedProviders.withServer { _, server in
            // The newest day alone: the page a client one day behind receives when every currency changed.
            let day = RecordedProviders.latestDay.description
            let plain = try await server.request("/v1/sync?from=\(day)")
            let page = try plain.pageSources()
            #expect(Array(page.upserts.keys) == [day])
            let currencies = try #require(page.upserts[day]).count
            let providers = page.providerCount(on: day)
            #expect(currencies >= 130 && providers >= 3, "\(currencies) currencies from \(providers) providers")
            #expect(!plain.text.contains("\"PEG\""), "the pegs' values are derived by the client from the declared table, not carried")

            let compressed = try await server.request("/v1/sync?from=\(day)", headers: [.acceptEncoding: "gzip"])
            #expect(compressed.headers[.contentEncoding] == "gzip")
            var body = compressed.body
            #expect(try body.decompress(with: .gzip()) == plain.body, "the same page")
            let size = compressed.body.readableBytes
            print("one-day sync page: \(currencies) currencies from \(providers) providers, \(plain.body.readableBytes) bytes, \(size) with gzip")
            #expect(size < 2_560, "\(size) bytes with gzip")
        }
    }
}
