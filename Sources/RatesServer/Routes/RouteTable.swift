/// Some routes by their paths, built once from their patterns (``Route/path``), for code that
/// must tell which route a request path is before the router sees it: the fast path and the
/// middleware (``DataAnswers/route(ofPath:)``). No second list of paths exists to drift from ``Route``.
///
/// A pattern's literal segments match exactly; its `{name}` segments, which come after all its
/// literal ones, match one non-empty segment each. The path parameter is the part of the path they
/// match, slashes included (`/v2/rate/{base}/{quote}` on `/v2/rate/EUR/USD` gives `EUR/USD`), as
/// written: a path with an escaped character (`%`) matches no pattern with parameters.
///
/// Lookup reads the path's UTF-8 bytes, never its `Character`s: a comparison of lengths (and of
/// bytes when they are equal) per pattern without parameters, then of prefixes per pattern with them.
struct RouteTable: Sendable {
    /// The literal bytes of every pattern, one after another (the entries below name their ranges):
    /// one buffer for a lookup to compare against.
    private let literals: [UInt8]
    /// The routes whose patterns have no parameter: the range of their paths in ``literals``.
    private let fixed: [(path: Range<Int>, route: Route)]
    /// The routes whose patterns have parameters: the range in ``literals`` of the literal part
    /// (through the `/` before the first parameter) and the number of parameter segments; longest
    /// literal part first, so `/v1/rates/{date}` is tried before `/v1/{dates}`.
    private let parameterized: [(prefix: Range<Int>, parameters: Int, route: Route)]

    init(_ routes: some Sequence<Route>) {
        var literals: [UInt8] = []
        var fixed: [(path: Range<Int>, route: Route)] = []
        var parameterized: [(prefix: Range<Int>, parameters: Int, route: Route)] = []
        for route in routes {
            let brace = route.path.utf8.firstIndex(of: UInt8(ascii: "{"))
            let literal = route.path[..<(brace ?? route.path.endIndex)].utf8
            let range = literals.count..<(literals.count + literal.count)
            literals += literal
            guard let brace else {
                fixed.append((range, route))
                continue
            }
            let parameters = route.path[brace...].split(separator: "/", omittingEmptySubsequences: false)
            precondition(
                parameters.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") }, "\(route.path): parameters come after the literal segments")
            parameterized.append((range, parameters.count, route))
        }
        self.literals = literals
        self.fixed = fixed
        self.parameterized = parameterized.sorted { $0.prefix.count > $1.prefix.count }
    }

    /// The route of `path` (without its query) and its path parameter (`nil` for a pattern without
    /// one), or `nil` when no pattern matches; a pattern matches only when `accepts` takes its parameter.
    func route(
        ofPath path: Substring, accepting accepts: (Route, Substring) -> Bool = { _, _ in true }
    ) -> (route: Route, parameter: Substring?)? {
        let bytes = path.utf8
        let count = bytes.count
        return literals.withUnsafeBufferPointer { literals -> (route: Route, parameter: Substring?)? in
            for (range, route) in fixed where range.count == count && bytes.elementsEqual(literals[range]) {
                return (route, nil)
            }
            guard !bytes.contains(UInt8(ascii: "%")) else { return nil }
            for (prefix, parameters, route) in parameterized where count > prefix.count && bytes.starts(with: literals[prefix]) {
                let parameter = path[bytes.index(bytes.startIndex, offsetBy: prefix.count)...]
                guard Self.segmentCount(parameter.utf8) == parameters, accepts(route, parameter) else { continue }
                return (route, parameter)
            }
            return nil
        }
    }

    /// The number of `/`-separated segments of `bytes`, or 0 when one of them is empty.
    private static func segmentCount(_ bytes: Substring.UTF8View) -> Int {
        var count = 1
        var length = 0
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                guard length > 0 else { return 0 }
                count += 1
                length = 0
            } else {
                length += 1
            }
        }
        return length > 0 ? count : 0
    }
}
