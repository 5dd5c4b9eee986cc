import Foundation
import Hummingbird
import HummingbirdTesting
import RatesServer
import RatesTestSupport
import Testing

@Suite("Time series thinned with points=")
struct TimeseriesPointsTests {
    /// The dates of a time series answer, in order.
    static func days(_ response: TestResponse) -> [String] {
        ((response.json["rates"] as? [String: Any]) ?? [:]).keys.sorted()
    }

    @Test("points=N keeps N evenly spaced publication days, the first and the last among them")
    func thinned() async throws {
        try await withSeededServer { client in
            let month = "/v1/timeseries?start=2026-10-01&end=2026-10-30&symbols=USD"
            let all = Self.days(try await client.request(month))
            #expect(all.count == 22)
            let five = try await client.request(month + "&points=5")
            #expect(five.status == .ok)
            let picked = Self.days(five)
            #expect(picked.count == 5)
            #expect(picked.first == all.first && picked.last == all.last)
            // Positions 0, 5 (5.25), 11 (10.5), 16 (15.75), 21 of 22.
            #expect(picked == [0, 5, 11, 16, 21].map { all[$0] })
            #expect(five.json["start"] as? String == "2026-10-01" && five.json["end"] as? String == "2026-10-30")
            #expect(Self.days(try await client.request(month + "&points=22")) == all)
            #expect(Self.days(try await client.request(month + "&points=1000")) == all)
        }
    }

    @Test("a chart of every year is as many points as asked, from the first publication to the last")
    func history() async throws {
        try await withSeededServer { client in
            let answer = try await client.request("/v1/timeseries?start=1999-01-04&end=2026-10-30&base=USD&symbols=JPY&points=300")
            #expect(answer.status == .ok)
            let days = Self.days(answer)
            #expect(days.count == 300)
            #expect(days.first == "1999-01-04" && days.last == "2026-10-30")
            #expect(answer.body.readableBytes < 16_000, "\(answer.body.readableBytes) bytes")
        }
    }

    @Test("a points value that is not a whole number from 2 to 100000 is a 400 problem naming it", arguments: [
        "1", "0", "-3", "abc", "2.5", "1e3", "100001", "99999999999999999999", "+5", " 5",
    ])
    func refused(value: String) async throws {
        try await withSeededServer { client in
            let query = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
            let answer = try await client.request("/v1/timeseries?start=2026-10-01&end=2026-10-30&points=" + query)
            #expect(answer.status == .badRequest)
            #expect(answer.headers[.contentType] == "application/problem+json")
            #expect(answer.json["parameter"] as? String == "points")
            #expect(answer.json["type"] as? String == "urn:rates-relay:problem:invalid-parameter")
        }
    }

    @Test("points given twice is a 400 problem")
    func twice() async throws {
        try await withSeededServer { client in
            let answer = try await client.request("/v1/timeseries?start=2026-10-01&points=5&points=6")
            #expect(answer.status == .badRequest && answer.json["parameter"] as? String == "points")
        }
    }
}
