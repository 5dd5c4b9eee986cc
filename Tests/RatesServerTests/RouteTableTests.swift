@testable import RatesServer
import Testing

@Suite("Data routes found by path, from Route's patterns")
struct RouteTableTests {
    /// `route`'s path with each `{name}` written as `value`.
    static func example(_ route: Route, _ value: String) -> String {
        route.path.split(separator: "/", omittingEmptySubsequences: false).map { $0.hasPrefix("{") ? value[...] : $0 }.joined(separator: "/")
    }

    @Test("every data route is found at its own path, its parameter as written; no other route is")
    func everyRoute() {
        for route in Route.allCases {
            // Frankfurter's dates begin with a digit, so a date stands for every parameter.
            let path = Self.example(route, "2026-10-30")
            let found = DataAnswers.route(ofPath: path[...])
            guard DataAnswers.routes.contains(route) else {
                #expect(found == nil, "\(path)")
                continue
            }
            let parameter = route.path.firstIndex(of: "{").map { path.dropFirst(route.path.distance(from: route.path.startIndex, to: $0)) }
            #expect(found?.route == route && found?.parameter == parameter, "\(path): \(String(describing: found))")
        }
    }

    @Test("a parameter spans its segments, and Frankfurter's dates begin with a digit")
    func parameters() {
        #expect(DataAnswers.route(ofPath: "/v2/rate/EUR/USD")?.parameter == "EUR/USD")
        #expect(DataAnswers.route(ofPath: "/v1/2025-01-02..")?.route == .frankfurterDates)
        #expect(DataAnswers.route(ofPath: "/2025-01-02..2025-01-31")?.route == .legacyDates)
        for path in ["/v1/providers", "/v1/latest-ish", "/abc", "/v1/sync"] {
            #expect(DataAnswers.route(ofPath: path[...]) == nil, "\(path)")
        }
    }

    @Test("an empty segment, an escaped character or another letter case finds no route")
    func refused() {
        let paths = [
            "//v1/latest", "/v1/latest/", "/v1//latest", "/V1/latest", "/v1/rates/", "/v1/rates/2026-10-30/", "/v1/rates/2026%2D10-30",
            "/v2/rate/EUR", "/v2/rate/EUR/", "/v2/rate//USD", "/v2/rate/EUR/USD/JPY", "/v2/currency/%55SD", "/", "",
        ]
        for path in paths {
            #expect(DataAnswers.route(ofPath: path[...]) == nil, "\(path)")
        }
    }
}
