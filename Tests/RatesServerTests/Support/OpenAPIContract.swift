import Foundation
import Yams

/// The service contract, loaded from the repository's openapi.yaml.
///
/// Server tests hand it each real response and expect no violations:
///
/// ```swift
/// let contract = try OpenAPIContract.repository()
/// #expect(contract.violations(method: "GET", path: "/v1/latest?base=USD", status: 200,
///                             contentType: "application/json; charset=utf-8", body: bytes) == [])
/// ```
///
/// What it checks, in order: a path template matches the concrete path (literal segments win over
/// `{parameters}`, the query is ignored); the template has an operation for the method (`HEAD`
/// falls back to `GET`); the status is documented (exactly, as `2XX`, or as `default`); a response
/// without `content` has an empty body; the media type is documented (parameters such as
/// `charset` are ignored); a JSON media type's body (`application/json`, `…+json`) parses and
/// validates against the schema. Non-JSON media types (`application/yaml`, `text/plain`) are only
/// checked for their content type. A `HEAD` response must have no body; its content type is
/// checked only when it has one. Headers are not checked.
///
/// Schemas are read as JSON Schema 2020-12 (OpenAPI 3.1), with this subset: `$ref` to
/// `#/…` in the same document, `type` (one or several, `integer` is a number with no fraction),
/// `enum`, `const`, `properties`, `required`, `additionalProperties` (boolean or schema),
/// `patternProperties`, `propertyNames`, `minProperties`/`maxProperties`, `items`,
/// `minItems`/`maxItems`, `pattern`, `minLength`/`maxLength`, `format` `date` and `date-time`,
/// `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum` (numeric, 3.1 style), `allOf`,
/// `anyOf`, `oneOf`, `not`, and the boolean schemas `true` and `false`. Other keywords are ignored.
struct OpenAPIContract: Sendable {
    /// A JSON value, or a YAML value of the JSON-compatible kind the document is written in.
    enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([Value])
        case object([String: Value])
    }

    /// Why the contract could not be loaded.
    enum LoadError: Error, CustomStringConvertible {
        /// No directory holding `Package.swift` was found above the file.
        case packageRootNotFound(searchedFrom: String)
        /// The file holds no YAML document.
        case emptyDocument(path: String)
        /// The YAML holds something JSON cannot express, or the document is not an OpenAPI document.
        case unsupportedDocument(path: String, reason: String)

        var description: String {
            switch self {
            case .packageRootNotFound(let start):
                "no directory holding Package.swift above \(start): cannot find openapi.yaml"
            case .emptyDocument(let path):
                "\(path) holds no YAML document"
            case .unsupportedDocument(let path, let reason):
                "\(path) is not a usable OpenAPI document: \(reason)"
            }
        }
    }

    /// The whole document.
    private let document: Value

    /// Loads the contract from a YAML file.
    init(yamlAt url: URL) throws {
        let path = url.path(percentEncoded: false)
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let node = try Yams.compose(yaml: text) else { throw LoadError.emptyDocument(path: path) }
        let document: Value
        do {
            document = try Self.value(ofYAML: node)
        } catch let reason as UnsupportedYAML {
            throw LoadError.unsupportedDocument(path: path, reason: reason.description)
        }
        guard case .object(let root) = document, case .object? = root["paths"] else {
            throw LoadError.unsupportedDocument(path: path, reason: "no `paths` mapping at the top level")
        }
        self.document = document
    }

    /// The contract in `openapi.yaml` beside the `Package.swift` that encloses this source file.
    ///
    /// Symbolic links to this file are resolved first, so a scratch package that links the file in
    /// still finds the repository's document.
    static func repository() throws -> OpenAPIContract {
        let file = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        var directory = file.deletingLastPathComponent()
        while true {
            if FileManager.default.fileExists(atPath: directory.appending(path: "Package.swift").path(percentEncoded: false)) {
                return try OpenAPIContract(yamlAt: directory.appending(path: "openapi.yaml"))
            }
            let parent = directory.deletingLastPathComponent().standardizedFileURL
            if parent.path(percentEncoded: false) == directory.path(percentEncoded: false) || directory.pathComponents.count <= 1 {
                throw LoadError.packageRootNotFound(searchedFrom: file.path(percentEncoded: false))
            }
            directory = parent
        }
    }

    /// Violations of the contract by one real response; empty when it conforms.
    ///
    /// - Parameters:
    ///   - method: The request method (`GET`, `HEAD`, `POST`, any case).
    ///   - path: The concrete request path (`/v1/rates/2024-01-05`); a `?query` is ignored.
    ///   - status: The response status code.
    ///   - contentType: The response's `Content-Type` header, if it had one.
    ///   - body: The response body.
    func violations(method: String, path: String, status: Int, contentType: String?, body: [UInt8]) -> [String] {
        let method = method.lowercased()
        let requestPath = String(path.prefix { $0 != "?" && $0 != "#" })
        let request = "\(method.uppercased()) \(requestPath)"

        guard let match = pathItem(matching: requestPath) else {
            return ["no path in openapi.yaml matches \(requestPath)"]
        }
        let isHead = method == "head"
        guard let operation = match.item[method]?.objectValue ?? (isHead ? match.item["get"]?.objectValue : nil) else {
            let documented = match.item.keys.filter(Self.operationMethods.contains).map { $0.uppercased() }.sorted()
            return ["\(request): \(match.template) documents no \(method.uppercased()) operation (documented: \(documented.joined(separator: ", ")))"]
        }
        guard let responses = operation["responses"]?.objectValue else {
            return ["\(request): the operation documents no responses"]
        }
        let statusClass = "\(status / 100)XX"
        guard let responseValue = responses[String(status)] ?? responses[statusClass] ?? responses[statusClass.lowercased()] ?? responses["default"]
        else {
            let documented = responses.keys.sorted().joined(separator: ", ")
            return ["\(request): status \(status) is not documented (documented: \(documented))"]
        }
        let response: [String: Value]
        switch resolved(responseValue) {
        case .success(.object(let object)): response = object
        case .success: return ["\(request) \(status): the documented response is not an object"]
        case .failure(let reference): return ["\(request) \(status): unresolvable $ref \(reference.reference)"]
        }

        let content = response["content"]?.objectValue ?? [:]
        if content.isEmpty {
            return body.isEmpty ? [] : ["\(request) \(status): expected no body, got \(body.count) bytes"]
        }
        if isHead && !body.isEmpty {
            return ["\(request) \(status): a HEAD response must have no body, got \(body.count) bytes"]
        }
        let documentedTypes = content.keys.sorted().joined(separator: ", ")
        guard let contentType else {
            return isHead ? [] : ["\(request) \(status): no Content-Type (documented: \(documentedTypes))"]
        }
        let essence = Self.mediaTypeEssence(contentType)
        guard let mediaType = Self.mediaType(essence, in: content) else {
            return ["\(request) \(status): Content-Type \(essence) is not documented (documented: \(documentedTypes))"]
        }
        guard !isHead, Self.isJSON(mediaType.name), let schema = mediaType.object.objectValue?["schema"] else { return [] }

        let json: Value
        do {
            let object = try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
            guard let converted = Self.value(ofJSON: object) else {
                return ["\(request) \(status): body holds a value JSON cannot express"]
            }
            json = converted
        } catch {
            return ["\(request) \(status): body is not valid JSON (\(body.count) bytes)"]
        }
        var found: [String] = []
        validate(json, against: schema, at: "$", depth: 0, into: &found)
        return found
    }
}

// MARK: - Paths and media types

extension OpenAPIContract {
    private static let operationMethods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The path item whose template matches `requestPath` (each `{parameter}` segment non-empty and
    /// matching its parameter's `pattern`, when it has one); a template with fewer `{parameters}` wins.
    private func pathItem(matching requestPath: String) -> (template: String, item: [String: Value])? {
        guard let paths = document.objectValue?["paths"]?.objectValue else { return nil }
        let segments = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        var best: (template: String, item: [String: Value], parameters: Int)?
        for (template, item) in paths {
            let templateSegments = template.split(separator: "/", omittingEmptySubsequences: false)
            guard templateSegments.count == segments.count else { continue }
            var parameters = 0
            var matches = true
            for (expected, actual) in zip(templateSegments, segments) {
                if expected.hasPrefix("{") && expected.hasSuffix("}") {
                    parameters += 1
                    if actual.isEmpty || !pathParameter(String(expected.dropFirst().dropLast()), of: item, accepts: String(actual)) { matches = false }
                } else if expected != actual {
                    matches = false
                }
                if !matches { break }
            }
            guard matches, case .success(.object(let object)) = resolved(item) else { continue }
            if best == nil || parameters < best!.parameters || (parameters == best!.parameters && template < best!.template) {
                best = (template, object, parameters)
            }
        }
        return best.map { ($0.template, $0.item) }
    }

    /// Whether path parameter `name`'s schema in the GET of `item` takes `segment`: its `pattern`,
    /// when it has one (a template such as `/v1/{dates}` does not claim `/v1/nope`).
    private func pathParameter(_ name: String, of item: Value, accepts segment: String) -> Bool {
        guard case .success(.object(let object)) = resolved(item),
              let parameters = object["get"]?.objectValue?["parameters"]?.arrayValue else { return true }
        for parameter in parameters {
            guard case .success(.object(let definition)) = resolved(parameter), definition["name"]?.stringValue == name,
                  definition["in"]?.stringValue == "path" else { continue }
            guard case .success(.object(let schema))? = definition["schema"].map(resolved), let pattern = schema["pattern"]?.stringValue,
                  let expression = try? NSRegularExpression(pattern: pattern)
            else { return true }
            return expression.firstMatch(in: segment, range: NSRange(segment.startIndex..., in: segment)) != nil
        }
        return true
    }

    /// `application/problem+json` for `Application/Problem+JSON; charset=utf-8`.
    private static func mediaTypeEssence(_ contentType: String) -> String {
        let essence = contentType.prefix { $0 != ";" }
        return essence.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The documented media type for `essence`: an exact match, then `type/*`, then `*/*`.
    private static func mediaType(_ essence: String, in content: [String: Value]) -> (name: String, object: Value)? {
        let byEssence = Dictionary(content.map { (mediaTypeEssence($0.key), ($0.key, $0.value)) }, uniquingKeysWith: { first, _ in first })
        let type = essence.prefix { $0 != "/" }
        return byEssence[essence] ?? byEssence["\(type)/*"] ?? byEssence["*/*"]
    }

    private static func isJSON(_ mediaType: String) -> Bool {
        let essence = mediaTypeEssence(mediaType)
        return essence == "application/json" || essence.hasSuffix("+json")
    }
}

// MARK: - References

extension OpenAPIContract {
    /// A `$ref` that names nothing in the document.
    private struct UnresolvedReference: Error {
        var reference: String
    }

    /// `value` with its `$ref` chain followed, as long as it is a reference object.
    private func resolved(_ value: Value) -> Result<Value, UnresolvedReference> {
        var current = value
        for _ in 0..<32 {
            guard case .object(let object) = current, case .string(let reference)? = object["$ref"] else { return .success(current) }
            guard let target = target(of: reference) else { return .failure(UnresolvedReference(reference: reference)) }
            current = target
        }
        return .failure(UnresolvedReference(reference: "(a cycle of $ref)"))
    }

    /// The value a local JSON pointer reference (`#/components/schemas/Rates`) names.
    private func target(of reference: String) -> Value? {
        guard reference.hasPrefix("#") else { return nil }
        let pointer = reference.dropFirst()
        guard !pointer.isEmpty else { return document }
        guard pointer.hasPrefix("/") else { return nil }
        var current = document
        for rawToken in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let decoded = String(rawToken).removingPercentEncoding ?? String(rawToken)
            let token = decoded.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let index = Int(token), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }
}

// MARK: - Schema validation

extension OpenAPIContract {
    private func validate(_ value: Value, against schemaValue: Value, at path: String, depth: Int, into found: inout [String]) {
        guard depth < 64 else {
            found.append("\(path): schema nests too deeply (a $ref cycle?)")
            return
        }
        let schema: [String: Value]
        switch schemaValue {
        case .bool(true): return
        case .bool(false):
            found.append("\(path): no value is allowed here")
            return
        case .object(let object): schema = object
        default:
            found.append("\(path): the schema is neither an object nor a boolean")
            return
        }

        if case .string(let reference)? = schema["$ref"] {
            if let target = target(of: reference) {
                validate(value, against: target, at: path, depth: depth + 1, into: &found)
            } else {
                found.append("\(path): unresolvable $ref \(reference)")
            }
        }

        if let types = schema["type"] {
            let names: [String] =
                switch types {
                case .string(let name): [name]
                case .array(let items): items.compactMap(\.stringValue)
                default: []
                }
            guard names.contains(where: { Self.value(value, hasType: $0) }) else {
                found.append("\(path): expected \(names.joined(separator: " or ")), got \(Self.describe(value))")
                return
            }
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) {
            found.append("\(path): \(Self.describe(value)) is not one of \(allowed.map(Self.render).joined(separator: ", "))")
        }
        if let constant = schema["const"], constant != value {
            found.append("\(path): expected \(Self.render(constant)), got \(Self.describe(value))")
        }

        switch value {
        case .string(let string): validateString(string, against: schema, at: path, into: &found)
        case .number(let number): validateNumber(number, against: schema, at: path, into: &found)
        case .object(let object): validateObject(object, against: schema, at: path, depth: depth, into: &found)
        case .array(let array): validateArray(array, against: schema, at: path, depth: depth, into: &found)
        case .null, .bool: break
        }

        validateCombinations(value, against: schema, at: path, depth: depth, into: &found)
    }

    private func validateCombinations(_ value: Value, against schema: [String: Value], at path: String, depth: Int, into found: inout [String]) {
        for subschema in schema["allOf"]?.arrayValue ?? [] {
            validate(value, against: subschema, at: path, depth: depth + 1, into: &found)
        }
        if let branches = schema["anyOf"]?.arrayValue {
            let outcomes = branches.map { branchViolations(value, $0, path, depth) }
            if !outcomes.contains(where: \.isEmpty) {
                found.append("\(path): matches none of anyOf (\(Self.summary(of: outcomes)))")
            }
        }
        if let branches = schema["oneOf"]?.arrayValue {
            let outcomes = branches.map { branchViolations(value, $0, path, depth) }
            let matched = outcomes.filter(\.isEmpty).count
            if matched == 0 {
                found.append("\(path): matches none of oneOf (\(Self.summary(of: outcomes)))")
            } else if matched > 1 {
                found.append("\(path): matches \(matched) branches of oneOf, expected exactly one")
            }
        }
        if let negated = schema["not"], branchViolations(value, negated, path, depth).isEmpty {
            found.append("\(path): matches a schema it must not match")
        }
    }

    private func branchViolations(_ value: Value, _ schema: Value, _ path: String, _ depth: Int) -> [String] {
        var found: [String] = []
        validate(value, against: schema, at: path, depth: depth + 1, into: &found)
        return found
    }

    private static func summary(of outcomes: [[String]]) -> String {
        outcomes.enumerated().map { "branch \($0.offset): \($0.element.joined(separator: "; "))" }.joined(separator: " | ")
    }

    private func validateString(_ string: String, against schema: [String: Value], at path: String, into found: inout [String]) {
        let length = string.unicodeScalars.count
        if let minimum = schema["minLength"]?.numberValue, Double(length) < minimum {
            found.append("\(path): \(Self.render(.string(string))) is shorter than \(Int(minimum)) characters")
        }
        if let maximum = schema["maxLength"]?.numberValue, Double(length) > maximum {
            found.append("\(path): \(Self.render(.string(string))) is longer than \(Int(maximum)) characters")
        }
        if let pattern = schema["pattern"]?.stringValue {
            do {
                let expression = try NSRegularExpression(pattern: pattern)
                if expression.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) == nil {
                    found.append("\(path): \(Self.render(.string(string))) does not match \(pattern)")
                }
            } catch {
                found.append("\(path): the schema's pattern \(pattern) does not compile")
            }
        }
        switch schema["format"]?.stringValue {
        case "date" where !Self.isDate(string):
            found.append("\(path): \(Self.render(.string(string))) is not a date (YYYY-MM-DD)")
        case "date-time" where !Self.isDateTime(string):
            found.append("\(path): \(Self.render(.string(string))) is not an RFC 3339 date-time")
        default:
            break
        }
    }

    private func validateNumber(_ number: Double, against schema: [String: Value], at path: String, into found: inout [String]) {
        let text = Self.render(.number(number))
        if let bound = schema["minimum"]?.numberValue, number < bound {
            found.append("\(path): \(text) is less than the minimum \(Self.render(.number(bound)))")
        }
        if let bound = schema["maximum"]?.numberValue, number > bound {
            found.append("\(path): \(text) is greater than the maximum \(Self.render(.number(bound)))")
        }
        if let bound = schema["exclusiveMinimum"]?.numberValue, number <= bound {
            found.append("\(path): \(text) is not greater than \(Self.render(.number(bound)))")
        }
        if let bound = schema["exclusiveMaximum"]?.numberValue, number >= bound {
            found.append("\(path): \(text) is not less than \(Self.render(.number(bound)))")
        }
    }

    private func validateObject(_ object: [String: Value], against schema: [String: Value], at path: String, depth: Int, into found: inout [String]) {
        for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
            found.append("\(path): missing required property \"\(name)\"")
        }
        if let minimum = schema["minProperties"]?.numberValue, Double(object.count) < minimum {
            found.append("\(path): has \(object.count) properties, fewer than \(Int(minimum))")
        }
        if let maximum = schema["maxProperties"]?.numberValue, Double(object.count) > maximum {
            found.append("\(path): has \(object.count) properties, more than \(Int(maximum))")
        }
        let properties = schema["properties"]?.objectValue ?? [:]
        let patternProperties = schema["patternProperties"]?.objectValue ?? [:]
        for name in object.keys.sorted() {
            let member = object[name]!
            let memberPath = Self.path(path, appending: name)
            if let propertyNames = schema["propertyNames"] {
                var nameViolations: [String] = []
                validate(.string(name), against: propertyNames, at: memberPath, depth: depth + 1, into: &nameViolations)
                found += nameViolations.map { "\($0) (property name)" }
            }
            var evaluated = false
            if let subschema = properties[name] {
                evaluated = true
                validate(member, against: subschema, at: memberPath, depth: depth + 1, into: &found)
            }
            for (pattern, subschema) in patternProperties
            where (try? NSRegularExpression(pattern: pattern))?.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil {
                evaluated = true
                validate(member, against: subschema, at: memberPath, depth: depth + 1, into: &found)
            }
            if !evaluated, let additional = schema["additionalProperties"] {
                if case .bool(false) = additional {
                    found.append("\(memberPath): property \"\(name)\" is not documented")
                } else {
                    validate(member, against: additional, at: memberPath, depth: depth + 1, into: &found)
                }
            }
        }
    }

    private func validateArray(_ array: [Value], against schema: [String: Value], at path: String, depth: Int, into found: inout [String]) {
        if let minimum = schema["minItems"]?.numberValue, Double(array.count) < minimum {
            found.append("\(path): has \(array.count) items, fewer than \(Int(minimum))")
        }
        if let maximum = schema["maxItems"]?.numberValue, Double(array.count) > maximum {
            found.append("\(path): has \(array.count) items, more than \(Int(maximum))")
        }
        if let items = schema["items"] {
            for (index, element) in array.enumerated() {
                validate(element, against: items, at: "\(path)[\(index)]", depth: depth + 1, into: &found)
            }
        }
    }

    private static func value(_ value: Value, hasType type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number):
            true
        case ("integer", .number(let number)):
            number.isFinite && number.rounded(.towardZero) == number
        default:
            false
        }
    }

    /// `$.rates.USD`, or `$["odd key"]` for a key a dot would make ambiguous.
    private static func path(_ path: String, appending key: String) -> String {
        let plain = !key.isEmpty && !key.contains(where: { ".[]\"' ".contains($0) })
        return plain ? "\(path).\(key)" : "\(path)[\(render(.string(key)))]"
    }

    // MARK: Formats

    /// `YYYY-MM-DD` naming a day that exists in the proleptic Gregorian calendar.
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month)
        else { return false }
        let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// RFC 3339 `date-time`: `2026-10-30T15:05:00Z`, `2026-10-30T15:05:00.123+01:00`.
    static func isDateTime(_ text: String) -> Bool {
        let pattern = #"^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-]([0-9]{2}):([0-9]{2}))$"#
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
        else { return false }
        func group(_ index: Int) -> Int? {
            guard let range = Range(match.range(at: index), in: text) else { return nil }
            return Int(text[range])
        }
        guard let dateRange = Range(match.range(at: 1), in: text), isDate(String(text[dateRange])),
            let hour = group(2), let minute = group(3), let second = group(4),
            hour < 24, minute < 60, second <= 60
        else { return false }
        if let offsetHour = group(7), let offsetMinute = group(8) {
            return offsetHour < 24 && offsetMinute < 60
        }
        return true
    }

    // MARK: Messages

    /// `string "1.1"`, `boolean true`, `null`: the kind of a value, and the value when it is short.
    private static func describe(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "boolean \(bool)"
        case .number: "number \(render(value))"
        case .string: "string \(render(value))"
        case .array(let array): "array of \(array.count)"
        case .object(let object): "object with \(object.count) properties"
        }
    }

    /// The value written as JSON, shortened.
    private static func render(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return String(bool)
        case .number(let number):
            if number.isFinite, number.rounded(.towardZero) == number, abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .string(let string):
            let shown = string.count > 60 ? String(string.prefix(57)) + "..." : string
            return "\"\(shown.replacingOccurrences(of: "\"", with: "\\\""))\""
        case .array(let array): return "[\(array.prefix(5).map(render).joined(separator: ", "))\(array.count > 5 ? ", ..." : "")]"
        case .object(let object): return "{\(object.keys.sorted().prefix(5).joined(separator: ", "))\(object.count > 5 ? ", ..." : "")}"
        }
    }
}

// MARK: - Conversion

extension OpenAPIContract {
    /// Something in the YAML that JSON cannot express.
    private struct UnsupportedYAML: Error, CustomStringConvertible {
        var description: String
    }

    /// The YAML node as a JSON-style value, resolving scalars by the YAML core schema.
    ///
    /// Timestamps stay strings (`2026-10-30` is a date in the document, not a `Date`).
    private static func value(ofYAML node: Node) throws -> Value {
        switch node {
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .null: return .null
            case .bool: return node.bool.map(Value.bool) ?? .string(scalar.string)
            case .int: return node.int.map { .number(Double($0)) } ?? .string(scalar.string)
            case .float: return node.float.map(Value.number) ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        case .mapping(let mapping):
            var object: [String: Value] = [:]
            for (key, member) in mapping {
                guard let name = key.scalar?.string else {
                    throw UnsupportedYAML(description: "a mapping key that is not a scalar, line \(key.mark?.line ?? 0)")
                }
                object[name] = try value(ofYAML: member)
            }
            return .object(object)
        case .sequence(let sequence):
            return .array(try sequence.map(value(ofYAML:)))
        case .alias:
            throw UnsupportedYAML(description: "an unresolved alias, line \(node.mark?.line ?? 0)")
        }
    }

    /// The class `JSONSerialization` uses for `true` and `false`, which are `NSNumber`s too.
    ///
    /// On Linux, `NSNumber(1) as? Bool` succeeds and `true as? Int` does too, so a boolean is told
    /// from a number by its class, never by casting.
    private static let booleanNumberClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// The `JSONSerialization` result as a value; `nil` for anything JSON does not produce.
    static func value(ofJSON object: Any) -> Value? {
        if object is NSNull { return .null }
        if let string = object as? String { return .string(string) }
        if type(of: object) == Bool.self, let bool = object as? Bool { return .bool(bool) }
        if let number = object as? NSNumber {
            if ObjectIdentifier(type(of: number)) == booleanNumberClass { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        }
        if let array = object as? [Any] {
            var values: [Value] = []
            for element in array {
                guard let value = value(ofJSON: element) else { return nil }
                values.append(value)
            }
            return .array(values)
        }
        if let dictionary = object as? [String: Any] {
            var values: [String: Value] = [:]
            for (key, element) in dictionary {
                guard let value = value(ofJSON: element) else { return nil }
                values[key] = value
            }
            return .object(values)
        }
        return nil
    }
}

extension OpenAPIContract.Value {
    fileprivate var objectValue: [String: Self]? {
        if case .object(let object) = self { object } else { nil }
    }

    fileprivate var arrayValue: [Self]? {
        if case .array(let array) = self { array } else { nil }
    }

    fileprivate var stringValue: String? {
        if case .string(let string) = self { string } else { nil }
    }

    fileprivate var numberValue: Double? {
        if case .number(let number) = self { number } else { nil }
    }
}

extension OpenAPIContract {
    /// A request made of an operation's parameter examples.
    struct ExampleRequest: Sendable, CustomStringConvertible {
        var method: String
        /// The path with its parameters' examples in place, and a query of every query parameter's example.
        var target: String

        var description: String { "\(method.uppercased()) \(target)" }
    }

    /// One request per operation: its path parameters' and query parameters' examples, all of them
    /// together (`example` of the parameter, else of its schema); operations whose path has a parameter
    /// without an example are left out. Header parameters are left out.
    func exampleRequests() -> [ExampleRequest] {
        guard case .object(let root) = document, case .object(let paths)? = root["paths"] else { return [] }
        var requests: [ExampleRequest] = []
        for (template, itemValue) in paths.sorted(by: { $0.key < $1.key }) {
            guard case .success(.object(let item)) = resolved(itemValue) else { continue }
            for method in Self.operationMethods.sorted() {
                guard let operation = item[method]?.objectValue else { continue }
                let declared = (item["parameters"]?.arrayValue ?? []) + (operation["parameters"]?.arrayValue ?? [])
                var path = template
                var query: [String] = []
                var complete = true
                for parameterValue in declared {
                    guard case .success(.object(let parameter)) = resolved(parameterValue),
                          case .string(let name)? = parameter["name"], case .string(let location)? = parameter["in"]
                    else { continue }
                    let schema = parameter["schema"].flatMap { try? resolved($0).get() }?.objectValue
                    let example = (parameter["example"] ?? schema?["example"]).flatMap(Self.exampleText)
                    switch (location, example) {
                    case ("path", let text?): path = path.replacingOccurrences(of: "{\(name)}", with: text)
                    case ("path", nil): complete = false
                    case ("query", let text?):
                        let encoded = text.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? text
                        query.append("\(name)=\(encoded)")
                    default: continue
                    }
                }
                guard complete else { continue }
                requests.append(ExampleRequest(method: method, target: path + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))))
            }
        }
        return requests
    }

    /// An example's text as a URL carries it.
    private static func exampleText(_ value: Value) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): number == number.rounded() ? String(Int(number)) : String(number)
        case .bool(let flag): String(flag)
        default: nil
        }
    }
}

extension CharacterSet {
    /// What a query value may hold unescaped.
    static let urlQueryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&+=#"))
}
